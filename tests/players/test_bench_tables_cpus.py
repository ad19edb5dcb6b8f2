"""`bench_tables.py --cpus LEVEL` (issue 37): CPU seats think beside the people at every table,
the ledger audit still holds, and the CPU figures are reported (no timing asserted)."""

from __future__ import annotations

from pathlib import Path

from bot.cli.bench import load

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_tables.py"


def test_bench_tables_seats_expert_cpus_and_reports_their_figures() -> None:
    module = load(BENCH)
    figures = module.run("small", cpus="expert")  # raises if the ledger audit finds a difference
    assert figures["cpu_decisions"] > 0  # the session played the CPU seats' turns
    assert figures["cpu_think_ms_p95"] > 0
    assert figures["paced_p99_goal_ms"] == module.PACED_P99_GOAL_MS
    assert figures["paced_actions_per_s"] > 0
