"""The request-budget benchmark (`bench/bench_discord.py`) and its tools: simulated time and
the traffic gate of the harness (issue 18).

The small run is also checked by `tests/test_bench_smoke.py` (positive figures)."""

from __future__ import annotations

import asyncio
import time

from bot.cli.bench import bench_files, load
from tests.harness import Harness
from tests.harness.traffic import Traffic, kind_of
from tests.harness.virtual_time import LoopClock, VirtualTimeLoop, run_virtual

BENCH = load(next(p for p in bench_files() if p.stem == "bench_discord"))


def test_virtual_time_jumps_over_sleeps_and_stands_still_during_thread_work() -> None:
    async def main() -> tuple[float, float, float]:
        loop = asyncio.get_running_loop()
        assert isinstance(loop, VirtualTimeLoop)
        await asyncio.gather(*(asyncio.sleep(s) for s in (30.0, 60.0, 120.0)))
        slept = loop.time()
        await asyncio.to_thread(time.sleep, 0.05)  # real work: the simulated clock waits
        after_thread = loop.time()
        clock = LoopClock(epoch=1000.0)
        await clock.sleep_until(clock.now() + 7.5)
        return slept, after_thread, clock.now()

    started = time.perf_counter()
    slept, after_thread, clock_now = run_virtual(main())
    assert slept == 120.0 and after_thread == 120.0
    assert clock_now == 1000.0 + 127.5
    assert time.perf_counter() - started < 5.0  # 127.5 simulated seconds, far less real


def test_global_limit_answers_at_most_50_bot_calls_in_any_second(tmp_path) -> None:
    async def main() -> list[float]:
        async with Harness.create(tmp_path) as h:
            traffic = Traffic(h, global_limit=50)
            channel = h.bot.get_partial_messageable(h.channel_id, guild_id=h.guild_id)
            start = asyncio.get_running_loop().time()
            await asyncio.gather(*(channel.send(f"m{i}") for i in range(120)))
            sent = [s for s in traffic.sent if s.kind == "channel_post"]
            assert len(sent) == 120 and all(s.counts_globally for s in sent)
            return sorted(s.answered - start for s in sent if s.answered is not None)

    answered = run_virtual(main())
    assert len(answered) == 120
    for i in range(len(answered) - 50):
        assert answered[i + 50] - answered[i] >= 1.0 - 1e-9  # 51 calls never within 1 s
    assert 2.0 - 1e-9 <= answered[-1] < 3.0  # 120 calls: the third window


def test_kinds_split_channel_requests_from_interaction_requests(tmp_path) -> None:
    async def main() -> dict[str, int]:
        async with Harness.create(tmp_path) as h:
            traffic = Traffic(h)
            anna = h.member("Anna")
            await h.slash(anna, "stoppa new")
            counts: dict[str, int] = {}
            for sent in traffic.sent:
                counts[sent.kind] = counts.get(sent.kind, 0) + 1
            assert [kind_of(c) for c in h.calls[-len(traffic.sent):]] == [
                s.kind for s in traffic.sent
            ]
            return counts

    counts = run_virtual(main())
    # /stoppa new: a deferred answer and its edit; the table message posted on the channel
    assert counts["interaction_callback"] == 1 and counts["interaction_edit"] == 1
    assert counts["channel_post"] >= 1


def test_small_run_counts_every_action_and_answers_every_interaction() -> None:
    figures = BENCH.measure("small")
    assert figures["human_actions"] > 10
    assert figures["stuck_interactions"] == 0
    assert figures["lag_turns"] > 0
    # each button action is at least its click's answer; a slash command a deferral + edit
    assert figures["interaction_req_per_button"] >= 1.0
    assert figures["interaction_req_per_slash"] == 2.0


def test_the_global_limit_shows_as_lag_when_tables_ask_too_much() -> None:
    # every action by slash command: every edit of a table message is a channel request
    free = BENCH.measure("small", global_limit=None, slash_share=1.0)
    tight = BENCH.measure("small", global_limit=2, slash_share=1.0)
    assert free["channel_req_peak_per_s"] > 2
    assert tight["channel_req_peak_per_s"] <= 2
    assert tight["lag_p99_s"] > free["lag_p99_s"]


def test_figures_hardly_move_from_run_to_run() -> None:
    """Simulated time: the clock waits for every thread (renders, queries), so the machine's
    speed does not move the figures. What remains is the order in which two threads finish
    at the same simulated instant (which table's edit goes first), a few percent at most."""
    one, two = BENCH.measure("small"), BENCH.measure("small")
    for name in ("human_actions", "channel_req_per_action", "channel_req_per_s"):
        assert abs(one[name] - two[name]) <= 0.1 * max(one[name], two[name]), name
    assert one["forced_clock_jumps"] == two["forced_clock_jumps"] == 0
