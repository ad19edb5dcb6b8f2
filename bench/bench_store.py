"""Benchmark of the store: committed ledger transfers per second, and leaderboard latency.

    .venv/bin/python bench/bench_store.py [small|full]

Figures (medians of several rounds):
- `transfers_per_s`: committed `save_table` transactions with one Move each (account ->
  escrow, or escrow -> account: a balance update, the escrow update, a ledger row, the table
  row, one `BEGIN IMMEDIATE ... COMMIT`), on a file in a temp folder of this disk.
- `concurrent_transfers_per_s`: the same transfers from 50 tables saving at once (50 tasks):
  the group commit runs every save waiting at that moment in one COMMIT, a savepoint each.
- `grants_per_s`: committed admin grants (mint -> account), one transaction each.
- `ante_rows_per_s`: ledger rows per second when each save carries 4 moves (the antes of a
  4-player hand, then their refunds): what a real table action commits.
- `*_per_cpu_s`: the same counted per CPU second of this process (event loop plus the store's
  worker thread): what the store costs, less sensitive than wall time to other work on the machine.
- `leaderboard_<by>_ms`: one page (10 rows) of the leaderboard over N accounts / stats rows
  (N = 100,000 full, 5,000 small); `leaderboard_deep_ms` is a page at offset N/2.

With a PostgreSQL server (`STOPPA_BENCH_POSTGRES_URL=postgresql://...`, a database where the
benchmark may create and drop a schema), the same transfers on the PostgreSQL store, beside
pgbench in the same sitting running a transfer-like script on the same schema (two
conditional account updates in id order and a ledger insert per transaction, each client on
its own accounts as each bench table is):
- `pg_transfers_per_s`, `pg_concurrent_transfers_per_s` (50 tables at once, pool of 50);
- `pgbench_1_tps`, `pgbench_50_tps`: pgbench with 1 and with 50 clients;
- `pg_ratio_sequential`, `pg_ratio_concurrent`: ours divided by pgbench's (goal >= 0.5).
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from bot.store import Move, Store, StoreContract
from bot.store.models import TableSave

SIZES = {
    "small": {"transfers": 300, "rounds": 3, "accounts": 5_000, "queries": 15, "seconds": 2},
    "full": {"transfers": 3_000, "rounds": 5, "accounts": 100_000, "queries": 50, "seconds": 10},
}


async def _transfers(store: StoreContract, n: int) -> tuple[float, float]:
    row = await store.create_table(7, random.randrange(1, 2**40), settings={}, seats=[1, 2, 3])
    await store.grant(7, 1, 10**9, reason="bench", by=0)
    version = row.version
    start, cpu = time.perf_counter(), time.process_time()
    for i in range(n):
        move = Move(1, 5, "bet", 1) if i % 2 == 0 else Move(1, -5, "pot", 1)
        version = (await store.save_table(row.id, TableSave(version, moves=[move]))).version
    return n / (time.perf_counter() - start), n / (time.process_time() - cpu)


async def _concurrent(store: StoreContract, n: int, tables: int = 50) -> float:
    """Committed transfers per second when `tables` tables save at once (each its own task, one
    transfer after another): the group commit puts the waiting saves in one COMMIT."""
    rows = []
    for t in range(tables):
        user = 1000 + t
        rows.append(await store.create_table(7, random.randrange(1, 2**40), settings={},
                                             seats=[user]))
        await store.grant(7, user, 10**9, reason="bench", by=0)

    async def drive(row, user: int) -> None:
        version = row.version
        for i in range(n // tables):
            move = Move(user, 5, "bet", 1) if i % 2 == 0 else Move(user, -5, "pot", 1)
            saved = await store.save_table(row.id, TableSave(version, moves=[move]))
            version = saved.version

    start = time.perf_counter()
    await asyncio.gather(*(drive(row, 1000 + t) for t, row in enumerate(rows)))
    return tables * (n // tables) / (time.perf_counter() - start)


async def _antes(store: Store, n: int) -> float:
    """Ledger rows per second when each transaction carries the 4 antes of a hand."""
    users = [11, 12, 13, 14]
    row = await store.create_table(7, random.randrange(1, 2**40), settings={}, seats=users)
    for user in users:
        await store.grant(7, user, 10**9, reason="bench", by=0)
    version = row.version
    start = time.perf_counter()
    for i in range(n // 4):
        sign = 1 if i % 2 == 0 else -1
        moves = [Move(u, sign * 60, "ante" if sign > 0 else "refund", 1) for u in users]
        version = (await store.save_table(row.id, TableSave(version, moves=moves))).version
    return 4 * (n // 4) / (time.perf_counter() - start)


async def _grants(store: Store, n: int) -> tuple[float, float]:
    start, cpu = time.perf_counter(), time.process_time()
    for i in range(n):
        await store.grant(8, 1 + i % 50, 1, reason="bench", by=0)
    return n / (time.perf_counter() - start), n / (time.process_time() - cpu)


async def _populate(store: Store, guild: int, n: int) -> None:
    """n accounts (with their starting ledger rows) and n stats rows, written in bulk."""
    await asyncio.to_thread(_bulk_load, store.path, guild, n)


def _bulk_load(path: str, guild: int, n: int) -> None:
    """The bulk load, through a second connection on the file (WAL lets it write beside the
    store's), in one transaction."""
    rng = random.Random(1)
    now = time.time()
    accounts = [(guild, u, rng.randrange(0, 50_000), now) for u in range(1, n + 1)]
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA busy_timeout = 5000")
        db.execute("BEGIN IMMEDIATE")
        db.executemany(
            "INSERT INTO accounts (guild_id, user_id, balance, created_at) VALUES (?, ?, ?, ?)",
            accounts,
        )
        db.executemany(
            "INSERT INTO ledger (at, guild_id, src_kind, dst_kind, dst_id, amount, reason)"
            " VALUES (?, ?, 'mint', 'user', ?, ?, 'start')",
            [(now, guild, u, b) for _, u, b, _ in accounts if b],
        )
        db.executemany(
            "INSERT INTO player_stats (guild_id, user_id, hands, pots_won, closes, net,"
            " biggest_pot) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (guild, u, 10, rng.randrange(10), rng.randrange(5), rng.randrange(-999, 999), 50)
                for u in range(1, n + 1)
            ],
        )
        db.execute("COMMIT")
        db.execute("ANALYZE")
    finally:
        db.close()


