"""Each card's position in the fair deck is uniform (chi-square, fixed seeds, p = 1e-6
bounds); the same check rejects a shuffle with a known bias. The large run is
bench/bench_fairness.py (100,000 decks)."""

from __future__ import annotations

from pathlib import Path

from bot.cli.bench import load
from bot.fairness import DealInputs, Stream, TableSecret

BENCH = load(Path(__file__).resolve().parents[2] / "bench" / "bench_fairness.py")
DECKS = 2_000


def test_each_cards_position_is_uniform() -> None:
    worst, whole, decks = BENCH.uniformity(BENCH.seeded_decks(DECKS))
    assert decks == DECKS
    assert worst < BENCH.chi_square_bound(39)
    assert whole < BENCH.chi_square_bound(39 * 39)


def _sattolo(n: int) -> list[int]:
    """Sattolo's shuffle (j below i, not i + 1): a card never stays where it was."""
    stream = Stream(DealInputs(TableSecret(bytes(32)), 1, n).key())
    cards = list(range(40))
    for i in range(39, 0, -1):
        j = stream.below(i)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def test_the_check_catches_a_biased_shuffle() -> None:
    _, whole, _ = BENCH.uniformity(_sattolo(n) for n in range(DECKS))
    assert whole > BENCH.chi_square_bound(39 * 39)
