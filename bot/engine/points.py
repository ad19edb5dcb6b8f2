"""Points (R-7): 1-3 cards of one suit, valued by the sum of their primiera values.

Ranking: by default more cards first, then the higher sum (``Point`` orders by
``(count, total)``); with ``ranking="total"`` by the sum alone (use :func:`point_key`). Ties
between players are broken by priority, which the hand does, not this module.

``best_point`` runs on precomputed tables: a hand is turned into a 40-bit mask (the sum of
the cards' ``bit``), and each suit's 10-bit slice indexes a table of int keys that encode the
best point of that slice, its rank and its suit; the best point is the max of four ints. Where
two choices inside a suit are worth the same (8, 9 and 10 are all worth 10), the higher rank
is kept. Where two suits give equal points, the first suit in the order c d s b is chosen.
``declarable_points`` sorts int keys too (see ``declarable_keys``), cached per suit slice.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import combinations
from operator import attrgetter

from .cards import PRIMIERA, SUITS, Card, card_of

RANKINGS = ("count", "total")


@dataclass(frozen=True, slots=True, order=True)
class Point:
    """A declarable point: ``cards`` (1-3 of ``suit``, best first), ``count``, ``total``."""

    count: int
    total: int
    suit: str
    cards: tuple[Card, ...]
    #: the cards' codes (R-1 notation), what a declaration shows in its event
    codes: tuple[str, ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "codes", tuple(c.code for c in self.cards))

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


# _BEST[(limit, ranking)][s][submask] -> int key of the best point of suit s in a 10-bit
# submask (0 when empty): ((rank key) * 4 + (3 - s)) * 4096 + s * 1024 + submask, so that
# the max of the four suits' keys is the best point, the first suit (c d s b) winning ties,
# and key & 4095 finds the point again in _BEST_POINT[(limit, ranking)].
_BEST: dict[tuple[int, str], tuple[tuple[int, ...], ...]] = {}
_BEST_POINT: dict[tuple[int, str], tuple[Point | None, ...]] = {}


def _best_tables(limit: int, ranking: str) -> tuple[tuple[int, ...], ...]:
    got = _BEST.get((limit, ranking))
    if got is None:
        t = _TABLES[limit]
        keys = []
        points: list[Point | None] = []
        for s in range(4):
            row = []
            for sm in range(1024):
                p = t[s][sm]
                points.append(p)
                if p is None:
                    row.append(0)
                    continue
                rk = p.total * 4 + p.count if ranking == "total" else p.count * 64 + p.total
                row.append((rk * 4 + 3 - s) * 4096 + s * 1024 + sm)
            keys.append(tuple(row))
        got = _BEST[(limit, ranking)] = tuple(keys)
        _BEST_POINT[(limit, ranking)] = tuple(points)
    return got


_BIT_OF = attrgetter("bit")


def _or_bits(cards: Iterable[Card]) -> int:
    m = 0
    for c in cards:
        m |= c.bit
    return m


def best_point(cards: Iterable[Card], limit: int = 3, ranking: str = "count") -> Point:
    """The best point (R-7) that ``cards`` allow, using at most ``limit`` cards.

    >>> str(best_point(parse_cards("2d 1b 5b")))
    '1b 5b (31)'
    """
    if type(cards) is list or type(cards) is tuple:
        m: int = sum(map(_BIT_OF, cards))
        if m.bit_count() != len(cards):  # a card given twice: fall back to or-ing
            m = _or_bits(cards)
    else:
        m = _or_bits(cards)
    if not m:
        raise ValueError("no cards, no point")
    if limit == 3 and ranking == "count":
        t0, t1, t2, t3 = _DEFAULT_KEYS
        k = max(t0[m & 1023], t1[(m >> 10) & 1023], t2[(m >> 20) & 1023], t3[m >> 30])
        p = _DEFAULT_POINTS[k & 4095]
    else:
        t = _BEST.get((limit, ranking)) or _best_tables(limit, ranking)
        k = max(t[0][m & 1023], t[1][(m >> 10) & 1023], t[2][(m >> 20) & 1023], t[3][m >> 30])
        p = _BEST_POINT[(limit, ranking)][k & 4095]
    assert p is not None, "a non-empty set of cards has a point"
    return p


_DEFAULT_KEYS = _best_tables(3, "count")
_DEFAULT_POINTS = _BEST_POINT[(3, "count")]


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


# Sort keys for declarable_points. Every point of a whole suit gets a position ``g`` in the
# order ``_suit_points(suit, 1023)`` lists them; the points of any subset of the suit come in
# the same relative order (combinations of a subsequence keep their lexicographic order). A
# point's key is one int: ((rank key) * 4 + (3 - suit)) * 256 + (255 - g), so sorting keys
# in reverse is sorting by (rank key, -suit, -position) in reverse, as declarable_points does.
_KEYED: dict[str, dict[int, Point]] = {}  # ranking -> key -> Point
_COMBOS: dict[tuple[str, int], list[tuple[int, int]]] = {}  # (ranking, suit) -> [(mask, key)]


def _mask_of(cards: Iterable[Card]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c.index
    return m


def _suit_combos(ranking: str, suit: int) -> list[tuple[int, int]]:
    """(10-bit mask of its cards, key) of every point of a whole suit, in position order."""
    got = _COMBOS.get((ranking, suit))
    if got is None:
        keyed = _KEYED.setdefault(ranking, {})
        got = []
        for g, p in enumerate(_suit_points(suit, 1023)):
            rk = p.total * 4 + p.count if ranking == "total" else p.count * 64 + p.total
            k = (rk * 4 + 3 - suit) * 256 + 255 - g
            keyed[k] = p
            got.append((_mask_of(p.cards) >> (10 * suit), k))
        _COMBOS[(ranking, suit)] = got
    return got


def declarable_keys(mask: int, ranking: str = "count") -> list[int]:
    """Sort keys of every point the cards of a 40-bit ``mask`` allow, best first.

    ``all_point_keys(ranking)[key]`` is the Point of a key. (The fast path of
    ``declarable_points``, for the hand's legal actions.)
    """
    tables = _KEY_TABLES.get(ranking) or _key_tables(ranking)
    keys = (
        tables[0][mask & 1023]
        + tables[1][(mask >> 10) & 1023]
        + tables[2][(mask >> 20) & 1023]
        + tables[3][(mask >> 30) & 1023]
    )
    keys.sort(reverse=True)
    return keys


#: ranking -> suit -> 10-bit mask -> keys (built whole on first use, see ``_key_tables``)
_KEY_TABLES: dict[str, list[list[list[int]]]] = {}


def _key_tables(ranking: str) -> list[list[list[int]]]:
    """Build ``_KEY_TABLES[ranking]``: the keys of every 10-bit mask of every suit (about
    20 ms once per ranking; a hand's showdowns then only look up and sort)."""
    tables = []
    for s in range(4):
        combos = _suit_combos(ranking, s)
        tables.append([[k for cm, k in combos if cm & m == cm] for m in range(1024)])
    _KEY_TABLES[ranking] = tables
    return tables


def all_point_keys(ranking: str) -> dict[int, Point]:
    """The Point of every key (see ``declarable_keys``): every point of the deck, 4 x 175."""
    for s in range(4):
        _suit_combos(ranking, s)
    return _KEYED[ranking]


def declarable_points(cards: Iterable[Card], ranking: str = "count") -> list[Point]:
    """Every point (1-3 same-suit cards) these cards allow, best first (R-9).

    Equal points are ordered by suit (c d s b), then by their ranks (higher first).
    """
    m = 0
    for c in cards:
        m |= 1 << c.index
    keys = declarable_keys(m, ranking)
    points = all_point_keys(ranking)
    return [points[k] for k in keys]


__all__ = ["PRIMIERA", "RANKINGS", "Point", "best_point", "declarable_points", "point_key"]