async def _leaderboard_ms(store: Store, guild: int, by: str, offset: int, q: int) -> float:
    times = []
    for _ in range(q):
        start = time.perf_counter()
        rows = await store.leaderboard(guild, by, limit=10, offset=offset)
        times.append((time.perf_counter() - start) * 1000)
        assert len(rows) == 10
    return statistics.median(times)


async def _run(size: str) -> dict[str, float]:
    cfg = SIZES[size]
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(str(Path(tmp) / "bench.db"))
        try:
            transfers = [await _transfers(store, cfg["transfers"]) for _ in range(cfg["rounds"])]
            concurrent = [
                await _concurrent(store, cfg["transfers"]) for _ in range(cfg["rounds"])
            ]
            grants = [await _grants(store, cfg["transfers"]) for _ in range(cfg["rounds"])]
            antes = [await _antes(store, cfg["transfers"]) for _ in range(cfg["rounds"])]
            await _populate(store, 9, cfg["accounts"])
            q = cfg["queries"]
            out = {
                "transfers_per_s": statistics.median(t for t, _ in transfers),
                "transfers_per_cpu_s": statistics.median(c for _, c in transfers),
                "concurrent_transfers_per_s": statistics.median(concurrent),
                "grants_per_s": statistics.median(t for t, _ in grants),
                "grants_per_cpu_s": statistics.median(c for _, c in grants),
                "ante_rows_per_s": statistics.median(antes),
                "accounts": float(cfg["accounts"]),
            }
            for by in ("balance", "net", "closes"):
                out[f"leaderboard_{by}_ms"] = await _leaderboard_ms(store, 9, by, 0, q)
            out["leaderboard_deep_ms"] = await _leaderboard_ms(
                store, 9, "balance", cfg["accounts"] // 2, q
            )
            problems = await store.audit()
            if problems:
                raise RuntimeError(f"audit after the benchmark: {problems[:3]}")
        finally:
            await store.close()
    return out


