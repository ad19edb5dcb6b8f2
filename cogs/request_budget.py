"""`RequestBudget`: the bot's own cap on bot-token requests per second, shared by all tables.

Discord allows a bot about 50 bot-token requests a second across all its servers (interaction
responses do not count). Going over it means 429s and every table lagging, so the table
publisher asks this budget before each channel request: `acquire` waits for room (the table's
edits coalesce meanwhile: a longer pause, never an error), `try_acquire` takes room only if
there is some now (a ping is skipped rather than delayed). The window is the event loop's
clock, so simulated time (the benchmark) and real time behave alike.
"""

from __future__ import annotations

import asyncio
from collections import deque

#: Requests a second the publisher allows itself (Discord's global limit is ~50; the rest is
#: room for the commands' own bot-token calls).
DEFAULT_PER_SECOND = 45
WINDOW = 1.0


class RequestBudget:
    """A sliding one-second window of at most `per_second` requests."""

    def __init__(self, per_second: int = DEFAULT_PER_SECOND) -> None:
        self.per_second = per_second
        self._times: deque[float] = deque()

    def _now(self) -> float:
        return asyncio.get_running_loop().time()

    def _expire(self, now: float) -> None:
        while self._times and self._times[0] <= now - WINDOW:
            self._times.popleft()

    def try_acquire(self) -> bool:
        """Take room for one request now if there is some."""
        now = self._now()
        self._expire(now)
        if len(self._times) >= self.per_second:
            return False
        self._times.append(now)
        return True

    async def acquire(self) -> None:
        """Wait until there is room for one request, then take it."""
        while not self.try_acquire():
            await asyncio.sleep(max(self._times[0] + WINDOW - self._now(), 0.001))
