"""How the opponents have answered this seat's own bets: a table of fold, call and raise counts
by the price they faced, read from the seat's events.

The expert's search needs to know how often a bet is called. A model (`bet_search.Responder`)
gives a first guess; every answer seen to the seat's own bets refines it, by price bucket, as
evidence piles up (a prior of a few answers at the model's rate keeps it steady early on). The
answers are public: every seat sees who passed, called or raised.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.engine.events import (
    BetMade,
    BigPointBegan,
    Called,
    Dealt,
    Event,
    Passed,
    Raised,
    SmallPointBegan,
    Wager,
)
from bot.engine.rules import Rules

#: upper edges of the price buckets (price = what the answerer owes / (pot + that))
PRICE_EDGES = (0.2, 0.35, 0.45)
#: answers at the model's rate assumed in each bucket before any is seen
PRIOR = 6.0


@dataclass(slots=True)
class AnswerBook:
    """Per price bucket: answers seen to the seat's bets, and how many were folds and raises."""

    seen: list[float] = field(default_factory=lambda: [0.0] * (len(PRICE_EDGES) + 1))
    folds: list[float] = field(default_factory=lambda: [0.0] * (len(PRICE_EDGES) + 1))
    raises: list[float] = field(default_factory=lambda: [0.0] * (len(PRICE_EDGES) + 1))
    #: the hand read so far (its first dealt cards) and how many of its events were read
    hand: tuple[str, ...] = ()
    read: int = 0

    def rates(self, price: float, fold: float, raise_: float) -> tuple[float, float]:
        """(fold rate, raise rate) at `price`: the seen answers, with `PRIOR` answers at the
        model's `fold` and `raise_` rates."""
        b = bisect.bisect_right(PRICE_EDGES, price)
        n = self.seen[b] + PRIOR
        return ((self.folds[b] + PRIOR * fold) / n, (self.raises[b] + PRIOR * raise_) / n)

    def observe(self, events: Sequence[Event], me: int, rules: Rules) -> None:
        """Record the answers to `me`'s bets and raises among `events` not read yet."""
        first = next((e.cards for e in events if isinstance(e, Dealt)), ())
        if first != self.hand or self.read > len(events):
            self.hand, self.read = first, 0
        pot = 0
        bets: dict[int, int] = {}
        facing: set[int] = set()
        level = 0
        for i, e in enumerate(events):
            if isinstance(e, SmallPointBegan | BigPointBegan):
                pot = rules.small_point if isinstance(e, SmallPointBegan) else rules.big_pot
                bets, facing, level = {}, set(), 0
                continue
            seat = e.seat
            if seat is None or (seat == me and not isinstance(e, Wager)):
                continue
            if seat in facing and i >= self.read and not (isinstance(e, Passed) and e.forced):
                owe = level - bets.get(seat, 0)
                if owe > 0 and isinstance(e, Passed | Called | Raised):
                    self._record(owe / (pot + owe), e)
            facing.discard(seat)
            if isinstance(e, Wager):
                pot += e.amount
                bets[seat] = e.level
                if e.level > level:
                    level = e.level
                    # only the answers to the seat's own bet or raise are recorded
                    facing = set(bets) | set(range(rules.players)) if seat == me else set()
                    facing.discard(me)
                    if seat == me and not isinstance(e, BetMade | Raised):
                        facing = set()
        self.read = len(events)

    def _record(self, price: float, answer: Event) -> None:
        b = bisect.bisect_right(PRICE_EDGES, price)
        self.seen[b] += 1
        if isinstance(answer, Passed):
            self.folds[b] += 1
        elif isinstance(answer, Raised):
            self.raises[b] += 1
