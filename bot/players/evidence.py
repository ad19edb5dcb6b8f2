"""What the stoppa's plays tell a seat about the other hands, and deals of the hidden cards
that agree with it.

R-12 makes every possible play compulsory, so a seat that said "senza X" held no card of rank X
then, and (cards only leave a hand in the stoppa) holds none now. A seat that played an ace
played all its aces at once, so it holds no ace after that. `hard` samples the hidden cards
uniformly and ignores both; the expert deals them only to seats that may hold them.

Everything is read from the seat's own events (`hand.events_for(seat)`): no other input.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.engine.events import Event, Played, Senza, StoppaBegan
from bot.players.knowledge import Knowledge, card_id, rank_of
from bot.players.shedding import Counts, counts_of
from bot.shuffle import shuffle

#: tries at a deal that keeps every constraint before the constraints are dropped
DEAL_TRIES = 20


@dataclass(slots=True)
class Lacks:
    """Per seat, the ranks it is known to hold none of (from its "senza" and its aces)."""

    ranks: dict[int, set[int]] = field(default_factory=dict)

    def may_hold(self, seat: int, rank: int) -> bool:
        """Whether `seat` may still hold a card of `rank`."""
        return rank not in self.ranks.get(seat, ())


def read_lacks(events: Sequence[Event], me: int) -> Lacks:
    """The ranks each other seat lacks, from the stoppa's events among `events`."""
    lacks = Lacks()
    in_stoppa = False
    for e in events:
        if isinstance(e, StoppaBegan):
            in_stoppa = True
        elif not in_stoppa or e.seat is None or e.seat == me:
            continue
        elif isinstance(e, Senza):
            lacks.ranks.setdefault(e.seat, set()).add(e.needed)
        elif isinstance(e, Played) and any(rank_of(card_id(c)) == 1 for c in e.cards):
            lacks.ranks.setdefault(e.seat, set()).add(1)
    return lacks


def deal_hidden(know: Knowledge, lacks: Lacks, rng: random.Random) -> list[Counts]:
    """Rank counts of every seat: mine, and a deal of the hidden cards to the others that
    keeps their shown cards and `lacks` (when no such deal turns up in `DEAL_TRIES`, the last
    try's constraints are relaxed for the cards that fit nowhere)."""
    pool = [rank_of(c) for c in know.unseen()]
    others = [s for s in range(know.players) if s != know.seat]
    fixed = {s: [rank_of(c) for c in know.shown.get(s, [])] for s in others}
    room = {s: max(0, know.counts[s] - len(fixed[s])) for s in others}
    hands: dict[int, list[int]] = {}
    for _ in range(DEAL_TRIES):
        shuffle(rng, pool)
        hands = _deal_once(pool, others, room, lacks, strict=True)
        if hands:
            break
    else:
        hands = _deal_once(pool, others, room, lacks, strict=False)
    out: list[Counts] = []
    for seat in range(know.players):
        if seat == know.seat:
            out.append(counts_of([rank_of(c) for c in know.mine]))
        else:
            out.append(counts_of(fixed[seat] + hands.get(seat, [])))
    return out


def _deal_once(
    pool: list[int], others: list[int], room: dict[int, int], lacks: Lacks, *, strict: bool
) -> dict[int, list[int]]:
    """Deal `pool` (shuffled) in order: each card to the first seat of a rotating order that
    may hold it and has room (cards left over when every hand is full are the undealt ones).
    Empty when `strict` and a card fits no seat that has room."""
    left = dict(room)
    hands: dict[int, list[int]] = {s: [] for s in others}
    # the constrained ranks first, so that the free seats' room is not used up by free cards
    ordered = sorted(pool, key=lambda r: -sum(1 for s in others if not lacks.may_hold(s, r)))
    turn = 0
    for rank in ordered:
        placed = False
        for k in range(len(others)):
            seat = others[(turn + k) % len(others)]
            if left[seat] and lacks.may_hold(seat, rank):
                hands[seat].append(rank)
                left[seat] -= 1
                placed = True
                turn = (turn + k + 1) % len(others)
                break
        if placed:
            continue
        roomy = [s for s in others if left[s]]
        if not roomy:
            continue  # every hand is full: the card is not dealt yet (before the stoppa)
        if strict:
            return {}
        hands[roomy[0]].append(rank)
        left[roomy[0]] -= 1
    return hands
