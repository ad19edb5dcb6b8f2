"""Waiting until the bot has finished reacting to an event.

discord.py dispatches an interaction by creating tasks (the command tree's invoker, view and
modal callbacks, `on_interaction` listeners), which may start more tasks and wait on the store
threads or `asyncio.to_thread`. `settle` waits until every task created since a baseline is
either finished or *idle*: parked in a long sleep (a view's timeout, a turn timer) or waiting on
an `asyncio.Event`/`Queue`/`Condition` that nothing running will set.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable
from typing import Any

#: A sleep or timeout at least this long counts as idle (a timer, not work in progress).
IDLE_SLEEP = 0.5

_SLEEP_CODE = asyncio.sleep.__code__
_WAIT_FOR_CODE = asyncio.wait_for.__code__
_IDLE_WAITS = {
    asyncio.Event.wait.__code__,
    asyncio.Condition.wait.__code__,
    asyncio.Queue.get.__code__,
    asyncio.PriorityQueue.get.__code__,
}


#: Waits that are work in progress however long their inner sleep: a publisher waiting for room
#: in the shared request budget (up to a second) will send its request as soon as it wakes.
_BUSY_WAITS: set[object] = set()


def register_busy(function: object) -> None:
    """Count a task waiting inside `function` (a coroutine function) as busy, whatever it
    sleeps on inside (e.g. `RequestBudget.acquire`, which sleeps until the window has room)."""
    code = getattr(function, "__code__", None)
    if code is None:
        raise TypeError(f"{function!r} has no code object")
    _BUSY_WAITS.add(code)


def register_idle(function: object) -> None:
    """Count a task waiting inside `function` (a coroutine function) as idle, e.g. a fake
    clock's `sleep_until`, whose sleepers wake only when a test advances the clock."""
    code = getattr(function, "__code__", None)
    if code is None:
        raise TypeError(f"{function!r} has no code object")
    _IDLE_WAITS.add(code)


def _register_known_idles() -> None:
    try:
        from bot.tables.clock import FakeClock
    except ImportError:  # pragma: no cover - the service is part of the project
        return
    register_idle(FakeClock.sleep_until)
    from bot.discord_utils.request_budget import RequestBudget

    register_busy(RequestBudget.acquire)


_register_known_idles()


def task_is_idle(task: asyncio.Task) -> bool:
    """Whether `task` is parked: in a long sleep or waiting on an Event/Queue/Condition."""
    coro = task.get_coro()
    seen = 0
    while coro is not None and seen < 64:
        seen += 1
        code = getattr(coro, "cr_code", None) or getattr(coro, "gi_code", None)
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
        if code in _BUSY_WAITS:
            return False
        if code is _SLEEP_CODE and frame is not None:
            delay = frame.f_locals.get("delay", 0)
            return delay is not None and delay >= IDLE_SLEEP
        if code is _WAIT_FOR_CODE and frame is not None:
            timeout = frame.f_locals.get("timeout")
            return timeout is None or timeout >= IDLE_SLEEP
        if code in _IDLE_WAITS:
            return True
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
    return False


def sleeping_for(task: asyncio.Task) -> float | None:
    """The delay of the `asyncio.sleep` the task is parked in, or None."""
    coro: Any = task.get_coro()
    for _ in range(64):
        if coro is None:
            return None
        code = getattr(coro, "cr_code", None) or getattr(coro, "gi_code", None)
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
        if code is _SLEEP_CODE and frame is not None:
            delay = frame.f_locals.get("delay")
            return float(delay) if delay is not None else None
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
    return None


async def settle(
    baseline: Iterable[asyncio.Task], *, timeout: float = 10.0, poll: float = 0.002
) -> None:
    """Wait until every task not in `baseline` is done or idle (see `task_is_idle`).

    Raises `TimeoutError` naming the busy tasks after `timeout` seconds.
    """
    base = set(baseline)
    me = asyncio.current_task()
    deadline = time.monotonic() + timeout
    quiet_rounds = 0
    while True:
        busy = [
            t
            for t in asyncio.all_tasks()
            if t is not me and t not in base and not t.done() and not task_is_idle(t)
        ]
        if not busy:
            # let callbacks scheduled by the last finished task run, then check again
            quiet_rounds += 1
            if quiet_rounds >= 3:
                return
            await asyncio.sleep(0)
            continue
        quiet_rounds = 0
        if time.monotonic() > deadline:
            names = ", ".join(sorted(t.get_name() for t in busy))
            raise TimeoutError(f"the bot did not settle within {timeout}s; busy: {names}")
        await asyncio.wait(busy, timeout=poll, return_when=asyncio.FIRST_COMPLETED)
