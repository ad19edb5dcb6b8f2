"""Points (R-7): 1-3 cards of one suit, valued by the sum of their primiera values.

Ranking: by default more cards first, then the higher sum (``Point`` orders by
``(count, total)``); with ``ranking="total"`` by the sum alone (use :func:`point_key`). Ties
between players are broken by priority, which the hand does, not this module.

``best_point`` runs on precomputed tables: a hand is turned into a 40-bit mask, and the best
point of each suit is looked up from its 10-bit slice. Where two choices inside a suit are
worth the same (8, 9 and 10 are all worth 10), the higher rank is kept. Where two suits give
equal points, the first suit in the order c d s b is chosen.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations

from .cards import PRIMIERA, SUITS, Card, card_of

RANKINGS = ("count", "total")


@dataclass(frozen=True, slots=True, order=True)
class Point:
    """A declarable point: ``cards`` (1-3 of ``suit``, best first), ``count``, ``total``."""

    count: int
    total: int
    suit: str
    cards: tuple[Card, ...]

    @staticmethod
    def of(cards: Iterable[Card]) -> Point:
        """The point made by exactly these cards; ValueError unless 1-3 cards of one suit."""
        given = list(cards)
        cs = tuple(sorted(set(given), key=lambda c: (-c.primiera, -c.rank)))
        if len(cs) != len(given):
            raise ValueError("a point cannot repeat a card")
        if not 1 <= len(cs) <= 3:
            raise ValueError("a point is 1 to 3 cards")
        if any(c.suit != cs[0].suit for c in cs):
            raise ValueError("a point is made of cards of one suit")
        return Point(len(cs), sum(c.primiera for c in cs), cs[0].suit, cs)

    def key(self, ranking: str = "count") -> tuple[int, int]:
        """Sort key under ``ranking`` ("count" or "total"); higher is better."""
        return point_key(self, ranking)

    def __str__(self) -> str:
        return f"{' '.join(map(str, self.cards))} ({self.total})"


def point_key(point: Point, ranking: str = "count") -> tuple[int, int]:
    """Sort key of a point: ``(count, total)`` or, for ``ranking="total"``, ``(total, count)``."""
    if ranking == "total":
        return (point.total, point.count)
    return (point.count, point.total)


def _best_in_suit(suit: int, mask: int) -> Point | None:
    cards = [card_of(suit * 10 + r) for r in range(10) if mask >> r & 1]
    if not cards:
        return None
    cards.sort(key=lambda c: (-c.primiera, -c.rank))
    top = tuple(cards[:3])
    return Point(len(top), sum(c.primiera for c in top), SUITS[suit], top)


# _TABLE[suit][mask] -> best Point of that suit from the 10-bit mask, or None; for each
# ranking and limit the lookup differs only in limit, so we store limit 1..3 tables.
def _build_tables() -> dict[int, tuple[tuple[Point | None, ...], ...]]:
    tables = {}
    for limit in (1, 2, 3):
        per_suit = []
        for s in range(4):
            row: list[Point | None] = []
            for mask in range(1024):
                p = _best_in_suit(s, mask)
                if p is not None and p.count > limit:
                    top = p.cards[:limit]
                    p = Point(limit, sum(c.primiera for c in top), p.suit, top)
                row.append(p)
            per_suit.append(tuple(row))
        tables[limit] = tuple(per_suit)
    return tables


_TABLES = _build_tables()


def hand_mask(cards: Iterable[Card]) -> int:
    """40-bit mask of a set of cards (bit = card index)."""
    m = 0
    for c in cards:
        m |= 1 << c.index
    return m


def best_point_of_mask(mask: int, limit: int = 3, ranking: str = "count") -> Point | None:
    """The best point among the cards of ``mask``; None for an empty mask."""
    t = _TABLES[limit]
    best = None
    bk: tuple[int, int] = (-1, -1)
    total_rank = ranking == "total"
    for s in range(4):
        p = t[s][(mask >> (10 * s)) & 1023]
        if p is None:
            continue
        k = (p.total, p.count) if total_rank else (p.count, p.total)
        if k > bk:
            best, bk = p, k
    return best


def best_point(cards: Iterable[Card], limit: int = 3, ranking: str = "count") -> Point:
    """The best point (R-7) that ``cards`` allow, using at most ``limit`` cards.

    >>> str(best_point(parse_cards("2d 1b 5b")))
    '1b 5b (31)'
    """
    m = 0
    for c in cards:
        m |= 1 << c.index
    if not m:
        raise ValueError("no cards, no point")
    p = best_point_of_mask(m, limit, ranking)
    assert p is not None
    return p


_SUIT_POINTS: dict[tuple[int, int], list[Point]] = {}


def _suit_points(suit: int, mask: int) -> list[Point]:
    """Every point of one suit from a 10-bit mask (cached: at most 4 x 1024 entries)."""
    got = _SUIT_POINTS.get((suit, mask))
    if got is None:
        group = [card_of(suit * 10 + r) for r in range(10) if mask >> r & 1]
        group.sort(key=lambda c: (-c.primiera, -c.rank))
        got = [
            Point(n, sum(c.primiera for c in combo), combo[0].suit, combo)
            for n in (1, 2, 3)
            for combo in combinations(group, n)
        ]
        _SUIT_POINTS[(suit, mask)] = got
    return got


def declarable_points(cards: Iterable[Card], ranking: str = "count") -> list[Point]:
    """Every point (1-3 same-suit cards) these cards allow, best first (R-9).

    Equal points are ordered by suit (c d s b), then by their ranks (higher first).
    """
    m = 0
    for c in cards:
        m |= 1 << c.index
    keyed = []
    total_rank = ranking == "total"
    for s in range(4):
        sm = (m >> (10 * s)) & 1023
        if not sm:
            continue
        for i, p in enumerate(_suit_points(s, sm)):
            k = (p.total, p.count) if total_rank else (p.count, p.total)
            keyed.append((k, -s, -i, p))
    keyed.sort(reverse=True)
    return [t[3] for t in keyed]


__all__ = ["PRIMIERA", "RANKINGS", "Point", "best_point", "declarable_points", "point_key"]
