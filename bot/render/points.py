"""The best point of a set of card codes, for display (docs/rules-spec.md R-1, R-7).

The rule itself is the engine's (`bot.engine.best_point`, `Card.primiera`); this module only
turns card codes into engine cards and the engine's `Point` into the renderer's `PointInfo`.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.engine import PRIMIERA, Card, Point
from bot.engine import best_point as engine_best_point
from bot.render.snapshots import PointInfo

__all__ = ["PRIMIERA", "best_point", "point_info", "point_order", "primiera"]


def primiera(code: str) -> int:
    """The primiera value of a card (R-1): 7->21, 6->18, 1->16, ..., figures 10."""
    return Card.parse(code).primiera


def point_order(code: str) -> tuple[int, int]:
    """Sort key putting the cards that count most for a point first (value, then rank)."""
    card = Card.parse(code)
    return (-card.primiera, -card.rank)


def point_info(point: Point) -> PointInfo:
    """The renderer's form of an engine point: its card codes, value and suit letter."""
    return PointInfo(tuple(c.code for c in point.cards), point.total, point.suit)


def best_point(cards: Iterable[str], ranking: str = "count") -> PointInfo | None:
    """The engine's best point (R-7) among the card codes `cards`; None if there are none."""
    parsed = [Card.parse(code) for code in cards]
    if not parsed:
        return None
    return point_info(engine_best_point(parsed, ranking=ranking))
