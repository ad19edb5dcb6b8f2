"""The CPU the metrics hooks cost per table action, off and on (`bot.metrics`).

One action runs the hooks of one engine action and of one committed store transaction (a
hand of the harness: 28 actions, 38 transactions). Timed in CPU time (`time.process_time`),
the least of 7 repeats, so other work on the machine does not inflate it; compare with
`conc_cpu_ms_per_action` of `bench/bench_tables.py` (about 1.3 ms).

`python bench/bench_metrics.py [small|full]` prints both figures in microseconds.
"""

from __future__ import annotations

import sys
import time
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

import bot.metrics as metrics  # noqa: E402
from bot.engine import Pass  # noqa: E402

ACTION = Pass()
#: calls per repeat, by size ("small": the smoke test and `python -m bot bench`)
CALLS = {"small": 10_000, "full": 100_000}


def one_action() -> None:
    """The hooks of one action: the engine's action, one transaction committed."""
    metrics.action_applied(ACTION)
    metrics.transaction_committed("sqlite", metrics.started())


def cpu_us_per_action(calls: int) -> float:
    """Microseconds of CPU per `one_action` (the least of 7 repeats of `calls` calls)."""
    runs = timeit.repeat(one_action, number=calls, repeat=7, timer=time.process_time)
    return min(runs) / calls * 1e6


def run(size: str = "full") -> dict[str, float]:
    """The cost with metrics off, then on (recording into a fresh registry)."""
    calls = CALLS[size]
    metrics.disable()
    off = cpu_us_per_action(calls)
    metrics.enable()
    try:
        on = cpu_us_per_action(calls)
    finally:
        metrics.disable()
    return {"hooks_off_us_per_action": off, "hooks_on_us_per_action": on}


if __name__ == "__main__":
    for name, value in run(sys.argv[1] if len(sys.argv) > 1 else "full").items():
        print(f"{name:26} {value:8.2f}")
