"""The deal of a table's hands, from its fair deck (docs/fairness.md), as values.

A policy decides who is dealt in, with which chips and stakes, and who deals (`Deal`); these
functions compute the deal the same way at every kind of table: the engine's rules of the
hand, the deck drawn from the table's secret and the players' words, the first dealer by lot,
the antes and the meta of the new hand. The session commits it (one transaction like any
change).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from bot.engine import Card, Hand, Rules
from bot.fairness import DealInputs
from bot.fairness import first_dealer as drawn_dealer
from bot.store import Move, TableRow
from bot.tables.errors import TableError
from bot.tables.hands import note
from bot.tables.meta import SpokenWord, TableMeta
from bot.tables.policy import Deal
from bot.tables.snapshot import public_events
from bot.tables.updates import TableEvent

#: The chip movements of a step (`HandPolicy.moves`).
MovesOf = Callable[..., list[Move]]


def rules_of(row: TableRow, players: int) -> Rules:
    """The engine's rules of a hand of `players` at the table's stakes (TableError
    "bad_stakes" if refused)."""
    try:
        return row.rules(players)
    except (TypeError, ValueError) as exc:
        raise TableError("bad_stakes", reason=str(exc)) from None


def deck(row: TableRow, seed: int, rules: Rules, hand_no: int,
         words: list[str]) -> tuple[list[Card] | None, int | None]:
    """The deck of hand `hand_no` from the table's secret and the players' words
    (docs/fairness.md), or, at a table opened before the fair deal, its old `seed`'s."""
    if row.secret is None:
        return None, random.Random(f"{seed}:{hand_no}").getrandbits(63)
    inputs = DealInputs(row.secret, row.id, hand_no, tuple(words))
    return inputs.deck(rules.deck_mask()), None


def first_dealer(row: TableRow, seed: int, players: Sequence[int]) -> int:
    """The first dealer of the table among `players` (seat order): drawn from the secret
    (docs/fairness.md), or by the old `seed` at a table opened before the fair deal."""
    if row.secret is None:
        return random.Random(seed).choice(list(players))
    return players[drawn_dealer(row.secret, len(players))]


@dataclass
class Dealt:
    """A dealt hand: the new hand, its meta, the antes' moves and its public events."""

    hand: Hand
    meta: TableMeta
    moves: list[Move]
    events: list[TableEvent]


def dealt(row: TableRow, deal: Deal, words: Mapping[int, str], moves_of: MovesOf) -> Dealt:
    """Deal `deal` at the table of `row` with the players' `words`: the hand, the meta (the
    deal's draft, now the new hand's), the antes (`moves_of`, the policy's `moves`)."""
    meta, players, chips = deal.meta, deal.players, deal.stacks
    hand_no = meta.in_play.hand_no + 1
    spoken = [SpokenWord(u, words[u]) for u in players if words.get(u)]
    cards, hand_seed = deck(row, meta.seed, deal.rules, hand_no, [w.word for w in spoken])
    hand = Hand.start(deal.rules, chips, players.index(deal.dealer), seed=hand_seed, deck=cards,
                      carry=deal.carry)
    moves = moves_of(players, chips, hand.chips, hand.events, hand_no, paying="ante")
    meta.started = True
    dealer_pos = deal.seats.index(deal.dealer) if deal.dealer in deal.seats else 0
    meta.in_play = meta.in_play.dealt(hand_seed, players, deal.dealer, dealer_pos, spoken, moves)
    deal.notices.insert(0, note("tables.hand_started", hand_no=hand_no, dealer=deal.dealer))
    events = public_events(hand.events, players)
    meta.remember(events)
    return Dealt(hand, meta, moves, events)


def plays_on_at_once(dealt: Dealt) -> bool:
    """A hand with no choice yet (over at once, or a sat-out or leaving player first)."""
    hand, meta = dealt.hand, dealt.meta
    first = meta.in_play.players[hand.to_act] if hand.to_act is not None else None
    away = first is not None and meta.absence.is_away(first)
    return hand.phase == "over" or away or first in meta.in_play.leaving

