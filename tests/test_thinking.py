"""`bot.thinking`: a CPU player's decisions are the same in a worker process as in a thread
(the same actions, the same state after), whatever its level; a killed worker costs no turn;
closing leaves no worker behind.

One pool serves the module (a pool per test would cost each a process start); the tests that
kill or close workers build their own.
"""

from __future__ import annotations

import asyncio
import dataclasses
import multiprocessing
import os
import pickle
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.engine import Hand, Rules, prepare
from bot.players import LEVELS, CpuPlayer, make_player
from bot.players.hint import hint
from bot.players.strategy import DecisionFigures
from bot.thinking import WORKER_NICENESS, Decision, Thinker, decide

ROOT = Path(__file__).resolve().parents[1]
#: the level of each seat: every level plays, the expert included
SEATS = ("random", "easy", "hard", "expert")


@pytest.fixture(scope="module")
def pool() -> Iterator[Thinker]:
    """A thinker with one worker process, shared by the module's tests."""
    thinker = asyncio.run(Thinker.start(1))
    assert thinker.pool is not None
    yield thinker
    asyncio.run(thinker.close())


def state(player: CpuPlayer) -> dict[str, Any]:
    """Everything a player carries from one decision to the next, comparable with `==`: its
    attributes, its generator's state (generators compare by identity) and the figures of its
    last decision but the time it took."""

    def comparable(value: Any) -> Any:
        if isinstance(value, random.Random):
            return value.getstate()
        if isinstance(value, DecisionFigures):
            return dataclasses.replace(value, seconds=0.0)
        return value

    return {name: comparable(value) for name, value in vars(player).items()}


def alive(pid: int) -> bool:
    """Whether process `pid` still runs (not gone, not a zombie)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


async def gone(pid: int, within: float = 10.0) -> bool:
    """Whether process `pid` ends within `within` seconds."""
    deadline = time.monotonic() + within
    while alive(pid) and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    return not alive(pid)


def test_every_level_pickles() -> None:
    prepare()
    for level in LEVELS:
        player = make_player(level, 5)
        again = pickle.loads(pickle.dumps(player))
        assert type(again) is type(player) and state(again) == state(player)


async def test_hands_played_in_a_process_are_the_hands_played_in_a_thread(
    pool: Thinker,
) -> None:
    """Two hands, each seat a level, every decision thought twice: in the worker (its player
    copied there and back) and in a thread of this process, as without workers; the actions
    and the players' states agree at every step, so the hands are one."""
    prepare()
    threads = await Thinker.start(0)
    here = [make_player(level, 100 + i) for i, level in enumerate(SEATS)]
    there = [make_player(level, 100 + i) for i, level in enumerate(SEATS)]
    decisions = showdowns = 0
    for deal in range(2):
        hand = Hand.start(Rules(players=len(SEATS)), [5000] * len(SEATS), deal, seed=deal)
        while hand.to_act is not None:
            seat = hand.to_act
            view, legal, events = hand.seat_view(seat), hand.legal_actions(), hand.events_for(seat)
            showdowns += view.showdown is not None
            mine = await threads.decide(here[seat], view, legal, events)
            assert mine.player is here[seat]  # changed in place, as without workers
            theirs = await pool.decide(there[seat], view, legal, events)
            assert theirs.player is not there[seat]  # it came back from the worker
            there[seat] = theirs.player
            assert theirs.action == mine.action, (seat, SEATS[seat])
            assert state(theirs.player) == state(here[seat]), (seat, SEATS[seat])
            hand.act(seat, mine.action)
            decisions += 1
    assert decisions > 20 and showdowns > 0
    assert pool.in_processes >= decisions and threads.in_threads == decisions


async def test_a_hint_is_the_same_in_a_process(pool: Thinker) -> None:
    prepare()
    hand = Hand.start(Rules(players=4), [5000] * 4, 0, seed=3)
    seat = hand.to_act
    assert seat is not None
    view, legal, events = hand.seat_view(seat), hand.legal_actions(), hand.events_for(seat)
    assert await pool.run(hint, view, legal, events) == hint(view, legal, events)


