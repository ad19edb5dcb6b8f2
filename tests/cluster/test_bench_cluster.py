"""The cluster run of the table benchmark works end to end (two OS processes on one SQLite
file, each driving its own shard's tables); no timing asserted: figures are for reports."""

from __future__ import annotations

import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_tables.py"


def test_two_bench_processes_share_one_database(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("bench_tables", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    figures = module.run_cluster("small", f"sqlite:///{tmp_path / 'cluster.db'}", 2)
    assert figures["processes"] == 2 and figures["tables"] == 10
    assert figures["sat_actions_per_s"] > 0 and figures["paced_p99_ms"] > 0
    assert figures["bot0_cpu_s"] > 0 and figures["bot1_cpu_s"] > 0
    assert [module.shard_guild(t, 2) >> 22 for t in range(4)] == [0, 1, 2, 3]
