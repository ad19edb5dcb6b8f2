"""The CPU player interface and the random baseline (the levels are in `levels.py`).

A CPU player sees exactly what a human in its seat would see: the dict of `hand.view(seat)`
(its own cards, public information, the betting state) and the list of legal actions of
`hand.legal_actions()`. It returns one of those actions, or for `Bet`/`Raise` the same kind of
action with another amount inside the range the view allows (the engine lists one representative
amount and accepts any amount in `hand.bet_range(seat)`).

Players are plain synchronous objects; the table service runs `choose` off the event loop.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any, Protocol, runtime_checkable

#: An engine action (`bot.engine.Pass`, `Bet`, `Call`, `Raise`, `Declare`, `Concede`, `Play`).
#: Typed loosely so that this module does not depend on the engine at import time.
Action = Any
View = dict[str, Any]

@runtime_checkable
class CpuPlayer(Protocol):
    """What the table service and the offline commands need from a CPU player."""

    name: str

    def choose(self, view: View, legal: list[Action]) -> Action:
        """Pick one action for the seat of `view` among `legal` (never empty)."""
        ...


def action_kind(action: Action) -> str:
    """The lower-case class name of an engine action: "pass", "bet", "raise", "play"..."""
    return type(action).__name__.lower()


def amount_of(action: Action) -> int:
    """The chip amount carried by a `Bet` (amount) or `Raise` (level raised to)."""
    kind = action_kind(action)
    if kind == "bet":
        return int(action.amount)
    if kind == "raise":
        return int(action.to)
    raise ValueError(f"{action!r} carries no amount")


def with_amount(action: Action, amount: int) -> Action:
    """The same `Bet`/`Raise` as `action` with another amount."""
    field = "amount" if action_kind(action) == "bet" else "to"
    return dataclasses.replace(action, **{field: int(amount)})


def amount_range(view: View, action: Action) -> tuple[int, int]:
    """The (min, max) amounts allowed for a `Bet`/`Raise` in this view.

    The engine's `view["betting"]["bet_range"]` when given; otherwise the listed action gives the
    minimum and the maximum is `view["betting"]["max"]`, capped by what the seat can put in this
    round (its chips plus what it already bet). Without betting information the range is the
    listed amount alone.
    """
    low = amount_of(action)
    betting = view.get("betting") or {}
    given = betting.get("bet_range")
    if given:
        return max(low, int(given[0])), max(low, int(given[1]))
    high = betting.get("max")
    if high is None:
        return low, low
    seat = view.get("seat")
    chips = view.get("chips")
    if seat is not None and chips is not None:
        bets = (view.get("pots") or {}).get("bets") or [0] * len(chips)
        high = min(high, chips[seat] + bets[seat])
    high = max(low, int(high))
    return low, high


class RandomPlayer:
    """The baseline: a uniformly random legal action; bets and raises of a random amount."""

    def __init__(self, seed: int | None = None, name: str = "random") -> None:
        self.name = name
        self.rng = random.Random(seed)

    def choose(self, view: View, legal: list[Action]) -> Action:
        """A uniformly random action of `legal`; for Bet/Raise a random amount in range."""
        action = self.rng.choice(legal)
        if action_kind(action) in ("bet", "raise"):
            low, high = amount_range(view, action)
            action = with_amount(action, self.rng.randint(low, high))
        return action
