"""Clocks for the turn timers: the real one, and a fake one for tests (no real waiting)."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from typing import Protocol


class Clock(Protocol):
    """What the table service needs from a clock. Times are epoch seconds (floats)."""

    def now(self) -> float:
        """The current time."""
        ...

    async def sleep_until(self, when: float) -> None:
        """Return once `now() >= when`."""
        ...


class SystemClock:
    """Wall-clock time (`time.time()`), waiting with `asyncio.sleep`."""

    def now(self) -> float:
        """The current epoch time."""
        return time.time()

    async def sleep_until(self, when: float) -> None:
        """Sleep until `when` (returns at once if it has passed)."""
        while True:
            delay = when - time.time()
            if delay <= 0:
                return
            await asyncio.sleep(delay)


class FakeClock:
    """A clock that only moves when a test calls `advance()`."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self._now = start
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._ids = itertools.count()

    def now(self) -> float:
        """The fake current time."""
        return self._now

    async def sleep_until(self, when: float) -> None:
        """Wait until `advance()` moves the time to `when` or later."""
        if when <= self._now:
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (when, next(self._ids), future))
        await future

    @property
    def sleepers(self) -> int:
        """How many coroutines are waiting on this clock."""
        return sum(1 for _, _, f in self._sleepers if not f.done())

    async def advance(self, seconds: float) -> None:
        """Move the time forward and wake every sleeper whose time has come."""
        self._now += seconds
        while self._sleepers and self._sleepers[0][0] <= self._now:
            _, _, future = heapq.heappop(self._sleepers)
            if not future.done():
                future.set_result(None)
        for _ in range(3):
            await asyncio.sleep(0)
