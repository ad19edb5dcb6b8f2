"""The harness's notion of "the bot has settled" (tests/harness/settle.py)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.client import TableOptions
from bot.tables.clock import FakeClock
from tests.harness import Harness, settle, task_is_idle


async def test_idle_and_busy_tasks() -> None:
    clock = FakeClock()
    event = asyncio.Event()
    timer = asyncio.create_task(asyncio.sleep(60))
    waiter = asyncio.create_task(event.wait())
    fake_sleeper = asyncio.create_task(clock.sleep_until(clock.now() + 30))
    short = asyncio.create_task(asyncio.sleep(0.05))
    await asyncio.sleep(0)
    try:
        assert task_is_idle(timer) and task_is_idle(waiter) and task_is_idle(fake_sleeper)
        assert not task_is_idle(short)
        baseline: set[asyncio.Task] = set()
        await settle(baseline, timeout=2)  # waits for `short`, not for the parked ones
        assert short.done() and not timer.done()
    finally:
        for task in (timer, waiter, fake_sleeper, short):
            task.cancel()
        await asyncio.gather(timer, waiter, fake_sleeper, short, return_exceptions=True)


async def test_settle_names_the_busy_tasks_when_it_gives_up() -> None:
    async def spin() -> None:
        while True:
            await asyncio.sleep(0.01)

    task = asyncio.create_task(spin(), name="spinner")
    try:
        with pytest.raises(TimeoutError, match="spinner"):
            await settle(set(), timeout=0.1)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def test_table_options_reach_the_table_service(tmp_path: Path) -> None:
    clock = FakeClock()
    async with Harness.create(tmp_path, table_options=TableOptions(clock=clock)) as h:
        assert h.tables is not None and h.tables.clock is clock
        await h.restart()
        assert h.tables.clock is clock
