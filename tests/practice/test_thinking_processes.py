"""A practice table played through the harness with its CPU seats and the Hint thinking in a
worker process (`TableOptions(cpu_processes=1)`, as `STOPPA_CPU_PROCESSES` on a live bot):
the member sees, click by click, exactly what the same game shows when they think in a
thread; and closing the bot ends the worker."""

from __future__ import annotations

import os
from pathlib import Path

from bot.client import TableOptions
from tests.harness import Harness
from tests.practice.helpers import PracticeDriver, button, practice_session, said
from tests.test_thinking import alive, gone

HANDS = 3


async def play(tmp_path: Path, processes: int) -> list[str]:
    """What the member is shown, step by step, over `HANDS` hands against three hard CPUs,
    asking a hint at their first decision of each hand."""
    shown: list[str] = []
    options = TableOptions(cpu_processes=processes)
    async with Harness.create(tmp_path, seed=11, table_options=options,
                              db_name=f"stoppa-{processes}.db") as h:
        thinker = h.bot.thinker
        assert thinker is not None
        worker = await thinker.run(os.getpid)
        driver = PracticeDriver(h, h.member("Anna"), seed=8)
        await driver.open(players=4, level="hard")
        hinted = 0
        for _ in range(HANDS * 40):
            table = practice_session(h.bot.tables, driver.member.id)
            assert table is not None
            if table.meta.in_play.hand_no >= HANDS and not table.in_hand:
                break
            if hinted < table.meta.in_play.hand_no and button(driver.message, "hint"):
                shown.append((await driver.click("hint")).text)
                hinted = table.meta.in_play.hand_no
            await driver.step()
            shown.append(said(driver.message))
        assert hinted == HANDS
        cpu_moves = thinker.in_processes + thinker.in_threads - 1 - HANDS
        assert cpu_moves > 3 * HANDS  # the CPU seats played
        if processes:
            assert worker != os.getpid() and thinker.in_threads == 0
        else:
            assert worker == os.getpid() and thinker.in_processes == 0
    assert h.bot.thinker is None
    if processes:
        assert await gone(worker), "the worker outlived the bot"
    assert alive(os.getpid())
    return shown


async def test_cpu_seats_play_the_same_hands_in_a_worker_process(tmp_path: Path) -> None:
    in_thread = await play(tmp_path, 0)
    in_process = await play(tmp_path, 1)
    assert len(in_thread) > 5 * HANDS
    for step, (thread_text, process_text) in enumerate(zip(in_thread, in_process, strict=True)):
        assert process_text == thread_text, step