PGBENCH_SCRIPT = """\\set a :client_id * 2 + 1
\\set b :client_id * 2 + 2
BEGIN;
UPDATE accounts SET balance = balance - 5 WHERE guild_id = 7 AND user_id = :a AND balance >= 5;
UPDATE accounts SET balance = balance + 5 WHERE guild_id = 7 AND user_id = :b;
INSERT INTO ledger (at, guild_id, src_kind, src_id, dst_kind, dst_id, amount, reason)
    VALUES (0, 7, 'user', :a, 'user', :b, 5, 'bench');
END;
"""


async def _run_postgres(url: str, size: str) -> dict[str, float]:
    """The PostgreSQL figures, in a throwaway schema of the database at `url`."""
    import asyncpg

    from bot.store.postgres import PostgresStore

    cfg = SIZES[size]
    schema = f"bench_{uuid.uuid4().hex[:10]}"
    admin = await asyncpg.connect(url)
    await admin.execute(f"CREATE SCHEMA {schema}")
    try:
        store = await PostgresStore.open(
            f"{url}{'&' if '?' in url else '?'}search_path={schema}", pool_size=50
        )
        try:
            transfers = [await _transfers(store, cfg["transfers"]) for _ in range(cfg["rounds"])]
            concurrent = [
                await _concurrent(store, cfg["transfers"]) for _ in range(cfg["rounds"])
            ]
            await store.balances(7, list(range(1, 103)))  # pgbench's accounts, 2 per client
            for user in range(1, 103, 2):
                await store.grant(7, user, 10**9, reason="bench", by=0)
        finally:
            await store.close()
        out = {
            "pg_transfers_per_s": statistics.median(t for t, _ in transfers),
            "pg_concurrent_transfers_per_s": statistics.median(concurrent),
        }
        one = await asyncio.to_thread(_pgbench, url, schema, 1, cfg["seconds"])
        many = await asyncio.to_thread(_pgbench, url, schema, 50, cfg["seconds"])
        if one and many:
            out |= {
                "pgbench_1_tps": one,
                "pgbench_50_tps": many,
                "pg_ratio_sequential": out["pg_transfers_per_s"] / one,
                "pg_ratio_concurrent": out["pg_concurrent_transfers_per_s"] / many,
            }
        return out
    finally:
        await admin.execute(f"DROP SCHEMA {schema} CASCADE")
        await admin.close()


def _pgbench(url: str, schema: str, clients: int, seconds: int) -> float | None:
    """pgbench's tps (without connection time) for PGBENCH_SCRIPT, or None without pgbench."""
    binary = shutil.which("pgbench")
    if binary is None:
        return None
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as script:
        script.write(PGBENCH_SCRIPT)
    try:
        proc = subprocess.run(
            [binary, "-n", "-f", script.name, "-c", str(clients), "-j", "2", "-T", str(seconds),
             url.split("?")[0]],
            capture_output=True, text=True, timeout=seconds + 60, check=True,
            env={**os.environ, "PGOPTIONS": f"-c search_path={schema}"},
        )
    finally:
        os.unlink(script.name)
    found = re.search(r"tps = ([0-9.]+) \(without initial connection time\)", proc.stdout)
    if found is None:
        raise RuntimeError(f"pgbench gave no tps: {proc.stdout[-300:]} {proc.stderr[-300:]}")
    return float(found.group(1))


def run(size: str = "full") -> dict[str, float]:
    """Run the benchmark at `size` ("small": a few seconds, "full") and return its figures."""
    if size not in SIZES:
        raise ValueError(f"size must be one of {', '.join(SIZES)}")
    return asyncio.run(_run(size))


def run_postgres(size: str, url: str) -> dict[str, float]:
    """The PostgreSQL figures at `size`, with pgbench's in the same sitting (when installed)."""
    if size not in SIZES:
        raise ValueError(f"size must be one of {', '.join(SIZES)}")
    return asyncio.run(_run_postgres(url, size))


if __name__ == "__main__":
    size = sys.argv[1] if len(sys.argv) > 1 else "full"
    figures = run(size)
    if os.environ.get("STOPPA_BENCH_POSTGRES_URL"):
        figures |= run_postgres(size, os.environ["STOPPA_BENCH_POSTGRES_URL"])
    for name, value in figures.items():
        print(f"{name:24} {value:12.2f}")
