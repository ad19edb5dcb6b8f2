"""R-7 points and their ranking; R-9 declarable (lower) points."""

from __future__ import annotations

import pytest

from bot.engine import Point, best_point, declarable_points, parse_cards, point_key


def bp(text: str, ranking: str = "count") -> Point:
    return best_point(parse_cards(text), ranking=ranking)


def test_R7_best_possible_point_is_55() -> None:
    p = bp("7d 6d 1d")
    assert (p.count, p.total, p.suit) == (3, 55, "d")


def test_R7_wikipedia_three_cards_beat_two() -> None:
    """A (10c 8c 3c) beats B (1s 7b 5b)."""
    a, b = bp("10c 8c 3c"), bp("1s 7b 5b")
    assert (a.count, a.total) == (3, 33)
    assert (b.count, b.total) == (2, 36)
    assert a > b


def test_R7_wikipedia_higher_sum_wins() -> None:
    """B (8c 7s 6s, 39) beats A (7d 5d 6c, 36)."""
    b, a = bp("8c 7s 6s"), bp("7d 5d 6c")
    assert (b.total, a.total) == (39, 36)
    assert b > a


def test_R7_wikipedia_equal_points_tie() -> None:
    """A (10d 1c 6c, 34) and B (7b 3b 8c, 34) are equal: priority decides (in the hand)."""
    a, b = bp("10d 1c 6c"), bp("7b 3b 8c")
    assert point_key(a) == point_key(b) == (2, 34)


def test_R7_big_point_five_players_example() -> None:
    """A: 6d 7s 1b | 5d 4d 7c | 1c 10c -> 47 either way; B: ... -> 7d 3d 1d = 50."""
    a = bp("6d 7s 1b 5d 4d 7c 1c 10c")
    b = bp("7d 5b 8b 3d 6c 2c 1d 4c")
    assert a.total == 47
    assert {str(c) for c in a.cards} in ({"6d", "5d", "4d"}, {"7c", "1c", "10c"})
    assert b.total == 50
    assert {str(c) for c in b.cards} == {"7d", "3d", "1d"}
    assert b > a


def test_R7_blog_examples() -> None:
    """2d 1b 5b -> 31 in Bastoni; 7c 6s 1s -> 34 in Spade."""
    p = bp("2d 1b 5b")
    assert (p.total, p.suit) == (31, "b")
    q = bp("7c 6s 1s")
    assert (q.total, q.suit) == (34, "s")


def test_R7_ranking_total_variant() -> None:
    """Under ranking=total the sum alone counts: 1s 7b 5b (36) beats 10c 8c 3c (33)."""
    a, b = bp("10c 8c 3c", "total"), bp("1s 7b 5b", "total")
    assert point_key(b, "total") > point_key(a, "total")
    assert point_key(a, "count") > point_key(b, "count")
    # the best point changes with the ranking: two sevens-and-six vs three low cards
    cards = "7b 6b 2c 3c 4c"
    assert bp(cards, "count").count == 3
    assert bp(cards, "total").total == 39


def test_R7_limit_and_point_of() -> None:
    assert best_point(parse_cards("7d 6d 1d"), limit=1).total == 21
    assert Point.of(parse_cards("6d 7d")).total == 39
    with pytest.raises(ValueError):
        Point.of(parse_cards("6d 7c"))
    with pytest.raises(ValueError):
        Point.of(parse_cards("1d 2d 3d 4d"))
    with pytest.raises(ValueError):
        best_point([])


def test_R9_lower_points_on_request() -> None:
    """Blog: with 7d 6d 1d one may declare 39, 37 or 34 (and one-card points)."""
    totals = [p.total for p in declarable_points(parse_cards("7d 6d 1d"))]
    assert totals == [55, 39, 37, 34, 21, 18, 16]


def test_R9_declarable_points_best_first_across_suits() -> None:
    pts = declarable_points(parse_cards("7d 6d 10c 8c 2s"))
    keys = [point_key(p) for p in pts]
    assert keys == sorted(keys, reverse=True)
    assert len(pts) == 3 + 3 + 1  # d: 7,6,76  c: 10,8,(10 8)  s: 2
    assert pts[0] == bp("7d 6d 10c 8c 2s")
