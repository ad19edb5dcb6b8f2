"""The best point shown on the hand image (R-1 primiera values, R-7 ranking and examples)."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.i18n.cards import RANKS, SUITS, parse_code
from bot.render.points import PRIMIERA, best_point, primiera

DECK = [f"{rank}{suit}" for suit in SUITS for rank in RANKS]


def test_R1_primiera_values() -> None:
    assert [PRIMIERA[r] for r in (7, 6, 1, 5, 4, 3, 2, 8, 9, 10)] == [
        21, 18, 16, 15, 14, 13, 12, 10, 10, 10,
    ]
    assert primiera("7d") == 21 and primiera("10c") == 10


def test_R7_best_possible_is_55() -> None:
    point = best_point(["7s", "6s", "1s", "5s"])
    assert point is not None and point.value == 55 and set(point.cards) == {"7s", "6s", "1s"}


def test_R7_three_cards_beat_a_higher_pair() -> None:
    point = best_point(["10c", "8c", "3c", "7d", "6d"])
    assert point is not None and point.suit == "c" and point.value == 33


def test_R7_ranking_total_uses_the_sum_alone() -> None:
    point = best_point(["10c", "8c", "3c", "7d", "6d"], ranking="total")
    assert point is not None and point.suit == "d" and point.value == 39


def test_R7_blog_examples() -> None:
    point = best_point(["2d", "1b", "5b"])
    assert point is not None and (point.value, point.suit) == (31, "b")
    point = best_point(["7c", "6s", "1s"])
    assert point is not None and (point.value, point.suit) == (34, "s")


def test_R7_big_point_five_players_example() -> None:
    a = best_point(["6d", "7s", "1b", "5d", "4d", "7c", "1c", "10c"])
    b = best_point(["7d", "5b", "8b", "3d", "6c", "2c", "1d", "4c"])
    assert a is not None and a.value == 47
    assert b is not None and b.value == 50 and set(b.cards) == {"7d", "3d", "1d"}


def test_best_point_of_nothing_is_none() -> None:
    assert best_point([]) is None


@settings(deadline=None, max_examples=150)
@given(
    st.lists(st.sampled_from(DECK), min_size=1, max_size=13, unique=True),
    st.sampled_from(["count", "total"]),
)
def test_R7_best_point_beats_every_other_point(cards: list[str], ranking: str) -> None:
    point = best_point(cards, ranking)
    assert point is not None
    assert 1 <= len(point.cards) <= 3 and set(point.cards) <= set(cards)
    assert {parse_code(c)[1] for c in point.cards} == {point.suit}
    assert point.value == sum(primiera(c) for c in point.cards)

    def key(combo: tuple[str, ...]) -> tuple[int, ...]:
        value = sum(primiera(c) for c in combo)
        return (value,) if ranking == "total" else (len(combo), value)

    for size in (1, 2, 3):
        for combo in combinations(cards, size):
            if len({parse_code(c)[1] for c in combo}) == 1:
                assert key(combo) <= key(point.cards)
