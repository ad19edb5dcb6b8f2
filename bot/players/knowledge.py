"""What a seat knows, read from `hand.view(seat)` only: its cards, the cards it cannot see, and
the cards other seats have shown.

Cards are handled here as small ints for speed: the engine's `Card.index` (`suit_index * 10 +
rank - 1`). The per-id facts below (rank, suit, primiera value) and the deck used (R-2) are
read from the engine's cards, never restated.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.engine.cards import ALL_CARDS, Card, build_deck, card_of

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


def used_deck(rules: dict[str, Any]) -> list[int]:
    """The card ids of the deck used with these rules (the engine's R-2 `build_deck`)."""
    deck = build_deck(
        int(rules.get("players", 4)),
        rules.get("three_players", "king") or "king",
        rules.get("removed_suit", "b") or "b",
        rules.get("six_players", "kings") or "kings",
    )
    return [c.index for c in deck]


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
    #: cards shown by each other seat this hand and not played since (seat -> ids)
    shown: dict[int, list[int]] = field(default_factory=dict)
    played: list[int] = field(default_factory=list)
    counts: list[int] = field(default_factory=list)
    chips: list[int] = field(default_factory=list)
    by_total: bool = False
    rules: dict[str, Any] = field(default_factory=dict)

    def priority(self, seat: int) -> int:
        """0 for the eldest hand (highest priority) up to players-1 for the dealer (R-3)."""
        return (seat - self.eldest) % self.players

    def unseen(self) -> list[int]:
        """Cards this seat cannot place: not its own, not played, not shown by another seat."""
        known = set(self.mine) | set(self.played)
        for cards in self.shown.values():
            known.update(cards)
        return [c for c in self.deck if c not in known]


def _codes(items: Any) -> list[int]:
    return [card_id(str(c)) for c in items or []]


def read_view(view: dict[str, Any]) -> Knowledge:
    """Build the `Knowledge` of the seat of `view` (nothing else is consulted)."""
    rules = view.get("rules") or {}
    players = int(view.get("players") or rules.get("players") or len(view["chips"]))
    rules = {**rules, "players": players}
    seat = int(view["seat"])
    mine = _codes(view.get("hand"))
    stoppa = view.get("stoppa") or {}
    played = [c for group in stoppa.get("table") or [] for c in _codes(group)]
    played_set = set(played)
    shown: dict[int, list[int]] = {}
    for item in view.get("declared") or []:
        who = int(item["seat"])
        if who == seat:
            continue
        for c in _codes(item.get("cards")):
            if c not in played_set and c not in shown.setdefault(who, []):
                shown[who].append(c)
    dealer = int(view.get("dealer", 0))
    eldest = view.get("eldest")
    return Knowledge(
        seat=seat,
        players=players,
        dealer=dealer,
        eldest=int(eldest) if eldest is not None else (dealer + 1) % players,
        mine=mine,
        new=_codes(view.get("new_cards")),
        deck=used_deck(rules),
        shown=shown,
        played=played,
        counts=[int(n) for n in view.get("card_counts") or [0] * players],
        chips=[int(n) for n in view.get("chips") or [0] * players],
        by_total=rules.get("ranking", "count") == "total",
        rules=rules,
    )
