"""Simulated time for the harness: an event loop whose clock jumps instead of waiting.

`VirtualTimeLoop.time()` is a simulated clock. When no callback is ready and no thread work
(`run_in_executor`, hence `asyncio.to_thread`: Pillow, CPU players) is pending, the loop
moves its clock straight to the next timer instead of sleeping, so `asyncio.sleep(1.5)` (the
publisher's interval, a think time, discord.py's rate-limit wait) costs no real time and
computing costs no simulated time. Figures measured in this time do not drift with the
speed of the machine: a benchmark of 500 tables simply takes longer to run.

The SQLite store's worker thread is not the loop's executor, so before a jump the loop also
looks at the other threads: one holding a pending future of the loop, or the store's
`ConnectionThread` with a job not yet finished, is at work (a query), and the clock waits for
its answer too. Should nothing wake the loop for `FORCE_AFTER` real seconds all the
same, the clock jumps anyway (counted in `forced_jumps`).

`LoopClock` is the table service's clock on the same time (turn timers, CPU delays).
"""

from __future__ import annotations

import asyncio
import queue
import selectors
import sys
import threading
from collections.abc import Callable, Coroutine
from concurrent.futures import Executor
from typing import Any, TypeVar

from bot.store.connection import ConnectionThread

T = TypeVar("T")

#: Real seconds to poll for a thread's wake-up before moving the simulated clock.
GRACE = 0.0
#: Real seconds per wait while work outside the loop is pending or no timer is scheduled.
REAL_POLL = 0.05
#: Real seconds without any wake-up after which the clock jumps although a task seems to wait
#: on outside work (a future some timer will resolve).
FORCE_AFTER = 1.0
#: The name prefix of the default executor's threads (counted by `run_in_executor`).
_EXECUTOR_PREFIX = "asyncio_"


def _holds_work(value: object) -> bool:
    """A pending future of the loop, a job queue with jobs not yet taken, or the store's
    worker thread with a job queued or running."""
    if isinstance(value, ConnectionThread):
        return not value.idle()
    if isinstance(value, asyncio.Future):
        return not value.done()
    if isinstance(value, queue.SimpleQueue | queue.Queue):
        return not value.empty()
    return False


def threads_at_work() -> bool:
    """Whether a worker thread other than the executor's holds a job the loop awaits: a
    frame of its stack has among its locals a pending `asyncio.Future` or a queue of jobs not
    yet taken, or is the store's `ConnectionThread` with work left (once answered, the loop
    has a wake-up to read)."""
    frames = sys._current_frames()  # the documented way to see where threads are
    for thread in threading.enumerate():
        if thread is threading.main_thread() or thread.name.startswith(_EXECUTOR_PREFIX):
            continue
        frame = frames.get(thread.ident or -1)
        while frame is not None:
            if any(_holds_work(v) for v in frame.f_locals.values()):
                return True
            frame = frame.f_back
    return False


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
        if owner.grace > 0:
            ready = super().select(owner.grace)
            if ready:
                return ready
        if timeout is None or owner.threads_pending or owner.outside_work():
            ready = super().select(REAL_POLL)
            if ready or timeout is None:
                owner.idle_real = 0.0
                return ready
            owner.idle_real += REAL_POLL
            if owner.idle_real < FORCE_AFTER:
                return ready
            owner.forced_jumps += 1
        owner.idle_real = 0.0
        owner.jump(timeout)
        return []


class VirtualTimeLoop(asyncio.SelectorEventLoop):
    """A selector event loop on simulated time (see the module docstring)."""

    def __init__(self, *, grace: float = GRACE) -> None:
        self.simulated = 0.0
        self.threads_pending = 0
        self.grace = grace
        self.jumps = 0
        self.forced_jumps = 0
        self.idle_real = 0.0
        super().__init__(_JumpingSelector(self))

    def time(self) -> float:
        """The simulated time (seconds since the loop was made)."""
        return self.simulated

    def jump(self, seconds: float) -> None:
        """Move the simulated clock forward (the loop does it when it would wait)."""
        self.simulated += seconds
        self.jumps += 1

    def outside_work(self) -> bool:
        """Whether a worker thread is still at work (see `threads_at_work`)."""
        return threads_at_work()

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
