"""Benchmark of the table service: many tables in one process, real SQLite store (temp file).

Figures (`run(size)` returns them; `python bench/bench_tables.py [small|medium|full]` prints
them):
- open_ms_per_table: open + 3 joins + start (first deal), per table;
- mem_kib_per_table: memory held per open table with a hand in progress (tracemalloc);
- seq_actions_per_s, seq_p50_ms, seq_p99_ms: one action at a time, round robin over every
  table: the latency of one `service.act` (lock + engine + one transaction + snapshot);
- paced_actions_per_s, paced_p50_ms, paced_p99_ms: every table at a human pace, each acting
  after a random think time (exponential, mean ``PACE[size][1]`` s) for ``PACE[size][0]`` s:
  the latency a player sees on a busy bot, queueing behind other tables included;
- conc_actions_per_s, conc_p50_ms, conc_p99_ms: every table driven at once by its own task
  (the store serialises the transactions, so latency includes queueing behind other tables);
- seq_cpu_ms_per_action, paced_cpu_ms_per_action, conc_cpu_ms_per_action: the process's CPU
  time (every thread: the store's too) per action in those phases, which a busy machine does
  not inflate as it does the latencies;
- paced_gc_ms, paced_gc_max_ms: the garbage collections during the paced window, their CPU
  time in all and the longest one. A full collection walks every object of 500 tables (about
  320,000: 100-300 ms) and stalls every table meanwhile: whether one falls in the 15 s window
  decides the paced p99 more than the cost of an action does. Start-up's own objects are
  frozen first, as the bot freezes them (`bot.heap`; `frozen_objects`, 0 with `--thaw`).
Target: seq_p99_ms < 20.

CPU seats (issue 37): `--cpus LEVEL` seats one CPU player of LEVEL at every table (three people
and the CPU), whose turns the session thinks as on a live bot (`cpu_turns`, `bot.thinking`):
in a thread by default, where a search holds the interpreter's lock, so the people's
latencies include what the CPUs' thinking costs them; with `--cpu-processes N` (or
`STOPPA_CPU_PROCESSES=N`, as the bot reads it) in N worker processes. It adds
`cpu_processes`, `cpu_decisions` (CPU moves made during the run), `cpu_think_ms_p95` (their
thinking time, where they thought) and `cpu_turn_ms_p95` (from asking to the answer: with
processes, the copies of the player and the view both ways and the wait for a free worker
too); the goal is the people's `paced_p99_ms` under `PACED_P99_GOAL_MS` (the one-action
target: a CPU seat must not make a person's click slow).

Several processes on one database (issue 17): `python bench/bench_tables.py full --database
URL --processes N` (URL: `postgresql://...`, or `sqlite:///file`; also `STOPPA_BENCH_DATABASE`)
starts N OS processes, each a table service with its own store (pool) and lease owner,
running shard i of N; the tables are spread one per server over the shards, so each process
drives its own. In a fresh schema (PostgreSQL) or file (SQLite) it measures, at once in every
process: saturation (every table driven by its own task; `sat_actions_per_s` over all
processes) and human pace (`paced_p99_ms`), and where the CPU went during saturation: each
bot process's and the PostgreSQL server's utime + stime from `/proc/<pid>/stat`.

`--metrics` runs with the bot's metrics recording (`bot.metrics`, as `STOPPA_METRICS_PORT`
turns it on; every process of a cluster run), to measure what they cost: compare interleaved
runs with and without it. `metric_series` then counts the series a scrape would show.
"""

from __future__ import annotations

import asyncio
import gc
import os
import random
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

import bot.metrics as metrics  # noqa: E402
from bot.heap import freeze_startup_heap  # noqa: E402
from bot.thinking import Decision, Thinker  # noqa: E402

#: set to 1 by `--metrics` for this process and the cluster run's workers
METRICS_VARIABLE = "STOPPA_BENCH_METRICS"

# tables, actions per table per phase ("medium": a quicker run for A/B comparisons)
SIZES = {"small": (10, 15), "medium": (100, 20), "full": (500, 20)}
# seconds paced, mean think time (s)
PACE = {"small": (1.0, 0.05), "medium": (10.0, 1.0), "full": (15.0, 3.0)}
GUILD = 1
#: the people's paced p99 with CPU seats thinking beside them (`--cpus`), in ms
PACED_P99_GOAL_MS = 20.0


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    index = min(len(ordered) - 1, round(q * (len(ordered) - 1)))
    return ordered[index]


