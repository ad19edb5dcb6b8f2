"""Engine speed: random legal play of complete hands, and best_point over 13 cards.

``run(size)`` returns hands/s (4 players, random legal actions incl. bet amounts) and
best_point calls/s. Each step takes a uniformly random action of ``hand.legal_actions()``
(for a bet or raise, a random amount in ``hand.bet_range``, at most 60 above its minimum)
through ``hand.act``: the public path the table service uses; a hand counts once it is over
(stoppa and payments included). The figure is the steady state of a running bot: untimed,
the engine's lookup tables are built first (``prepare``, as the bot does at start) and 200
hands are played.
Single process, single core; timed with ``time.process_time`` (CPU time of this process) so
that other work on a shared machine disturbs the figures less.
Run: ``.venv/bin/python bench/bench_engine.py [small|full|instructions]``; ``instructions``
counts CPU instructions per hand under valgrind (see ``instructions_per_hand``).
"""

from __future__ import annotations

import random
import time

from bot.engine import Bet, Hand, Raise, Rules, best_point, prepare
from bot.engine.cards import ALL_CARDS

SIZES = {"small": (300, 30_000), "full": (5_000, 300_000)}


def play_random_hand(rules: Rules, rng: random.Random, seed: int) -> Hand:
    """Play one hand to the end with uniformly random legal actions."""
    n = rules.players
    h = Hand.start(rules, [1000] * n, seed % n, seed=seed)
    rnd = rng.random  # one float per choice: cheaper than randrange, still uniform enough
    legal, act, bet_range = h.legal_actions, h.act, h.bet_range
    while True:
        seat = h.to_act
        if seat is None:
            return h
        acts = legal()
        a = acts[int(rnd() * len(acts))]
        t = type(a)
        if t is Bet or t is Raise:
            lo, hi = bet_range(seat)  # type: ignore[misc]
            if hi > lo + 60:
                hi = lo + 60
            v = lo + int(rnd() * (hi - lo + 1))
            a = Bet(v) if t is Bet else Raise(v)
        act(seat, a)


def _warm_up(rules: Rules, rng: random.Random) -> None:
    """Untimed: build the engine's tables and play 200 hands (see the module docstring)."""
    prepare()
    for i in range(200):
        play_random_hand(rules, rng, -1 - i)


def bench_hands(count: int, players: int = 4) -> float:
    """Hands per second of random legal play."""
    rules = Rules(players=players)
    rng = random.Random(1)
    _warm_up(rules, rng)
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


def _play_counted(count: int) -> None:
    """Build the tables and play 1,500 hands untimed (the engine's small caches then hold
    nearly all they ever will), then play ``count`` 4-player hands (for ``valgrind``)."""
    rules = Rules(players=4)
    rng = random.Random(1)
    prepare()
    for i in range(1500):
        play_random_hand(rules, random.Random(i), -1 - i)
    for i in range(count):
        play_random_hand(rules, rng, i)


def instructions_per_hand(small: int = 100, large: int = 600) -> float:
    """CPU instructions per 4-player hand, counted by ``valgrind --tool=callgrind``: the runs of
    ``large`` and ``small`` hands differ only by ``large - small`` hands. Unlike hands/s this
    does not move with the machine's load or clock (the development VM's speed varies by a
    third from minute to minute), so it is the figure to compare two versions of the engine.
    """
    import re
    import subprocess
    import sys

    def total(count: int) -> int:
        out = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--callgrind-out-file=/dev/null",
                sys.executable,
                __file__,
                "_count",
                str(count),
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stderr
        found = re.search(r"Collected : (\d+)", out)
        if found is None:
            raise RuntimeError("valgrind printed no instruction count")
        return int(found.group(1))

    return (total(large) - total(small)) / (large - small)


if __name__ == "__main__":
    import statistics
    import sys

    size = sys.argv[1] if len(sys.argv) > 1 else "full"
    if size == "_count":
        _play_counted(int(sys.argv[2]))
        sys.exit(0)
    if size == "instructions":
        print(f"instructions per 4-player hand: {instructions_per_hand():,.0f}")
        sys.exit(0)
    runs = [run(size) for _ in range(5 if size == "full" else 1)]
    for key in runs[0]:
        vals = [r[key] for r in runs]
        print(
            f"{key:>18}: median {statistics.median(vals):>12,.0f}  (runs: "
            + ", ".join(f"{v:,.0f}" for v in vals)
            + ")"
        )
