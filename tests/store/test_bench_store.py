"""The store benchmark runs at its small size and reports every figure (no timing asserted)."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

from .conftest import postgres_url

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_store.py"


def _bench_module():
    spec = importlib.util.spec_from_file_location("bench_store", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_bench_store_small_reports_its_figures() -> None:
    figures = _bench_module().run("small")
    assert set(figures) >= {
        "transfers_per_s",
        "grants_per_s",
        "leaderboard_balance_ms",
        "leaderboard_net_ms",
        "leaderboard_closes_ms",
    }
    assert figures["accounts"] == 5_000
    assert all(value > 0 for value in figures.values())


def test_bench_store_small_on_postgresql_reports_its_figures() -> None:
    figures = _bench_module().run_postgres("small", postgres_url())
    assert {"pg_transfers_per_s", "pg_concurrent_transfers_per_s"} <= set(figures)
    if shutil.which("pgbench"):
        assert {"pgbench_1_tps", "pgbench_50_tps", "pg_ratio_concurrent"} <= set(figures)
    assert all(value > 0 for value in figures.values())
