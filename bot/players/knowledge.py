"""What a seat knows, read from its `SeatView` only: its cards, the cards it cannot see, and
the cards other seats have shown.

Cards are handled here as small ints for speed: the engine's `Card.index` (`suit_index * 10 +
rank - 1`). The per-id facts below (rank, suit, primiera value) and the deck used (R-2) are
read from the engine's cards, never restated.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.engine.cards import ALL_CARDS, Card, card_of
from bot.engine.rules import Rules
from bot.engine.views import SeatView

#: the face value 1..10 of each card id
RANKS: tuple[int, ...] = tuple(c.rank for c in ALL_CARDS)
#: the suit index 0..3 (c d s b) of each card id
SUIT_INDEX: tuple[int, ...] = tuple(c.suit_index for c in ALL_CARDS)
#: the R-1 primiera value of each card id
VALUES: tuple[int, ...] = tuple(c.primiera for c in ALL_CARDS)


def card_id(code: str) -> int:
    """The int id of a card code such as "7d" or "10c"."""
    return Card.parse(code).index


def card_code(cid: int) -> str:
    """The card code of an int id (inverse of `card_id`)."""
    return card_of(cid).code


def rank_of(cid: int) -> int:
    """The face value 1..10 of a card id."""
    return RANKS[cid]


def used_deck(rules: Rules) -> list[int]:
    """The card ids of the deck used with these rules (the engine's R-2 deck)."""
    return [c.index for c in rules.deck()]


def point_key(cards: list[int] | tuple[int, ...], by_total: bool = False) -> tuple[int, int]:
    """The R-7 ranking key of the best point (1-3 same-suit cards) among `cards`.

    Keys compare as tuples, as the engine's `point_key`: (count, total) by default,
    (total, count) under `ranking=total`. An empty list gives (0, 0). (The engine's
    `best_point` works on `Card`s; this is its int form for the players' inner loops.)
    """
    per_suit: list[list[int]] = [[], [], [], []]
    for c in cards:
        per_suit[SUIT_INDEX[c]].append(VALUES[c])
    best = (0, 0)
    for values in per_suit:
        if not values:
            continue
        values.sort(reverse=True)
        top = values[:3]
        key = (sum(top), len(top)) if by_total else (len(top), sum(top))
        if key > best:
            best = key
    return best


@dataclass(slots=True)
class Knowledge:
    """The facts a seat can read from its view."""

    seat: int
    players: int
    dealer: int
    eldest: int
    mine: list[int]
    new: list[int]
    deck: list[int]
    rules: Rules
    #: cards shown by each other seat this hand and not played since (seat -> ids)
    shown: dict[int, list[int]] = field(default_factory=dict)
    played: list[int] = field(default_factory=list)
    counts: list[int] = field(default_factory=list)
    chips: list[int] = field(default_factory=list)
    by_total: bool = False

    def priority(self, seat: int) -> int:
        """0 for the eldest hand (highest priority) up to players-1 for the dealer (R-3)."""
        return (seat - self.eldest) % self.players

    def unseen(self) -> list[int]:
        """Cards this seat cannot place: not its own, not played, not shown by another seat."""
        known = set(self.mine) | set(self.played)
        for cards in self.shown.values():
            known.update(cards)
        return [c for c in self.deck if c not in known]


def read_view(view: SeatView) -> Knowledge:
    """Build the `Knowledge` of the seat of `view` (nothing else is consulted).

    ``new`` holds the cards of the deal being played (empty outside the small points).
    """
    if view.seat is None:
        raise ValueError("a CPU player needs the view of its own seat")
    seat = view.seat
    played = [c.index for play in view.stoppa.table for c in play] if view.stoppa else []
    played_set = set(played)
    shown: dict[int, list[int]] = {}
    for item in view.declared:
        if item.seat == seat:
            continue
        for card in item.cards:
            c = card.index
            if c not in played_set and c not in shown.setdefault(item.seat, []):
                shown[item.seat].append(c)
    rules = view.rules
    return Knowledge(
        seat=seat,
        players=view.players,
        dealer=view.dealer,
        eldest=view.eldest,
        mine=[c.index for c in view.hand],
        new=[c.index for c in view.eligible] if view.deal_no is not None else [],
        deck=used_deck(rules),
        rules=rules,
        shown=shown,
        played=played,
        counts=[s.card_count for s in view.seats],
        chips=[s.chips for s in view.seats],
        by_total=rules.ranking == "total",
    )
