"""The CPU player interface and the random baseline (the levels are in `levels.py`).

A CPU player sees exactly what a human in its seat would see: its `SeatView`
(`hand.seat_view(seat)`: its own cards, public information, the betting state), the legal
actions (`hand.legal_actions()`) and the events its seat saw (`hand.events_for(seat)`). It
returns one of those actions, or for `Bet`/`Raise` the same kind of action with another amount
inside the view's `bet_range` (the engine lists one representative amount and accepts any amount
in that range).

Players are plain synchronous objects; the table service runs `choose` off the event loop.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from bot.engine.actions import Action, Bet, Raise
from bot.engine.events import Event
from bot.engine.views import SeatView


@runtime_checkable
class CpuPlayer(Protocol):
    """What the table service and the offline commands need from a CPU player."""

    name: str

    def choose(
        self, view: SeatView, legal: Sequence[Action], events: Sequence[Event] = ()
    ) -> Action:
        """Pick one action for the seat of `view` among `legal` (never empty); `events` are
        the events that seat saw this hand (`hand.events_for(seat)`), oldest first."""
        ...


def action_kind(action: Action) -> str:
    """The lower-case class name of an engine action: "pass", "bet", "raise", "play"..."""
    return type(action).__name__.lower()


def amount_of(action: Action) -> int:
    """The chip amount carried by a `Bet` (amount) or `Raise` (level raised to)."""
    if isinstance(action, Bet):
        return action.amount
    if isinstance(action, Raise):
        return action.to
    raise ValueError(f"{action!r} carries no amount")


def with_amount(action: Action, amount: int) -> Action:
    """The same `Bet`/`Raise` as `action` with another amount."""
    if isinstance(action, Bet):
        return dataclasses.replace(action, amount=int(amount))
    if isinstance(action, Raise):
        return dataclasses.replace(action, to=int(amount))
    raise ValueError(f"{action!r} carries no amount")


def amount_range(view: SeatView, action: Action) -> tuple[int, int]:
    """The (min, max) amounts allowed for a `Bet`/`Raise` in this view.

    The view's `bet_range` when given; otherwise the listed action gives the minimum and the
    maximum is the betting round's `max_bet`, capped by what the seat can put in this round
    (its chips plus what it already bet). Without a betting round the range is the listed
    amount alone.
    """
    low = amount_of(action)
    given = view.bet_range
    if given:
        return max(low, given[0]), max(low, given[1])
    if view.betting is None:
        return low, low
    high = view.betting.max_bet
    if view.seat is not None:
        mine = view.seats[view.seat]
        high = min(high, mine.chips + mine.bet)
    return low, max(low, high)


class RandomPlayer:
    """The baseline: a uniformly random legal action; bets and raises of a random amount."""

    def __init__(self, seed: int | None = None, name: str = "random") -> None:
        self.name = name
        self.rng = random.Random(seed)

    def choose(
        self, view: SeatView, legal: Sequence[Action], events: Sequence[Event] = ()
    ) -> Action:
        """A uniformly random action of `legal`; for Bet/Raise a random amount in range."""
        action = self.rng.choice(legal)
        if isinstance(action, Bet | Raise):
            low, high = amount_range(view, action)
            action = with_amount(action, self.rng.randint(low, high))
        return action