class CollectorPauses:
    """The CPU time (of the collecting thread) of every garbage collection between `start`
    and `stop`, from `gc.callbacks`."""

    def __init__(self) -> None:
        self.pauses: list[float] = []
        self._began = 0.0

    def _note(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._began = time.thread_time()
        else:
            self.pauses.append(time.thread_time() - self._began)

    def start(self) -> None:
        gc.callbacks.append(self._note)

    def stop(self) -> None:
        gc.callbacks.remove(self._note)


async def one_action(service: Any, channel: int, players: dict[int, Any]) -> float | None:
    """One random legal action at the table of `channel`; its latency in seconds, or None."""
    state = service.state(channel)
    if state is None or state.to_act is None:
        return None
    user = state.to_act
    if user not in players:
        return None  # a CPU seat: the session plays it (`--cpus`)
    info = service.hand_for(GUILD, channel, user)
    action = players[user].choose(info.seat_view, list(info.actions), info.events)
    start = time.perf_counter()
    await service.act(
        GUILD, channel, user, action, expected_hand=state.hand_no, expected_turn=state.turn
    )
    return time.perf_counter() - start


class TimedThinker(Thinker):
    """The CPU seats' `Thinker` keeping each decision's thinking time (`seconds`, where it
    thought) and its time from asking to the answer (`turns`)."""

    def __init__(self, processes: int = 0) -> None:
        super().__init__(processes)
        self.seconds: list[float] = []
        self.turns: list[float] = []

    async def decide(self, player: Any, view: Any, legal: Any, events: Any) -> Decision:
        start = time.perf_counter()
        decision = await super().decide(player, view, legal, events)
        self.turns.append(time.perf_counter() - start)
        self.seconds.append(decision.seconds)
        return decision


def processes_setting() -> int:
    """`STOPPA_CPU_PROCESSES` when set (as the bot reads it), else 0: a thread."""
    from bot.config import load_settings

    if not os.environ.get("STOPPA_CPU_PROCESSES", "").strip():
        return 0
    return load_settings(dict(os.environ), dotenv=False).cpu_processes


async def _bench(size: str, cpus: str | None = None, cpu_processes: int = 0,
                 freeze: bool = True) -> dict[str, float]:
    from bot.players import RandomPlayer
    from bot.store import Store
    from bot.tables import FakeClock, TableService

    n_tables, n_actions = SIZES[size]
    thinker = await TimedThinker.start(cpu_processes)
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(str(Path(folder) / "bench.db"))
        service = await TableService.start(store, clock=FakeClock(), seed=1, turn_timeout=60.0,
                                           thinker=thinker)
        frozen = freeze_startup_heap() if freeze else 0  # as the bot's start-up ends
        players: dict[int, Any] = {}
        channels = [1000 + i for i in range(n_tables)]

        tracemalloc.start()
        base = tracemalloc.get_traced_memory()[0]
        start = time.perf_counter()
        for i, channel in enumerate(channels):
            users = [i * 10 + k + 1 for k in range(3 if cpus else 4)]
            for user in users:
                players[user] = RandomPlayer(user)
            await service.open_table(GUILD, channel, users[0])
            for user in users[1:]:
                await service.join(GUILD, channel, user)
            if cpus:
                await service.add_cpu(GUILD, channel, users[0], cpus)
            await service.start_game(GUILD, channel, users[0])
        open_s = time.perf_counter() - start
        held = tracemalloc.get_traced_memory()[0] - base
        tracemalloc.stop()

        # one action at a time, round robin
        seq: list[float] = []
        start, cpu0 = time.perf_counter(), time.process_time()
        for _ in range(n_actions):
            for channel in channels:
                latency = await one_action(service, channel, players)
                if latency is not None:
                    seq.append(latency)
        seq_s, seq_cpu = time.perf_counter() - start, time.process_time() - cpu0

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
                latency = await one_action(service, channel, players)
                if latency is not None:
                    paced.append(latency)

        collections = CollectorPauses()
        collections.start()
        start, cpu0 = time.perf_counter(), time.process_time()
        await asyncio.gather(*(paced_drive(c) for c in channels))
        paced_s, paced_cpu = time.perf_counter() - start, time.process_time() - cpu0
        collections.stop()

        # every table at once
        conc: list[float] = []

        async def drive(channel: int) -> None:
            for _ in range(n_actions):
                latency = await one_action(service, channel, players)
                if latency is not None:
                    conc.append(latency)
                await asyncio.sleep(0)

        start, cpu0 = time.perf_counter(), time.process_time()
        await asyncio.gather(*(drive(c) for c in channels))
        conc_s, conc_cpu = time.perf_counter() - start, time.process_time() - cpu0

        problems = await store.audit()
        await service.stop()
        await store.close()
    await thinker.close()
    if problems:
        raise AssertionError(f"ledger audit failed: {problems[:3]}")
    thinking = {}
    if cpus:
        thinking = {
            "cpu_processes": float(cpu_processes if thinker.in_processes else 0),
            "cpu_decisions": float(len(thinker.seconds)),
            "cpu_think_ms_p95": 1000 * _percentile(thinker.seconds, 0.95),
            "cpu_turn_ms_p95": 1000 * _percentile(thinker.turns, 0.95),
            "paced_p99_goal_ms": PACED_P99_GOAL_MS,
        }
    return {
        "tables": float(n_tables),
        "open_ms_per_table": 1000 * open_s / n_tables,
        "mem_kib_per_table": held / 1024 / n_tables,
        "seq_actions_per_s": len(seq) / seq_s if seq_s else 0.0,
        "seq_p50_ms": 1000 * statistics.median(seq) if seq else 0.0,
        "seq_p99_ms": 1000 * _percentile(seq, 0.99),
        "seq_cpu_ms_per_action": 1000 * seq_cpu / len(seq) if seq else 0.0,
        "paced_actions_per_s": len(paced) / paced_s if paced_s else 0.0,
        "paced_p50_ms": 1000 * statistics.median(paced) if paced else 0.0,
        "paced_p99_ms": 1000 * _percentile(paced, 0.99),
        "paced_cpu_ms_per_action": 1000 * paced_cpu / len(paced) if paced else 0.0,
        "paced_gc_ms": 1000 * sum(collections.pauses),
        "paced_gc_max_ms": 1000 * max(collections.pauses, default=0.0),
        "frozen_objects": float(frozen),
        "conc_actions_per_s": len(conc) / conc_s if conc_s else 0.0,
        "conc_p50_ms": 1000 * statistics.median(conc) if conc else 0.0,
        "conc_p99_ms": 1000 * _percentile(conc, 0.99),
        "conc_cpu_ms_per_action": 1000 * conc_cpu / len(conc) if conc else 0.0,
        **thinking,
    }


TICKS = 100.0  # clock ticks per second of /proc/<pid>/stat (os.sysconf("SC_CLK_TCK"))


def cpu_seconds(pid: int | str) -> float:
    """utime + stime of a process so far, in seconds (0 when it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS


def postgres_cpu_seconds() -> float:
    """utime + stime of every PostgreSQL server process on this machine (the backends of
    the bench's connections, the WAL writer, the checkpointer...)."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        if "(postgres)" in text:
            total += cpu_seconds(stat.parent.name)
    return total


def shard_guild(table: int, processes: int) -> int:
    """The server of table `table`: one server per table, on shard `table % processes`."""
    return ((table // processes * processes + table % processes) << 22) | 1


async def _worker(url: str, index: int, processes: int, n_tables: int, n_actions: int,
                  window: float, think: float) -> None:
    """One process of the cluster run: open this shard's tables, then run each phase when
    the parent says `go` on stdin, printing one JSON line per phase."""
    import json

    from bot.cluster.leases import LeasePolicy
    from bot.cluster.shards import ShardPlan
    from bot.players import RandomPlayer
    from bot.store import open_store
    from bot.tables import FakeClock, TableService
    from bot.tables.leases import Ownership

    if os.environ.get(METRICS_VARIABLE) == "1":
        metrics.enable()
    store = await open_store(url)
    ownership = Ownership(shards=ShardPlan(processes, (index,)), policy=LeasePolicy())
    service = await TableService.start(store, clock=FakeClock(), seed=index, turn_timeout=60.0,
                                       ownership=ownership)
    freeze_startup_heap()  # as each bot process's start-up ends
    players: dict[int, Any] = {}
    mine: list[tuple[int, int]] = []
    for table in range(index, n_tables, processes):
        guild, channel = shard_guild(table, processes), 1000 + table
        users = [table * 10 + k + 1 for k in range(4)]
        for user in users:
            players[user] = RandomPlayer(user)
        await service.open_table(guild, channel, users[0])
        for user in users[1:]:
            await service.join(guild, channel, user)
        await service.start_game(guild, channel, users[0])
        mine.append((guild, channel))
    loop = asyncio.get_running_loop()

    async def go() -> None:
        print(json.dumps({"ready": index}), flush=True)
        await loop.run_in_executor(None, sys.stdin.readline)

    async def act(guild: int, channel: int) -> float | None:
        state = service.state(channel)
        if state is None or state.to_act is None:
            return None
        user = state.to_act
        info = service.hand_for(guild, channel, user)
        action = players[user].choose(info.seat_view, list(info.actions), info.events)
        start = time.perf_counter()
        await service.act(guild, channel, user, action, expected_hand=state.hand_no,
                          expected_turn=state.turn)
        return time.perf_counter() - start

    await go()
    sat: list[float] = []

    async def saturate(guild: int, channel: int) -> None:
        for _ in range(n_actions):
            latency = await act(guild, channel)
            if latency is not None:
                sat.append(latency)
            await asyncio.sleep(0)

    cpu0, start = cpu_seconds("self"), time.perf_counter()
    await asyncio.gather(*(saturate(g, c) for g, c in mine))
    elapsed, cpu = time.perf_counter() - start, cpu_seconds("self") - cpu0
    print(json.dumps({"phase": "sat", "actions": len(sat), "seconds": elapsed, "cpu": cpu,
                      "p99": _percentile(sat, 0.99)}), flush=True)
    await go()
    paced: list[float] = []
    rng = random.Random(index)
    deadline = time.perf_counter() + window

    async def pace(guild: int, channel: int) -> None:
        while True:
            await asyncio.sleep(rng.expovariate(1 / think))
            if time.perf_counter() >= deadline:
                return
            latency = await act(guild, channel)
            if latency is not None:
                paced.append(latency)

    await asyncio.gather(*(pace(g, c) for g, c in mine))
    print(json.dumps({"phase": "paced", "latencies": paced}), flush=True)
    await service.stop()
    await store.close()


def run_cluster(size: str, url: str, processes: int) -> dict[str, float]:
    """The cluster figures: `processes` OS processes on the database `url` (see the module
    docstring); a fresh schema of a PostgreSQL database, or a fresh SQLite file."""
    import json
    import subprocess
    import uuid

    n_tables, n_actions = SIZES[size]
    window, think = PACE[size]
    cleanup = None
    if url.startswith("postgres"):
        import asyncpg

        schema = f"bench_{uuid.uuid4().hex[:10]}"

        async def schema_sql(sql: str) -> None:
            conn = await asyncpg.connect(url)
            await conn.execute(sql)
            await conn.close()

        asyncio.run(schema_sql(f"CREATE SCHEMA {schema}"))
        target = f"{url}{'&' if '?' in url else '?'}search_path={schema}"
        cleanup = f"DROP SCHEMA {schema} CASCADE"
    else:
        target = url
    from bot.store import open_store

    async def migrate() -> None:  # the schema, once, before the workers start
        await (await open_store(target)).close()

    asyncio.run(migrate())
    workers = [
        subprocess.Popen(
            [sys.executable, __file__, "--worker", target, str(i), str(processes),
             str(n_tables), str(n_actions), str(window), str(think)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )
        for i in range(processes)
    ]
    try:
        def each_line() -> list[dict[str, Any]]:
            out = []
            for worker in workers:
                assert worker.stdout is not None
                line = worker.stdout.readline()
                if not line:
                    raise RuntimeError("a bench process died")
                out.append(json.loads(line))
            return out

        def say_go() -> None:
            for worker in workers:
                assert worker.stdin is not None
                worker.stdin.write("go\n")
                worker.stdin.flush()

        each_line()  # ready
        pg0 = postgres_cpu_seconds()
        say_go()
        sat = each_line()
        pg_cpu = postgres_cpu_seconds() - pg0
        each_line()  # ready
        say_go()
        paced = [x for report in each_line() for x in report["latencies"]]
        for worker in workers:
            worker.wait(timeout=120)

        async def audit() -> list[str]:
            store = await open_store(target)
            try:
                return await store.audit()
            finally:
                await store.close()

        problems = asyncio.run(audit())
        if problems:
            raise AssertionError(f"ledger audit failed: {problems[:3]}")
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.kill()
        if cleanup is not None:
            asyncio.run(schema_sql(cleanup))
    seconds = max(report["seconds"] for report in sat)
    figures = {
        "processes": float(processes),
        "tables": float(n_tables),
        "sat_actions_per_s": sum(report["actions"] for report in sat) / seconds,
        "sat_seconds": seconds,
        "sat_p99_ms": 1000 * max(report["p99"] for report in sat),
        "paced_actions_per_s": len(paced) / window,
        "paced_p50_ms": 1000 * statistics.median(paced) if paced else 0.0,
        "paced_p99_ms": 1000 * _percentile(paced, 0.99),
        "postgres_cpu_s": pg_cpu,
    }
    for i, report in enumerate(sat):
        figures[f"bot{i}_cpu_s"] = report["cpu"]
    return figures


def run(size: str = "full", cpus: str | None = None,
        cpu_processes: int = 0, freeze: bool = True) -> dict[str, float]:
    """Run the benchmark at `size` ("small": a few seconds; "full": 500 tables); `cpus`: a
    CPU level seated at every table beside three people, thinking in `cpu_processes` worker
    processes (0: a thread); `freeze`: start-up's objects frozen as the bot freezes them
    (`bot.heap`), before the tables open."""
    if size not in SIZES:
        raise ValueError(f"size must be one of {', '.join(SIZES)}")
    try:
        return asyncio.run(_bench(size, cpus, cpu_processes, freeze))
    finally:
        gc.unfreeze()  # a test process runs on after the benchmark


def main(argv: list[str]) -> None:
    """`[small|full] [--database URL] [--processes N]`; `--worker ...` is one cluster process."""
    import argparse

    from prometheus_client import generate_latest

    if argv[:1] == ["--worker"]:
        url, index, count, tables, actions = argv[1], *map(int, argv[2:6])
        asyncio.run(_worker(url, index, count, tables, actions, float(argv[6]),
                            float(argv[7])))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("size", nargs="?", default="full", choices=list(SIZES))
    parser.add_argument("--database", default=os.environ.get("STOPPA_BENCH_DATABASE"),
                        help="postgresql://... or sqlite:///file: the cluster run")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--cpus", metavar="LEVEL", default=None,
                        help="seat one CPU player of LEVEL at every table (issue 37)")
    parser.add_argument("--cpu-processes", metavar="N", type=int, default=processes_setting(),
                        help="the CPU seats think in N worker processes (0: a thread; default"
                             " STOPPA_CPU_PROCESSES, else 0)")
    parser.add_argument("--thaw", action="store_true",
                        help="do not freeze start-up's objects (bot.heap), to measure the freeze")
    parser.add_argument("--metrics", action="store_true",
                        help="record the bot's metrics (bot.metrics), to measure their cost")
    args = parser.parse_args(argv)
    if args.metrics:
        os.environ[METRICS_VARIABLE] = "1"  # the cluster run's workers inherit it
        metrics.enable()
    if args.database:
        figures = run_cluster(args.size, args.database, args.processes)
    else:
        figures = run(args.size, args.cpus, args.cpu_processes, freeze=not args.thaw)
    recorder = metrics.active()
    if recorder is not None:  # what a scrape would show
        from prometheus_client.parser import text_string_to_metric_families

        exposition = generate_latest(recorder.registry).decode()
        figures["metric_series"] = float(sum(
            len(family.samples) for family in text_string_to_metric_families(exposition)
        ))
    for name, value in figures.items():
        print(f"{name:22} {value:12.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
