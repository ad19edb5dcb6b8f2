"""What one paced action of `bench_tables` costs, in CPU rather than wall time, so that two
commits can be compared on a busy machine (a second worktree on PYTHONPATH):

    PYTHONPATH=/work/wt/base python bench/paced_cpu.py --profile base.prof
    PYTHONPATH=. python bench/paced_cpu.py --profile main.prof

It opens `--tables` tables as bench_tables does, plays `--warm` sequential rounds (its seq
phase), then `--actions` actions one at a time in the order of its paced phase (each table
after an exponential think time, simulated: nothing sleeps). Printed: CPU per action (every
thread: the store's too), split into actions that dealt the next hand and the others; store
hops per action; and every garbage collection by phase. A full collection walks every tracked
object of every table and stalls them all: whether one falls in the paced window moves the
paced p99 far more than a few percent of CPU per action. `--profile` writes a cProfile of the
paced actions (the event loop's thread only). Under valgrind (callgrind) the difference of two
runs with different `--actions` is the instruction count of those actions.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import heapq
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from bench.bench_tables import one_action  # noqa: E402

GUILD = 1


class Collections:
    """CPU time of every garbage collection (of the collecting thread), by phase."""

    def __init__(self) -> None:
        self.phase = "open"
        self.seen: list[tuple[str, int, float]] = []  # phase, generation, seconds
        self._began = 0.0
        gc.callbacks.append(self._note)

    def _note(self, moment: str, info: dict[str, int]) -> None:
        if moment == "start":
            self._began = time.thread_time()
        else:
            self.seen.append((self.phase, info["generation"], time.thread_time() - self._began))

    def close(self) -> None:
        gc.callbacks.remove(self._note)

    def report(self) -> list[str]:
        lines = []
        for phase in ("open", "seq", "paced"):
            parts = []
            for generation in (0, 1, 2):
                times = [s for p, g, s in self.seen if p == phase and g == generation]
                parts.append(f"gen{generation} {len(times)} x, {1000 * sum(times):.0f} ms, "
                             f"longest {1000 * max(times, default=0.0):.1f} ms")
            lines.append(f"  gc in {phase:5}: " + "; ".join(parts))
        return lines


async def act_once(service: Any, channel: int, players: dict[int, Any]) -> tuple[int, int] | None:
    """One random legal action at `channel` (as bench_tables plays it): (hand number before,
    after), or None."""
    state = service.state(channel)
    if state is None or await one_action(service, channel, players) is None:
        return None
    after = service.state(channel)
    return state.hand_no, (after.hand_no if after is not None else state.hand_no)


def count_store_hops() -> list[int]:
    """Count the calls that hand work to the SQLite store's thread (`run` of its class)."""
    from bot.store import connection

    owner = next(v for v in vars(connection).values()
                 if isinstance(v, type) and "run" in vars(v))
    real = owner.run
    hops = [0]

    def counted(self: Any, fn: Any) -> Any:
        hops[0] += 1
        return real(self, fn)

    owner.run = counted
    return hops


async def measure(tables: int, warm: int, actions: int, profile: str | None) -> None:
    """Play the phases and print the figures (see the module docstring)."""
    collections = Collections()
    try:
        plain, dealing, hops = await play(collections, tables, warm, actions, profile)
    finally:
        collections.close()
    done = plain + dealing
    print(f"paced actions {len(done)}: CPU {1000 * statistics.mean(done):.3f} ms an action "
          f"(plain {1000 * statistics.mean(plain):.3f} ms x {len(plain)}, dealing "
          f"{1000 * statistics.mean(dealing) if dealing else 0.0:.3f} ms x {len(dealing)}); "
          f"store hops {hops / len(done):.3f} an action")
    print("\n".join(collections.report()))


async def play(collections: Collections, tables: int, warm: int, actions: int,
               profile: str | None) -> tuple[list[float], list[float], int]:
    """The bench's phases; the CPU seconds of each plain and each dealing paced action, and
    the store hops of the paced actions."""
    from bot.players import RandomPlayer
    from bot.store import Store
    from bot.tables import FakeClock, TableService

    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(str(Path(folder) / "bench.db"))
        service = await TableService.start(store, clock=FakeClock(), seed=1, turn_timeout=60.0)
        players: dict[int, Any] = {}
        channels = [1000 + i for i in range(tables)]
        for i, channel in enumerate(channels):
            users = [i * 10 + k + 1 for k in range(4)]
            players.update({u: RandomPlayer(u) for u in users})
            await service.open_table(GUILD, channel, users[0])
            for user in users[1:]:
                await service.join(GUILD, channel, user)
            await service.start_game(GUILD, channel, users[0])
        collections.phase = "seq"
        for _ in range(warm):
            for channel in channels:
                await act_once(service, channel, players)
        collections.phase = "paced"
        hops = count_store_hops()
        rng = random.Random(3)
        queue = [(rng.expovariate(1 / 3.0), c) for c in channels]
        heapq.heapify(queue)
        plain: list[float] = []
        dealing: list[float] = []
        profiler = cProfile.Profile() if profile else None
        while len(plain) + len(dealing) < actions:
            at, channel = heapq.heappop(queue)
            heapq.heappush(queue, (at + rng.expovariate(1 / 3.0), channel))
            cpu = time.process_time()
            if profiler:
                profiler.enable()
            hands = await act_once(service, channel, players)
            if profiler:
                profiler.disable()
            if hands is not None:
                (dealing if hands[1] != hands[0] else plain).append(time.process_time() - cpu)
        if profiler and profile:
            profiler.dump_stats(profile)
        await service.stop()
        await store.close()
    return plain, dealing, hops[0]


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--warm", type=int, default=20, help="sequential rounds first")
    parser.add_argument("--actions", type=int, default=2500, help="paced actions measured")
    parser.add_argument("--profile", help="write a cProfile of the paced actions here")
    args = parser.parse_args(argv)
    asyncio.run(measure(args.tables, args.warm, args.actions, args.profile))


if __name__ == "__main__":
    main(sys.argv[1:])
