"""Stakes and variants of a server (docs/rules-spec.md R-4, R-2, the named variants), checked.

The keys are the engine's `Rules` field names minus `players`; defaults and allowed values come
from the engine (pure code, no I/O), the checks that concern a whole server are done here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine.rules import CARDS_PER_PAYMENT, STAKES, VARIANTS, Rules
from bot.store.errors import InvalidStakes

#: docs/rules-spec.md defaults (R-4 stakes; variants at their default reading): the engine's `Rules`
#: defaults, every field but `players` (which a table sets)
DEFAULT_STAKES: dict[str, Any] = {k: v for k, v in Rules().to_dict().items() if k != "players"}

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


def validate_stakes(stakes: Mapping[str, Any]) -> dict[str, Any]:
    """Check a whole set of stakes and variants; return a clean copy, or raise InvalidStakes.

    Refused: unknown keys or missing keys; integer stakes that are not integers, are <= 0 or
    above MAX_STAKE; values outside CHOICES; max_bet < cip; and any P in 3..6 with
    P x ante <= small points x small_point (R-4 invariant, small points from R-2).
    """
    for key in stakes:
        if key not in DEFAULT_STAKES:
            raise InvalidStakes("stakes_unknown_key", {"key": key})
    for key in DEFAULT_STAKES:
        if key not in stakes:
            raise InvalidStakes("stakes_missing_key", {"key": key})
    clean = {key: stakes[key] for key in DEFAULT_STAKES}
    for key in INTEGER_STAKES:
        value = clean[key]
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidStakes("stakes_not_integer", {"key": key, "value": value})
        if value <= 0:
            raise InvalidStakes("stakes_not_positive", {"key": key, "value": value})
        if value > MAX_STAKE:
            raise InvalidStakes("stakes_too_large", {"key": key, "value": value, "max": MAX_STAKE})
    for key, allowed in CHOICES.items():
        value = clean[key]
        # bool is an int in Python: match the type too, so True is not taken for 1
        if not any(value == a and type(value) is type(a) for a in allowed):
            choices = ", ".join(str(a).lower() if isinstance(a, bool) else str(a) for a in allowed)
            raise InvalidStakes(
                "stakes_bad_choice", {"key": key, "value": value, "choices": choices}
            )
    if clean["max_bet"] < clean["cip"]:
        raise InvalidStakes(
            "stakes_max_bet_below_cip", {"max_bet": clean["max_bet"], "cip": clean["cip"]}
        )
    for players in range(3, 7):
        smalls = small_points(players, clean["three_players"])
        if players * clean["ante"] <= smalls * clean["small_point"]:
            raise InvalidStakes(
                "stakes_ante_too_small",
                {
                    "players": players,
                    "ante": clean["ante"],
                    "small_points": smalls,
                    "small_point": clean["small_point"],
                },
            )
    return clean
