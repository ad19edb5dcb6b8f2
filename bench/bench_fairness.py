"""The fair deal (issue 30): how long a hand's deck takes, and whether it is uniform.

``run(size)`` returns the median time of one hand's deck (``DealInputs(...).deck``, the call
the table service makes before ``Hand.start(deck=...)``; target at most 0.2 ms), of that deck
with ``Hand.start`` (the whole deal of a 4-player hand: antes, first deal, first turn) and of
the first dealer's draw, in milliseconds, and the chi-square statistics of where each
card lands over ``SIZES[size]`` decks from fixed seeds: the largest per card (39 degrees of
freedom) and the whole position-by-card table (39 x 39), with the bounds they must stay
under (p = 1e-6 each). Run: ``.venv/bin/python bench/bench_fairness.py [small|full]``.
"""

from __future__ import annotations

import hashlib
import math
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence

from bot.engine import Hand, Rules
from bot.fairness import DealInputs, TableSecret, first_dealer

SIZES = {"small": 2_000, "full": 100_000}  # decks
CARDS = 40
#: the standard normal quantile of p = 1e-6 (one-sided), for the chi-square bounds
Z_1E6 = 4.753424


def chi_square_bound(df: int, z: float = Z_1E6) -> float:
    """The chi-square value exceeded with probability about p (Wilson-Hilferty)."""
    h = 2 / (9 * df)
    return df * (1 - h + z * math.sqrt(h)) ** 3


def uniformity(decks: Iterable[Sequence[int]]) -> tuple[float, float, int]:
    """(the largest per-card chi-square, the whole table's chi-square, decks) of where each
    card index lands in ``decks`` (each a permutation of 0..39)."""
    counts = [[0] * CARDS for _ in range(CARDS)]  # counts[card][position]
    total = 0
    for deck in decks:
        total += 1
        for position, card in enumerate(deck):
            counts[card][position] += 1
    expected = total / CARDS
    per_card = [sum((c - expected) ** 2 / expected for c in row) for row in counts]
    return max(per_card), sum(per_card), total


def seeded_decks(count: int, seed: bytes = b"stoppa-fair-bench") -> Iterable[list[int]]:
    """``count`` full decks (card indexes) from fixed secrets: a new secret every 100 hands."""
    for n in range(count):
        secret = TableSecret(hashlib.sha256(seed + (n // 100).to_bytes(4, "big")).digest())
        yield [c.index for c in DealInputs(secret, n // 100, n % 100 + 1, ("w",)).full_deck()]


def _median_ms(call: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def run(size: str = "full") -> dict[str, float]:
    """The figures of the module docstring."""
    secret = TableSecret(bytes(range(32)))
    rules = Rules(players=4)
    mask = rules.deck_mask()
    words = ("ciao", "Zoë", "mondo")
    deck_ms = _median_ms(lambda: DealInputs(secret, 42, 7, words).deck(mask), 2_000)
    chips = [1000] * 4
    deal_ms = _median_ms(
        lambda: Hand.start(rules, chips, 1, deck=DealInputs(secret, 42, 7, words).deck(mask)),
        2_000,
    )
    dealer_ms = _median_ms(lambda: first_dealer(secret, 4), 2_000)
    worst, whole, decks = uniformity(seeded_decks(SIZES[size]))
    return {
        "deck_ms": deck_ms,
        "deck_and_start_ms": deal_ms,
        "first_dealer_ms": dealer_ms,
        "decks": float(decks),
        "worst_card_chi2": worst,
        "worst_card_bound": chi_square_bound(CARDS - 1),
        "table_chi2": whole,
        "table_bound": chi_square_bound((CARDS - 1) ** 2),
    }


if __name__ == "__main__":
    for name, value in run(sys.argv[1] if len(sys.argv) > 1 else "full").items():
        print(f"{name:>18}: {value:.4f}")
