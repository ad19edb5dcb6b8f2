"""The practice tables' Hint: how long the hard CPU's suggestion takes (target p95 200 ms).

Every decision of seeded 4-player hands, each timed as the Hint button computes it: a fresh
hard player given the seat's view, legal moves and seen events (`bot.players.hint.hint`).

Run: ``.venv/bin/python bench/bench_hint.py [small|full]``.
"""

from __future__ import annotations

import statistics
import sys
import time

from bot.engine import Hand, Rules
from bot.players.hint import hint

SIZES = {"small": 2, "full": 20}  # hands


def decision_times(hands: int) -> list[float]:
    """Milliseconds of every hint of `hands` seeded hands (the hints are played)."""
    times: list[float] = []
    for seed in range(hands):
        hand = Hand.start(Rules(), [1000] * 4, seed % 4, seed=seed)
        while hand.to_act is not None:
            seat = hand.to_act
            start = time.perf_counter()
            given = hint(hand.seat_view(seat), hand.legal_actions(), hand.events_for(seat))
            times.append((time.perf_counter() - start) * 1000)
            hand.act(seat, given.action)
    return times


def run(size: str = "full") -> dict[str, float]:
    """Median, 95th percentile and maximum of a hint, in ms, and how many were timed."""
    times = sorted(decision_times(SIZES[size]))
    return {
        "hint_ms_median": statistics.median(times),
        "hint_ms_p95": times[int(0.95 * (len(times) - 1))],
        "hint_ms_max": times[-1],
        "hints": float(len(times)),
    }


if __name__ == "__main__":
    for name, value in run(sys.argv[1] if len(sys.argv) > 1 else "full").items():
        print(f"{name}: {value:.1f}")