async def test_no_processes_think_in_a_thread() -> None:
    thinker = await Thinker.start(0)
    player = make_player("hard", 1)
    hand = Hand.start(Rules(players=4), [5000] * 4, 0, seed=1)
    seat = hand.to_act
    assert seat is not None
    decision = await thinker.decide(player, hand.seat_view(seat), hand.legal_actions(),
                                    hand.events_for(seat))
    assert isinstance(decision, Decision) and decision.player is player  # the same object
    assert (thinker.pool, thinker.in_threads, thinker.in_processes) == (None, 1, 0)
    assert await thinker.run(os.getpid) == os.getpid()
    await thinker.close()


async def test_a_killed_worker_costs_no_turn() -> None:
    """The only worker is killed while it works (a half-second job) with an expert's move
    waiting behind it: the move is thought again in a thread from the player as it was (the
    same action and state as without the kill), and a new pool takes over."""
    prepare()
    thinker = await Thinker.start(1)
    try:
        worker = await thinker.run(os.getpid)
        assert worker != os.getpid()
        hand = Hand.start(Rules(players=4), [5000] * 4, 1, seed=9)
        seat = hand.to_act
        assert seat is not None
        args = hand.seat_view(seat), hand.legal_actions(), hand.events_for(seat)
        player = make_player("expert", 77)
        expected = decide(pickle.loads(pickle.dumps(player)), *args)
        busy = asyncio.create_task(thinker.run(time.sleep, 0.5))
        thinking = asyncio.create_task(thinker.decide(player, *args))
        await asyncio.sleep(0.1)
        os.kill(worker, signal.SIGKILL)
        decision = await thinking
        assert decision.action == expected.action
        assert state(decision.player) == state(expected.player)
        await busy
        assert thinker.in_threads == 2
        assert await gone(worker)
        deadline = time.monotonic() + 30
        while thinker.pool is None and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert thinker.pool is not None, "no new pool"
        again = await thinker.run(os.getpid)
        assert again not in (worker, os.getpid())
        assert thinker.in_processes == 2
    finally:
        await thinker.close()


async def test_close_leaves_no_worker() -> None:
    before = {p.pid for p in multiprocessing.active_children()}
    thinker = await Thinker.start(2)
    workers = {p.pid for p in multiprocessing.active_children()} - before
    assert len(workers) == 2 and all(alive(pid) for pid in workers if pid is not None)
    await thinker.close()
    assert thinker.pool is None
    assert not {p.pid for p in multiprocessing.active_children()} & workers
    assert not any(alive(pid) for pid in workers if pid is not None)
    assert await thinker.run(os.getpid) == os.getpid()  # after close: a thread


async def test_workers_think_at_a_lower_priority(pool: Thinker) -> None:
    """Where the cores are short, a person's click runs before a CPU's search."""
    assert await pool.run(os.nice, 0) == os.nice(0) + WORKER_NICENESS


#: a bot's process in short: a thinker with one worker, whose pid it writes down, then it
#: waits (its output goes nowhere: a pipe would be held open by a worker outliving it)
BOT = """
import asyncio, os, sys
from pathlib import Path
from bot.thinking import Thinker

async def main():
    thinker = await Thinker.start(1)
    Path(sys.argv[1]).write_text(str(await thinker.run(os.getpid)))
    await asyncio.sleep(60)

asyncio.run(main())
"""


async def test_a_killed_bot_leaves_no_worker_behind(tmp_path: Path) -> None:
    """A bot killed with SIGKILL cannot shut its workers down: they end by themselves."""
    said = tmp_path / "worker"
    bot = subprocess.Popen([sys.executable, "-c", BOT, str(said)], stdout=subprocess.DEVNULL,
                           env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        deadline = time.monotonic() + 60
        while not said.exists() and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        worker = int(said.read_text())
        assert alive(worker)
    finally:
        bot.kill()
        bot.wait()
    assert await gone(worker), "the worker outlived its bot"
