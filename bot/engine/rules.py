"""Table settings: stakes (R-4) and variants (R-2, R-7, R-9, R-10, R-11, R-12, R-13).

``Rules(players=4, ante=60, ...)`` validates itself on construction and raises ValueError
with a specific message. ``Rules.to_dict()``/``Rules.from_dict()`` round-trip through JSON.
``VARIANTS`` lists the allowed values of every variant (first value = default).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import cache
from typing import Any

from .cards import SUITS, Card, build_deck, mask_of

VARIANTS: dict[str, tuple[str, ...]] = {
    "three_players": ("king", "suit"),
    "ranking": ("count", "total"),
    "unclaimed_big_pot": ("dealer", "carry"),
    "blocked_stoppa": (
        "four_aces",
        "three_twos_no_king",
        "three_aces_no_king",
        "four_aces_no_king",
        "three_aces",
        "none",
    ),
    "special_payout": ("cards", "ante"),
    "removed_suit": tuple(SUITS[::-1]),  # default "b" (Bastoni) first
    "show_first": ("last_bettor", "last_caller"),
    "six_players": ("kings", "knights", "jacks"),
    "stoppa_povera": ("on", "off"),
}
#: variants added after hand records were first saved (a record may lack them: default)
LATER_VARIANTS = ("show_first", "six_players", "stoppa_povera")
STAKES = ("ante", "small_point", "cip", "max_bet", "card_rate", "cards_per_payment")
CARDS_PER_PAYMENT = (1, 2, 3)
_DEALS = {4: (3, 3, 3, 1), 5: (3, 3, 2), 6: (3, 3)}  # cards per deal, 4-6 players
#: the seat limits of a table (R-2: 3 to 6 players)
MIN_PLAYERS = 3
MAX_PLAYERS = 6
PLAYERS = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))


@cache
def _deck(
    players: int, three_players: str, removed_suit: str, six_players: str
) -> tuple[Card, ...]:
    return tuple(build_deck(players, three_players, removed_suit, six_players))


@cache
def _deck_mask(players: int, three_players: str, removed_suit: str, six_players: str) -> int:
    return mask_of(_deck(players, three_players, removed_suit, six_players))


@cache
def _rank_counts(
    players: int, three_players: str, removed_suit: str, six_players: str
) -> tuple[int, ...]:
    counts = [0] * 11
    for c in _deck(players, three_players, removed_suit, six_players):
        counts[c.rank] += 1
    return tuple(counts)


@dataclass(frozen=True, slots=True)
class Rules:
    """Stakes and variants of a hand. Defaults are those of docs/rules-spec.md."""

    players: int = 4
    ante: int = 60
    small_point: int = 10
    cip: int = 10
    max_bet: int = 200
    card_rate: int = 10
    cards_per_payment: int = 1
    three_players: str = "king"
    ranking: str = "count"
    unclaimed_big_pot: str = "dealer"
    blocked_stoppa: str = "four_aces"
    special_payout: str = "cards"
    three_aces_jump: bool = False
    removed_suit: str = "b"
    show_first: str = "last_bettor"
    six_players: str = "kings"
    stoppa_povera: str = "on"

    def __post_init__(self) -> None:
        self.validate()

    @staticmethod
    def variant_choices() -> dict[str, tuple[str, ...]]:
        """Allowed values of each string variant (the first is the default)."""
        return dict(VARIANTS)

    def validate(self) -> None:
        """Raise ValueError naming the first bad setting."""
        for name in ("players", *STAKES):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool):
                raise ValueError(f"{name} must be a whole number, not {v!r}")
        if self.players not in PLAYERS:
            raise ValueError(
                f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {self.players}"
            )
        for name in STAKES:
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive, not {getattr(self, name)}")
        if self.cards_per_payment not in CARDS_PER_PAYMENT:
            raise ValueError(f"cards_per_payment must be 1, 2 or 3, not {self.cards_per_payment}")
        for name, allowed in VARIANTS.items():
            if getattr(self, name) not in allowed:
                raise ValueError(
                    f"unknown {name} {getattr(self, name)!r}: choose one of {', '.join(allowed)}"
                )
        if not isinstance(self.three_aces_jump, bool):
            raise ValueError(f"three_aces_jump must be true or false, not {self.three_aces_jump!r}")
        if self.max_bet < self.cip:
            raise ValueError(f"max_bet ({self.max_bet}) must be at least the cip ({self.cip})")
        smalls = len(self.deals) * self.small_point
        if self.players * self.ante <= smalls:
            raise ValueError(
                f"the antes ({self.players} x {self.ante} = {self.players * self.ante}) must be "
                f"more than the small pots ({len(self.deals)} x {self.small_point} = {smalls}),"
                " leaving a big pot"
            )

    @property
    def deals(self) -> tuple[int, ...]:
        """Cards per deal (R-2): one small point per deal."""
        p = self.players
        if p == 3:
            return (3, 3, 3, 1) if self.three_players == "suit" else (3, 3, 3, 3, 1)
        return _DEALS[p]

    @property
    def hand_size(self) -> int:
        """Cards each player receives."""
        return sum(self.deals)

    @property
    def big_pot(self) -> int:
        """The antes minus the small pots (before any carry)."""
        return self.players * self.ante - len(self.deals) * self.small_point

    def deck(self) -> list[Card]:
        """The cards used (R-2), unshuffled."""
        return list(_deck(self.players, self.three_players, self.removed_suit, self.six_players))

    def deck_mask(self) -> int:
        """The mask of the cards used (see ``Card.bit``)."""
        return _deck_mask(self.players, self.three_players, self.removed_suit, self.six_players)

    def rank_counts(self) -> tuple[int, ...]:
        """How many cards of each rank the used deck holds (index 0 unused)."""
        return _rank_counts(self.players, self.three_players, self.removed_suit, self.six_players)

    def payment(self, cards_left: int) -> int:
        """What a player with ``cards_left`` cards owes at the close (R-13), before the cap."""
        return self.card_rate * (cards_left // self.cards_per_payment)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able dict of every field (all scalars, so a shallow copy is exact and much
        cheaper than `dataclasses.asdict`, which the table service pays on every action)."""
        return {name: getattr(self, name) for name in _FIELD_NAMES}

    def to_record(self) -> dict[str, Any]:
        """``to_dict`` without the variants added after the first hand records when they are
        at their default, so a record written before them is written again byte for byte."""
        d = self.to_dict()
        for name in LATER_VARIANTS:
            if d[name] == VARIANTS[name][0]:
                del d[name]
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Rules:
        """Rules from a dict (unknown keys are refused with ValueError)."""
        unknown = set(d) - set(_FIELD_NAMES)
        if unknown:
            raise ValueError(f"unknown settings: {', '.join(sorted(unknown))}")
        return cls(**d)

    def replace(self, **changes: Any) -> Rules:
        """A copy with some fields changed (validated)."""
        d = self.to_dict()
        d.update(changes)
        return Rules.from_dict(d)


#: the field names of `Rules`, in declaration order (for `to_dict` / `from_dict`)
_FIELD_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Rules))
