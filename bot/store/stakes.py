"""Stakes and variants of a server (docs/rules-spec.md R-4, R-2, the named variants), checked.

`Stakes` is the engine's `Rules` without `players` (which a table sets): the same fields with
the engine's defaults, checked for EVERY table size 3..6, and refused with the store's
`InvalidStakes` codes (a person reads them) where `Rules` raises for one size in English. A
`Stakes` is valid once built; `from_dict` / `to_dict` are the JSON boundary (the `servers`
row, a `/settings` change), nothing else reads stakes by string keys.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from bot.engine.rules import CARDS_PER_PAYMENT, STAKES, VARIANTS, Rules
from bot.store.errors import InvalidStakes

#: the engine's defaults (docs/rules-spec.md), read once so they are written in one place
_ENGINE = Rules()

#: integer stakes, all strictly positive (R-4)
INTEGER_STAKES: tuple[str, ...] = STAKES

#: a sanity ceiling on every integer stake (keeps every sum far inside SQLite's int64)
MAX_STAKE = 1_000_000_000

#: allowed values of each choice (R-4 cards_per_payment, R-2, R-7, R-10, R-11, R-12): the
#: engine's, so the store never accepts a setting a table could not play
CHOICES: dict[str, tuple[Any, ...]] = {
    "cards_per_payment": CARDS_PER_PAYMENT,
    **VARIANTS,
    "three_aces_jump": (False, True),
}


def small_points(players: int, three_players: str = "king") -> int:
    """The number of deals, so of small pots, for `players` (R-2)."""
    if players == 3:
        return 4 if three_players == "suit" else 5
    table = {4: 4, 5: 3, 6: 2}
    if players not in table:
        raise ValueError(f"Stoppa is played by 3 to 6 players, not {players}")
    return table[players]


def _check_integer(key: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidStakes("stakes_not_integer", {"key": key, "value": value})
    if value <= 0:
        raise InvalidStakes("stakes_not_positive", {"key": key, "value": value})
    if value > MAX_STAKE:
        raise InvalidStakes("stakes_too_large", {"key": key, "value": value, "max": MAX_STAKE})


def _check_choice(key: str, value: object, allowed: tuple[Any, ...]) -> None:
    # bool is an int in Python: match the type too, so True is not taken for 1
    if not any(value == a and type(value) is type(a) for a in allowed):
        choices = ", ".join(str(a).lower() if isinstance(a, bool) else str(a) for a in allowed)
        raise InvalidStakes("stakes_bad_choice", {"key": key, "value": value, "choices": choices})


@dataclass(frozen=True, slots=True)
class Stakes:
    """A server's stakes (R-4) and variants; building one checks it (`InvalidStakes`).

    Refused: integer stakes that are not integers, are <= 0 or above MAX_STAKE; values
    outside CHOICES; max_bet < cip; and any P in 3..6 with P x ante <= small points x
    small_point (R-4 invariant, small points from R-2).
    """

    ante: int = _ENGINE.ante
    small_point: int = _ENGINE.small_point
    cip: int = _ENGINE.cip
    max_bet: int = _ENGINE.max_bet
    card_rate: int = _ENGINE.card_rate
    cards_per_payment: int = _ENGINE.cards_per_payment
    three_players: str = _ENGINE.three_players
    ranking: str = _ENGINE.ranking
    unclaimed_big_pot: str = _ENGINE.unclaimed_big_pot
    blocked_stoppa: str = _ENGINE.blocked_stoppa
    special_payout: str = _ENGINE.special_payout
    three_aces_jump: bool = _ENGINE.three_aces_jump
    removed_suit: str = _ENGINE.removed_suit
    show_first: str = _ENGINE.show_first
    six_players: str = _ENGINE.six_players
    stoppa_povera: str = _ENGINE.stoppa_povera

    def __post_init__(self) -> None:
        for key in INTEGER_STAKES:
            _check_integer(key, getattr(self, key))
        for key, allowed in CHOICES.items():
            _check_choice(key, getattr(self, key), allowed)
        if self.max_bet < self.cip:
            raise InvalidStakes(
                "stakes_max_bet_below_cip", {"max_bet": self.max_bet, "cip": self.cip}
            )
        for players in range(3, 7):
            smalls = small_points(players, self.three_players)
            if players * self.ante <= smalls * self.small_point:
                raise InvalidStakes(
                    "stakes_ante_too_small",
                    {
                        "players": players,
                        "ante": self.ante,
                        "small_points": smalls,
                        "small_point": self.small_point,
                    },
                )

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Stakes:
        """Stakes from a whole set of keys (the JSON boundary); InvalidStakes for an unknown
        or missing key, then for the first value `Stakes` refuses."""
        for key in data:
            if key not in STAKES_KEYS:
                raise InvalidStakes("stakes_unknown_key", {"key": key})
        for key in STAKES_KEYS:
            if key not in data:
                raise InvalidStakes("stakes_missing_key", {"key": key})
        return cls(**{key: data[key] for key in STAKES_KEYS})

    def to_dict(self) -> dict[str, Any]:
        """Every field by name, JSON-able (all scalars), in declaration order."""
        return {key: getattr(self, key) for key in STAKES_KEYS}

    def changed(self, changes: Mapping[str, object]) -> Stakes:
        """These stakes with `changes` applied, checked as a whole (as `from_dict`)."""
        return Stakes.from_dict({**self.to_dict(), **changes})

    def rules(self, players: int) -> Rules:
        """The engine's settings of a table of `players` with these stakes."""
        return Rules(players=players, **self.to_dict())


#: the field names of `Stakes` (the engine's `Rules` fields minus `players`), in order
STAKES_KEYS: tuple[str, ...] = tuple(f.name for f in fields(Stakes))

#: docs/rules-spec.md defaults (R-4 stakes; variants at their default reading)
DEFAULT_STAKES = Stakes()


@dataclass(frozen=True, slots=True)
class StakesChange:
    """One change of a server's stakes: when, by whom, and each changed key's (old, new)."""

    at: float
    by: int
    changes: Mapping[str, tuple[object, object]]

    @classmethod
    def from_row(cls, at: float, by: int, changes: str) -> StakesChange:
        """From a `stakes_changes` row (`changes` is JSON: key -> [old, new])."""
        pairs = json.loads(changes)
        return cls(float(at), int(by), {key: (old, new) for key, (old, new) in pairs.items()})
