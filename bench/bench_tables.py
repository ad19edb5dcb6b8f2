"""Benchmark of the table service: many tables in one process, real SQLite store (temp file).

Figures (`run(size)` returns them; `python bench/bench_tables.py [small|full]` prints them):
- open_ms_per_table: open + 3 joins + start (first deal), per table;
- mem_kib_per_table: memory held per open table with a hand in progress (tracemalloc);
- seq_actions_per_s, seq_p50_ms, seq_p99_ms: one action at a time, round robin over every
  table: the latency of one `service.act` (lock + engine + one transaction + snapshot);
- paced_actions_per_s, paced_p50_ms, paced_p99_ms: every table at a human pace, each acting
  after a random think time (exponential, mean ``PACE[size][1]`` s) for ``PACE[size][0]`` s:
  the latency a player sees on a busy bot, queueing behind other tables included;
- conc_actions_per_s, conc_p50_ms, conc_p99_ms: every table driven at once by its own task
  (the store serialises the transactions, so latency includes queueing behind other tables).
Target: seq_p99_ms < 20.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

SIZES = {"small": (10, 15), "full": (500, 20)}  # tables, actions per table per phase
PACE = {"small": (1.0, 0.05), "full": (15.0, 3.0)}  # seconds paced, mean think time (s)
GUILD = 1


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    index = min(len(ordered) - 1, round(q * (len(ordered) - 1)))
    return ordered[index]


async def _one_action(service: Any, channel: int, players: dict[int, Any]) -> float | None:
    """One random legal action at the table of `channel`; its latency in seconds, or None."""
    state = service.state(channel)
    if state is None or state.to_act is None:
        return None
    user = state.to_act
    info = service.hand_for(GUILD, channel, user)
    action = players[user].choose(info.seat_view, list(info.actions), info.events)
    start = time.perf_counter()
    await service.act(
        GUILD, channel, user, action, expected_hand=state.hand_no, expected_turn=state.turn
    )
    return time.perf_counter() - start


async def _bench(size: str) -> dict[str, float]:
    from bot.players import RandomPlayer
    from bot.store import Store
    from bot.tables import FakeClock, TableService

    n_tables, n_actions = SIZES[size]
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(str(Path(folder) / "bench.db"))
        service = await TableService.start(store, clock=FakeClock(), seed=1, turn_timeout=60.0)
        players: dict[int, Any] = {}
        channels = [1000 + i for i in range(n_tables)]

        tracemalloc.start()
        base = tracemalloc.get_traced_memory()[0]
        start = time.perf_counter()
        for i, channel in enumerate(channels):
            users = [i * 10 + k + 1 for k in range(4)]
            for user in users:
                players[user] = RandomPlayer(user)
            await service.open_table(GUILD, channel, users[0])
            for user in users[1:]:
                await service.join(GUILD, channel, user)
            await service.start_game(GUILD, channel, users[0])
        open_s = time.perf_counter() - start
        held = tracemalloc.get_traced_memory()[0] - base
        tracemalloc.stop()

        # one action at a time, round robin
        seq: list[float] = []
        start = time.perf_counter()
        for _ in range(n_actions):
            for channel in channels:
                latency = await _one_action(service, channel, players)
                if latency is not None:
                    seq.append(latency)
        seq_s = time.perf_counter() - start

        # human pace: each table acts after a random think time, for a fixed window
        paced: list[float] = []
        window, think = PACE[size]
        pace_rng = random.Random(3)
        deadline = time.perf_counter() + window

        async def paced_drive(channel: int) -> None:
            while True:
                await asyncio.sleep(pace_rng.expovariate(1 / think))
                if time.perf_counter() >= deadline:
                    return
                latency = await _one_action(service, channel, players)
                if latency is not None:
                    paced.append(latency)

        start = time.perf_counter()
        await asyncio.gather(*(paced_drive(c) for c in channels))
        paced_s = time.perf_counter() - start

        # every table at once
        conc: list[float] = []

        async def drive(channel: int) -> None:
            for _ in range(n_actions):
                latency = await _one_action(service, channel, players)
                if latency is not None:
                    conc.append(latency)
                await asyncio.sleep(0)

        start = time.perf_counter()
        await asyncio.gather(*(drive(c) for c in channels))
        conc_s = time.perf_counter() - start

        problems = await store.audit()
        await service.stop()
        await store.close()
    if problems:
        raise AssertionError(f"ledger audit failed: {problems[:3]}")
    return {
        "tables": float(n_tables),
        "open_ms_per_table": 1000 * open_s / n_tables,
        "mem_kib_per_table": held / 1024 / n_tables,
        "seq_actions_per_s": len(seq) / seq_s if seq_s else 0.0,
        "seq_p50_ms": 1000 * statistics.median(seq) if seq else 0.0,
        "seq_p99_ms": 1000 * _percentile(seq, 0.99),
        "paced_actions_per_s": len(paced) / paced_s if paced_s else 0.0,
        "paced_p50_ms": 1000 * statistics.median(paced) if paced else 0.0,
        "paced_p99_ms": 1000 * _percentile(paced, 0.99),
        "conc_actions_per_s": len(conc) / conc_s if conc_s else 0.0,
        "conc_p50_ms": 1000 * statistics.median(conc) if conc else 0.0,
        "conc_p99_ms": 1000 * _percentile(conc, 0.99),
    }


def run(size: str = "full") -> dict[str, float]:
    """Run the benchmark at `size` ("small": a few seconds; "full": 500 tables)."""
    if size not in SIZES:
        raise ValueError(f"size must be one of {', '.join(SIZES)}")
    return asyncio.run(_bench(size))


if __name__ == "__main__":
    chosen = sys.argv[1] if len(sys.argv) > 1 else "full"
    for name, value in run(chosen).items():
        print(f"{name:22} {value:12.2f}")
