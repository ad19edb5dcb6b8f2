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
    ShowdownBegan,
    SmallPointBegan,
    Wager,
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


#: the strongest read of a seat's chips: a weight of strength ** 8 (a mean strength of 0.9)
MAX_EXPONENT = 8.0
#: what a seat's chips say before its showdowns do, per the strongest thing it did in the round
ROLE_PRIOR = {"call": 0.7, "bet": 0.72, "raise": 0.8}
ROLE_PRIOR_COUNT = 6.0


def round_roles(events: Sequence[Event]) -> dict[int, str]:
    """Each seat's strongest move in the latest betting round of `events`: "raise", "bet" or
    "call" (seats that put nothing in are absent)."""
    roles: dict[int, str] = {}
    rank = {"call": 0, "bet": 1, "raise": 2}
    for e in events:
        if isinstance(e, SmallPointBegan | BigPointBegan):
            roles = {}
        elif isinstance(e, Wager):
            role = "raise" if isinstance(e, Raised) else "bet" if isinstance(e, BetMade) else "call"
            if e.seat not in roles or rank[role] > rank[roles[e.seat]]:
                roles[e.seat] = role
    return roles


def calibrated_exponent(mean: float) -> float:
    """The exponent k for which weighting uniform strengths by s ** k gives them `mean`
    ((k + 1) / (k + 2) = mean), within [0, MAX_EXPONENT]."""
    mean = min(mean, 1.0 - 1.0 / (MAX_EXPONENT + 2.0))
    return max(0.0, (2.0 * mean - 1.0) / (1.0 - mean))


@dataclass(slots=True)
class SeatReading:
    """Per seat and per role in a round ("call", "bet", "raise": the strongest thing it did),
    the mean strength of the points it showed afterwards. A seat is known by its place after
    the reading seat (1: the next seat...), which stays the same player as long as both sit.

    `BetReading` pools every bettor and scales a fixed weight; players differ more than that:
    one raises on pot odds alone with a middling point, again and again, another raises only
    with a very strong one, and a bet that is a steal says little. Each seat's own showdowns
    decide how much its chips mean, from a prior of `ROLE_PRIOR_COUNT` showdowns at
    `ROLE_PRIOR`."""

    sums: dict[tuple[int, str], list[float]] = field(default_factory=dict)
    seen: set[tuple[Any, ...]] = field(default_factory=set)

    def mean(self, place: int, role: str) -> float:
        """The mean strength the seat at `place` after the reader showed after playing `role`
        (prior included)."""
        total, count = self.sums.get((place, role), (0.0, 0.0))
        prior = ROLE_PRIOR[role]
        return (total + ROLE_PRIOR_COUNT * prior) / (count + ROLE_PRIOR_COUNT)

    def exponent(self, place: int, role: str) -> float:
        """The weight exponent of a sampled strength of the seat at `place` after the reader
        after playing `role`."""
        return calibrated_exponent(self.mean(place, role))

    def observe(self, events: Sequence[Event], know: Knowledge) -> None:
        """Record every other seat's showdown after a round it put chips in."""
        if len(self.seen) > MAX_SEEN:
            self.seen.clear()
        deck = tuple(know.deck)
        hand_size = len(know.deck) // max(1, know.players)
        first_deal = next((e.cards for e in events if isinstance(e, Dealt)), ())
        roles: dict[int, str] = {}
        round_events: list[Event] = []
        size = hand_size
        for e in events:
            if isinstance(e, SmallPointBegan | BigPointBegan):
                round_events = []
                size = (e.cards or hand_size) if isinstance(e, SmallPointBegan) else hand_size
            round_events.append(e)
            if isinstance(e, ShowdownBegan):
                roles = round_roles(round_events)
            elif isinstance(e, Declared) and e.seat != know.seat and e.seat in roles:
                sign = (first_deal, e.value, e.seat, e.cards, size)
                if sign in self.seen:
                    continue
                self.seen.add(sign)
                key = point_key([card_id(c) for c in e.cards], know.by_total)
                place = (e.seat - know.seat) % know.players
                sums = self.sums.setdefault((place, roles[e.seat]), [0.0, 0.0])
                sums[0] += percentile(strength_table(deck, size, know.by_total), key)
                sums[1] += 1
