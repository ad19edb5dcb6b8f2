"""Ranked play: the cost of a rating update, and how long a sit-and-go lasts.

``run("small")`` rates 200 hands (two humans and two CPUs at a table) and plays 2 tournaments
of 4 random CPU players per schedule; ``run("full")`` rates 2,000 hands and plays 10
tournaments of 4 easy CPU players per schedule (its starting stack, buy-in 100). Figures:
``rate_hand_us`` (microseconds per hand update), and per schedule the median and maximum hands
a tournament lasts (``<schedule>_hands_median``, ``<schedule>_hands_max``) and the seconds
of CPU one takes (``<schedule>_s_median``).

Run: ``.venv/bin/python bench/bench_ranked.py [small|full]``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from bot.players import make_player
from bot.ratings import Rating, Seat, rate_hand
from bot.tournaments import SCHEDULES, TournamentConfig, new_tournament, register, start
from bot.tournaments.offline import play_to_the_end

SIZES = {"small": (200, 2, "random"), "full": (2_000, 10, "easy")}
NAMES = ("p1", "p2", "p3", "p4")


def rate_hand_seconds(hands: int, seed: int = 1) -> float:
    """Mean seconds of one `rate_hand` of a 4-seat hand (2 humans, 2 CPU pools)."""
    rng = random.Random(seed)
    table = {k: Rating() for k in ("alice", "bob", "cpu:easy", "cpu:hard")}
    begin = time.perf_counter()
    for _ in range(hands):
        seats = [Seat(k, not k.startswith("cpu"), r, rng.randrange(-500, 500))
                 for k, r in table.items()]
        table.update(rate_hand(seats))
    return (time.perf_counter() - begin) / hands


def tournament(schedule: str, level: str, seed: int) -> tuple[int, float]:
    """Hands played and seconds taken by one 4-player tournament of `level` CPUs."""
    state = new_tournament(TournamentConfig.create(buy_in=100, seats=4, schedule=schedule))
    for name in NAMES:
        state = register(state, name)
    state = start(state, seed=seed)
    players = {name: make_player(level, seed=seed * 10 + i) for i, name in enumerate(NAMES)}
    begin = time.perf_counter()
    final, _ = play_to_the_end(state, players, seed=seed * 1000)
    return final.hands_played, time.perf_counter() - begin


def run(size: str = "full") -> dict[str, float]:
    """The figures of the module docstring."""
    hands, tournaments, level = SIZES[size]
    figures = {"rate_hand_us": rate_hand_seconds(hands) * 1e6}
    for name in SCHEDULES:
        played = [tournament(name, level, seed) for seed in range(1, tournaments + 1)]
        lengths = [n for n, _ in played]
        figures[f"{name}_hands_median"] = statistics.median(lengths)
        figures[f"{name}_hands_max"] = max(lengths)
        figures[f"{name}_s_median"] = statistics.median(s for _, s in played)
    return figures


if __name__ == "__main__":
    for key, value in run(sys.argv[1] if len(sys.argv) > 1 else "full").items():
        print(f"{key:24} {value:10.2f}")
