"""The practice tables' Hint: how long the expert's suggestion takes (target p95 200 ms), and how
good it is.

Every decision of seeded 4-player hands, each timed as the Hint button computes it: a fresh
expert player at `HINT_BUDGET` given the seat's view, legal moves and seen events
(`bot.players.hint.hint`). ``run("full")`` adds the hint's quality on the decisions with a real
choice: how often its move is the one the expert picks with ten times the budget
(``hint_match_pct``), and the mean chips the hint gives up against that choice, valued by that
larger search (``hint_chips_given_up``: its value of its own move minus its value of the hint's).

Run: ``PYTHONPATH=. .venv/bin/python bench/bench_hint.py [small|full]``.
"""

from __future__ import annotations

import statistics
import sys
import time

from bot.engine import Hand, Rules
from bot.engine.actions import Action, Play
from bot.players.expert import ExpertPlayer
from bot.players.hint import HINT_BUDGET, HINT_SEED, hint
from bot.players.strategy import DecisionFigures

SIZES = {"small": 2, "full": 20}  # hands timed
QUALITY_HANDS = 6  # hands whose decisions are checked against ten times the budget (full)


def decision_times(hands: int) -> tuple[list[float], list[float]]:
    """Milliseconds of every hint of `hands` seeded hands (the hints are played): wall-clock,
    and the CPU time of this thread (what the hint costs when the shared VM is busy)."""
    wall: list[float] = []
    cpu: list[float] = []
    for seed in range(hands):
        hand = Hand.start(Rules(), [1000] * 4, seed % 4, seed=seed)
        while hand.to_act is not None:
            seat = hand.to_act
            start, start_cpu = time.perf_counter(), time.thread_time()
            given = hint(hand.seat_view(seat), hand.legal_actions(), hand.events_for(seat))
            cpu.append((time.thread_time() - start_cpu) * 1000)
            wall.append((time.perf_counter() - start) * 1000)
            hand.act(seat, given.action)
    return wall, cpu


def value_of(figures: DecisionFigures, action: Action) -> float | None:
    """The value a search gave `action`: its stoppa gain by rank, else its move's value."""
    if isinstance(action, Play):
        return figures.gains.get(action.cards[0].rank)
    return figures.values.get(str(action))


def quality(hands: int, factor: float = 10.0) -> tuple[float, float, int]:
    """(% of hints equal to the expert's move at `factor` times the budget, mean chips given
    up against it, decisions compared) over the choices of `hands` seeded hands."""
    same = compared = 0
    given_up: list[float] = []
    for seed in range(100, 100 + hands):
        hand = Hand.start(Rules(), [1000] * 4, seed % 4, seed=seed)
        while hand.to_act is not None:
            seat = hand.to_act
            view, legal, events = hand.seat_view(seat), hand.legal_actions(), hand.events_for(seat)
            suggested = hint(view, legal, events).action
            if len(legal) > 1 or view.bet_range:
                reference = ExpertPlayer(seed=HINT_SEED, name="reference",
                                         budget=factor * HINT_BUDGET)
                chosen = reference.choose(view, legal, events)
                compared += 1
                same += str(chosen) == str(suggested)
                best, mine = value_of(reference.last, chosen), value_of(reference.last, suggested)
                if best is not None and mine is not None:
                    given_up.append(best - mine)
            hand.act(seat, suggested)
    mean_given_up = statistics.fmean(given_up) if given_up else 0.0
    return 100.0 * same / max(compared, 1), mean_given_up, compared


def run(size: str = "full") -> dict[str, float]:
    """Median, 95th percentile and maximum of a hint, in ms (and the 95th percentile of its
    CPU time), and how many were timed; at "full" the hint quality too."""
    wall, cpu = (sorted(ms) for ms in decision_times(SIZES[size]))
    figures = {
        "hint_ms_median": statistics.median(wall),
        "hint_ms_p95": wall[int(0.95 * (len(wall) - 1))],
        "hint_ms_max": wall[-1],
        "hint_cpu_ms_p95": cpu[int(0.95 * (len(cpu) - 1))],
        "hints": float(len(wall)),
    }
    if size == "full":
        match, lost, compared = quality(QUALITY_HANDS)
        figures.update(hint_match_pct=match, hint_chips_given_up=lost,
                       hint_choices_compared=float(compared))
    return figures


if __name__ == "__main__":
    for name, value in run(sys.argv[1] if len(sys.argv) > 1 else "full").items():
        print(f"{name}: {value:.2f}")
