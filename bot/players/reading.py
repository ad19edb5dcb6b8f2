"""Reading the opponents' bets from the showdowns a seat has seen (view events only).

Each time a seat that bet or raised in a round shows a point at the showdown, the strength of
that point (its percentile among random points of the same size) is recorded. Their mean says how
much a bet means at this table: near 0.5 the bets say nothing (a random player), near 0.8 and
above they mean a strong point. `factor` scales the weight the hard player gives to bets; a prior
of ten showdowns at 0.75 keeps it steady until evidence accumulates.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.engine.events import (
    BetMade,
    BigPointBegan,
    Dealt,
    Declared,
    Event,
    Raised,
    SmallPointBegan,
)
from bot.players.estimate import percentile, strength_table
from bot.players.knowledge import Knowledge, card_id, point_key

PRIOR_COUNT = 10.0
PRIOR_MEAN = 0.75
MAX_SEEN = 50_000


@dataclass(slots=True)
class BetReading:
    """Mean strength of the points shown by opponents who had bet or raised."""

    total: float = PRIOR_COUNT * PRIOR_MEAN
    count: float = PRIOR_COUNT
    seen: set[tuple[Any, ...]] = field(default_factory=set)

    @property
    def mean(self) -> float:
        """The mean strength shown by bettors (prior included)."""
        return self.total / self.count

    @property
    def factor(self) -> float:
        """0 when bets say nothing (mean 0.5) up to 1.5 when they mean a very strong point."""
        return min(1.5, max(0.0, (self.mean - 0.5) / 0.25))

    def observe(self, events: Sequence[Event], know: Knowledge) -> None:
        """Record the bettors' showdowns among `events` (those the seat saw, in order)."""
        if len(self.seen) > MAX_SEEN:
            self.seen.clear()
        deck = tuple(know.deck)
        hand_size = len(know.deck) // max(1, know.players)
        first_deal = next((e.cards for e in events if isinstance(e, Dealt)), ())
        bettors: set[int] = set()
        size = hand_size
        for e in events:
            if isinstance(e, SmallPointBegan):
                bettors = set()
                size = e.cards or hand_size
            elif isinstance(e, BigPointBegan):
                bettors = set()
                size = hand_size
            elif isinstance(e, BetMade | Raised):
                bettors.add(e.seat)
            elif isinstance(e, Declared) and e.seat in bettors and e.seat != know.seat:
                sign = (first_deal, e.value, e.seat, e.cards, size)
                if sign in self.seen:
                    continue
                self.seen.add(sign)
                key = point_key([card_id(c) for c in e.cards], know.by_total)
                self.total += percentile(strength_table(deck, size, know.by_total), key)
                self.count += 1
