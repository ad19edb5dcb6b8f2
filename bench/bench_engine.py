"""Engine speed: random legal play of complete hands, and best_point over 13 cards.

``run(size)`` returns hands/s (4 players, random legal actions incl. bet amounts) and
best_point calls/s. Each step takes a uniformly random action of ``hand.legal_actions()``
(for a bet or raise, a random amount in ``hand.bet_range``) through ``hand.act``: the public
path the table service uses; a hand counts once it is over (stoppa and payments included).
Single process, single core; timed with ``time.process_time`` (CPU time of this process) so
that other work on a shared machine disturbs the figures less.
Run: ``.venv/bin/python bench/bench_engine.py [small|full]``.
"""

from __future__ import annotations

import random
import time

from bot.engine import Bet, Hand, Raise, Rules, best_point
from bot.engine.cards import ALL_CARDS

SIZES = {"small": (300, 30_000), "full": (5_000, 300_000)}


def play_random_hand(rules: Rules, rng: random.Random, seed: int) -> Hand:
    """Play one hand to the end with uniformly random legal actions."""
    n = rules.players
    h = Hand.start(rules, [1000] * n, seed % n, seed=seed)
    while True:
        seat = h.to_act
        if seat is None:
            return h
        acts = h.legal_actions()
        a = acts[rng.randrange(len(acts))]
        if type(a) is Bet or type(a) is Raise:
            lo, hi = h.bet_range(seat)  # type: ignore[misc]
            v = rng.randint(lo, min(hi, lo + 60))
            a = Bet(v) if type(a) is Bet else Raise(v)
        h.act(seat, a)


def bench_hands(count: int, players: int = 4) -> float:
    """Hands per second of random legal play."""
    rules = Rules(players=players)
    rng = random.Random(1)
    t0 = time.process_time()
    for i in range(count):
        play_random_hand(rules, rng, i)
    return count / (time.process_time() - t0)


def bench_best_point(count: int) -> float:
    """best_point calls per second over random 13-card hands."""
    rng = random.Random(2)
    hands = [rng.sample(ALL_CARDS, 13) for _ in range(256)]
    t0 = time.process_time()
    for i in range(count):
        best_point(hands[i & 255])
    return count / (time.process_time() - t0)


def run(size: str = "full") -> dict[str, float]:
    """Named figures: hands_per_s (4 players), hands_per_s_6p, best_point_per_s."""
    hands, calls = SIZES[size]
    return {
        "hands_per_s": bench_hands(hands, 4),
        "hands_per_s_6p": bench_hands(max(1, hands // 2), 6),
        "best_point_per_s": bench_best_point(calls),
    }


if __name__ == "__main__":
    import statistics
    import sys

    size = sys.argv[1] if len(sys.argv) > 1 else "full"
    runs = [run(size) for _ in range(5 if size == "full" else 1)]
    for key in runs[0]:
        vals = [r[key] for r in runs]
        print(
            f"{key:>18}: median {statistics.median(vals):>12,.0f}  (runs: "
            + ", ".join(f"{v:,.0f}" for v in vals)
            + ")"
        )
