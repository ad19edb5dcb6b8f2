"""The table benchmark runs at its small size (no timing asserted: figures are for reports)."""

from __future__ import annotations

import gc
from pathlib import Path

from bot.cli.bench import load

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_tables.py"


def test_bench_tables_small_runs_and_reports_every_figure() -> None:
    module = load(BENCH)
    figures = module.run("small")  # raises if the ledger audit finds a difference
    assert set(figures) == {
        "tables",
        "open_ms_per_table",
        "mem_kib_per_table",
        "seq_actions_per_s",
        "seq_p50_ms",
        "seq_p99_ms",
        "seq_cpu_ms_per_action",
        "paced_actions_per_s",
        "paced_p50_ms",
        "paced_p99_ms",
        "paced_cpu_ms_per_action",
        "paced_gc_ms",
        "paced_gc_max_ms",
        "frozen_objects",
        "conc_actions_per_s",
        "conc_p50_ms",
        "conc_p99_ms",
        "conc_cpu_ms_per_action",
    }
    assert figures["tables"] == 10
    assert all(value > 0 for value in figures.values())
    assert figures["paced_gc_max_ms"] <= figures["paced_gc_ms"]  # the longest is one of them
    assert gc.get_freeze_count() == 0  # start-up's freeze (bot.heap) is undone for the tests


def test_bench_tables_thawed_freezes_nothing() -> None:
    """`--thaw`, the figure the freeze is measured against, leaves every object collectable."""
    assert load(BENCH).run("small", freeze=False)["frozen_objects"] == 0


def test_bench_tables_cpus_think_in_worker_processes_when_asked() -> None:
    """`--cpu-processes 1`: the CPU seats' moves are thought in a worker (the figures say so)
    and the ledger audit still holds."""
    module = load(BENCH)
    figures = module.run("small", cpus="easy", cpu_processes=1)
    assert figures["cpu_processes"] == 1
    assert figures["cpu_decisions"] > 0
    assert figures["cpu_turn_ms_p95"] >= figures["cpu_think_ms_p95"] > 0
