"""Simulated time for the harness: an event loop whose clock jumps instead of waiting.

`VirtualTimeLoop.time()` is a simulated clock. When no callback is ready and no thread work
(`run_in_executor`, hence `asyncio.to_thread`: Pillow, CPU players) is pending, the loop
moves its clock straight to the next timer instead of sleeping, so `asyncio.sleep(1.5)` (the
publisher's interval, a think time, discord.py's rate-limit wait) costs no real time and
computing costs no simulated time. Figures measured in this time do not drift with the
speed of the machine: a benchmark of 500 tables simply takes longer to run.

aiosqlite's worker threads are not counted (they are not the loop's executor): before a jump
the loop waits `grace` real seconds for a wake-up from any thread, which covers a query.

`LoopClock` is the table service's clock on the same time (turn timers, CPU delays).
"""

from __future__ import annotations

import asyncio
import selectors
from collections.abc import Callable, Coroutine
from concurrent.futures import Executor
from typing import Any, TypeVar

T = TypeVar("T")

#: Real seconds to wait for a thread's wake-up before moving the simulated clock.
GRACE = 0.002
#: Real seconds per wait while thread work is pending or no timer is scheduled.
REAL_POLL = 0.05


class _JumpingSelector(selectors.DefaultSelector):  # type: ignore[misc, valid-type]
    """The loop's selector: real I/O is polled, a wait for a timer is a jump of the clock."""

    def __init__(self, loop: VirtualTimeLoop) -> None:
        super().__init__()
        self.owner = loop

    def select(self, timeout: float | None = None) -> list[Any]:
        """Ready I/O now; else wait for threads; else jump the clock by `timeout`."""
        ready = super().select(0)
        if ready or (timeout is not None and timeout <= 0):
            return ready
        owner = self.owner
        if owner.threads_pending:
            return super().select(REAL_POLL if timeout is None else min(timeout, REAL_POLL))
        ready = super().select(owner.grace)
        if ready:
            return ready
        if timeout is None:  # no timer at all: only a thread or a socket can wake us
            return super().select(REAL_POLL)
        owner.jump(timeout)
        return []


class VirtualTimeLoop(asyncio.SelectorEventLoop):
    """A selector event loop on simulated time (see the module docstring)."""

    def __init__(self, *, grace: float = GRACE) -> None:
        self.simulated = 0.0
        self.threads_pending = 0
        self.grace = grace
        self.jumps = 0
        super().__init__(_JumpingSelector(self))

    def time(self) -> float:
        """The simulated time (seconds since the loop was made)."""
        return self.simulated

    def jump(self, seconds: float) -> None:
        """Move the simulated clock forward (the loop does it when it would wait)."""
        self.simulated += seconds
        self.jumps += 1

    def run_in_executor(  # type: ignore[override]
        self, executor: Executor | None, func: Callable[..., T], *args: Any
    ) -> asyncio.Future[T]:
        """As the base loop, counting the pending jobs (the clock waits for them)."""
        future = super().run_in_executor(executor, func, *args)
        self.threads_pending += 1
        future.add_done_callback(self._thread_done)
        return future

    def _thread_done(self, _future: asyncio.Future[Any]) -> None:
        self.threads_pending -= 1


def run_virtual(main: Coroutine[Any, Any, T], *, grace: float = GRACE) -> T:
    """`asyncio.run(main)` on a `VirtualTimeLoop`."""
    with asyncio.Runner(loop_factory=lambda: VirtualTimeLoop(grace=grace)) as runner:
        return runner.run(main)


class LoopClock:
    """The table service's clock (`bot.tables.clock.Clock`) on the running loop's time, so
    that turn timers run on simulated time under a `VirtualTimeLoop`."""

    def __init__(self, epoch: float = 1_800_000_000.0) -> None:
        self.epoch = epoch

    def now(self) -> float:
        """Epoch seconds: `epoch` plus the loop's time."""
        return self.epoch + asyncio.get_running_loop().time()

    async def sleep_until(self, when: float) -> None:
        """Sleep on the loop's clock until `when`."""
        delay = when - self.now()
        await asyncio.sleep(max(delay, 0.0))
