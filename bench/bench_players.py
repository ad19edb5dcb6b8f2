"""CPU players: decision time, and strength measured in fair duplicate duels.

``run("small")`` (a few seconds) returns decision times in milliseconds (median, 95th
percentile and maximum over every decision of a few hands, per level) and whole hands per
second of each level playing itself. ``run("full")`` adds the strength table: hard vs easy and
easy vs random over 1,000 duplicate deals each (2,000 four-player hands: seats A B A B then
B A B A on the same cards, dealer rotating; see ``bot.players.match``), and hard vs random over
300 deals as a check, reporting team A's mean chips per player per hand (``<a>_vs_<b>_chips``)
and the half-width of its 95% interval (``<a>_vs_<b>_ci95``). The strength figures can be
negative, so ``run("small")`` leaves them out (it must stay a few seconds anyway).
The duels run in parallel processes (``workers``, default: every core).

``decisions [hands]`` prints a digest of every action the CPU players choose over seeded hands
of 3 to 6 players (per level; the hard level plays a fifth of the hands): equal digests before
and after a change mean the players decide exactly as before.

Run: ``.venv/bin/python bench/bench_players.py [small|full|decisions [hands]]``.
"""

from __future__ import annotations

import hashlib
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from bot.engine import Rules
from bot.engine.hand import Hand
from bot.players import make_player
from bot.players.match import START_CHIPS, duel_scores, mean_interval, play_hand

SIZES = {"small": (2, 3), "full": (12, 20)}  # (hands timed per level, hands for hands/s)
#: (A, B, duplicate deals): hard > easy > random needs the first two; the third is a check
DUELS = (("hard", "easy", 1_000), ("easy", "random", 1_000), ("hard", "random", 300))
CHUNK = 25


def decision_times(level: str, hands: int, seed: int = 1) -> list[float]:
    """Seconds taken by every decision of `level` players in `hands` 4-player hands."""
    rules = Rules(players=4)
    players = [make_player(level, seed + i) for i in range(4)]
    times: list[float] = []
    for h in range(hands):
        hand = Hand.start(rules, [START_CHIPS] * 4, h % 4, seed=seed * 1000 + h)
        while hand.to_act is not None:
            seat = hand.to_act
            view, legal, events = hand.seat_view(seat), hand.legal_actions(), hand.events_for(seat)
            start = time.perf_counter()
            action = players[seat].choose(view, legal, events)
            times.append(time.perf_counter() - start)
            hand.act(seat, action)
    return times


def hands_per_second(level: str, hands: int, seed: int = 2) -> float:
    """Whole 4-player hands per second with four `level` players (views included)."""
    rules = Rules(players=4)
    players = [make_player(level, seed + i) for i in range(4)]
    start = time.perf_counter()
    for h in range(hands):
        play_hand(rules, players, h % 4, seed=seed * 1000 + h)
    return hands / (time.perf_counter() - start)


def decision_digest(level: str, hands: int) -> str:
    """A digest of the seat and action of every decision of `level` players over `hands`
    seeded hands (3 to 6 players, uneven stacks, rotating dealer)."""
    digest = hashlib.sha256()
    for i in range(hands):
        players = 3 + i % 4
        cpus = [make_player(level, 100 * i + s) for s in range(players)]
        hand = Hand.start(
            Rules(players=players), [1000 + 37 * s for s in range(players)], i % players, seed=i
        )
        while hand.to_act is not None:
            seat = hand.to_act
            view = hand.seat_view(seat)
            action = cpus[seat].choose(view, hand.legal_actions(), hand.events_for(seat))
            digest.update(f"{seat}:{action};".encode())
            hand.act(seat, action)
    return digest.hexdigest()[:16]


def _chunk(args: tuple[str, str, int, int]) -> list[float]:
    a, b, deals, seed = args
    return duel_scores(a, b, deals, seed)


def strength(
    duels: tuple[tuple[str, str, int], ...] = DUELS, workers: int | None = None
) -> dict[str, float]:
    """The duel table: mean chips per hand of A against B, and the 95% half-width."""
    jobs = [
        (a, b, min(CHUNK, deals - start), 7919 * (start + 1) + i)
        for i, (a, b, deals) in enumerate(duels)
        for start in range(0, deals, CHUNK)
    ]
    chunks = []
    with ProcessPoolExecutor(max_workers=workers or os.cpu_count() or 1) as pool:
        for done, chunk in enumerate(pool.map(_chunk, jobs), 1):
            chunks.append(chunk)
            print(f"# duel chunk {done}/{len(jobs)}", file=sys.stderr, flush=True)
    figures: dict[str, float] = {}
    for a, b, _ in duels:
        scores = [
            s for job, chunk in zip(jobs, chunks, strict=True) if job[:2] == (a, b) for s in chunk
        ]
        mean, half = mean_interval(scores)
        figures[f"{a}_vs_{b}_chips"] = mean
        figures[f"{a}_vs_{b}_ci95"] = half
    return figures


def run(size: str = "full", workers: int | None = None) -> dict[str, float]:
    """The figures at `size` ("small": a few seconds; "full": adds the strength duels)."""
    if size not in SIZES:
        raise ValueError(f"size must be one of {', '.join(SIZES)}")
    timed, counted = SIZES[size]
    figures: dict[str, float] = {}
    for level in ("hard", "easy", "random"):
        ms = sorted(1000 * s for s in decision_times(level, timed))
        figures[f"{level}_decision_ms_median"] = statistics.median(ms)
        figures[f"{level}_decision_ms_p95"] = ms[int(0.95 * (len(ms) - 1))]
        figures[f"{level}_decision_ms_max"] = ms[-1]
    figures["easy_hands_per_s"] = hands_per_second("easy", counted)
    figures["random_hands_per_s"] = hands_per_second("random", 5 * counted)
    if size == "full":
        figures.update(strength(DUELS, workers))
    return figures


if __name__ == "__main__":
    size = sys.argv[1] if len(sys.argv) > 1 else "full"
    if size == "decisions":
        hands = int(sys.argv[2]) if len(sys.argv) > 2 else 300
        for level in ("random", "easy", "hard"):
            n = hands if level != "hard" else max(10, hands // 5)
            print(f"{level:8} {n:5} hands  {decision_digest(level, n)}")
        sys.exit(0)
    count = int(sys.argv[2]) if len(sys.argv) > 2 else None
    for name, value in run(size, count).items():
        print(f"{name:28} {value:12.2f}")
