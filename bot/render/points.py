"""Primiera values and the best point of a set of cards (RULES.md R-1, R-7).

A copy of the rule for display only: the renderer must not import bot.engine (the engine
decides who wins; this only tells a player what their best point is).
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.i18n.cards import SUITS, parse_code
from bot.render.snapshots import PointInfo

PRIMIERA: dict[int, int] = {7: 21, 6: 18, 1: 16, 5: 15, 4: 14, 3: 13, 2: 12, 8: 10, 9: 10, 10: 10}


def primiera(code: str) -> int:
    """The primiera value of a card (R-1): 7->21, 6->18, 1->16, ..., figures 10."""
    return PRIMIERA[parse_code(code)[0]]


def point_order(code: str) -> tuple[int, int]:
    """Sort key putting the cards that count most for a point first (value, then rank)."""
    rank, _ = parse_code(code)
    return (-PRIMIERA[rank], -rank)


def best_point(cards: Iterable[str], ranking: str = "count") -> PointInfo | None:
    """The best point among `cards` (R-7): 1-3 cards of one suit.

    ``ranking="count"`` (default) ranks by number of cards, then sum; ``"total"`` by sum alone.
    Between two suits with the same rank, the earlier suit of c, d, s, b is kept. None if empty.
    """
    by_suit: dict[str, list[str]] = {}
    for code in cards:
        by_suit.setdefault(parse_code(code)[1], []).append(code)
    best: PointInfo | None = None
    best_key: tuple[int, ...] = ()
    for suit in SUITS:
        group = sorted(by_suit.get(suit, ()), key=point_order)[:3]
        if not group:
            continue
        value = sum(primiera(code) for code in group)
        key = (value,) if ranking == "total" else (len(group), value)
        if best is None or key > best_key:
            best, best_key = PointInfo(tuple(group), value, suit), key
    return best
