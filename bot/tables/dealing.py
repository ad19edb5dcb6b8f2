"""`Dealing`: the deal of a table's hands, from its fair deck (docs/fairness.md).

A policy decides who is dealt in, with which chips and stakes, and who deals; this class does
the deal itself the same way at every kind of table: the engine's rules of the hand, the deck
drawn from the table's secret and the players' words, the first dealer by lot, the antes, and
the commit of the new hand (through the session, so a deal is one transaction like any
change).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.engine import Card, Hand, Rules
from bot.fairness import DealInputs, first_dealer
from bot.tables.errors import TableError
from bot.tables.hands import add_paid, note, remember
from bot.tables.meta import SpokenWord, TableMeta
from bot.tables.snapshot import public_events
from bot.tables.updates import Notice, Update

if TYPE_CHECKING:
    from bot.tables.session import TableSession


class Dealing:
    """The deals of `session`'s table (see the module docstring)."""

    def __init__(self, session: TableSession) -> None:
        self.session = session

    def rules(self, players: int) -> Rules:
        """The engine's rules of a hand of `players` at the table's stakes (TableError
        "bad_stakes" if refused)."""
        try:
            return self.session.row.rules(players)
        except (TypeError, ValueError) as exc:
            raise TableError("bad_stakes", reason=str(exc)) from None

    async def deal(
        self, meta: TableMeta, rules: Rules, players: list[int], chips: list[int], dealer: int,
        seats: list[int], notices: list[Notice], *, carry: int = 0,
    ) -> list[Update]:
        """Deal the next hand to `players` (seat order) with these `chips`, and commit it;
        a hand with no choice yet (a sat-out player first) plays on at once."""
        session = self.session
        hand_no = meta.hand_no + 1
        words = await session.shared.store.words_of(session.row.guild_id, players)
        meta.words = [SpokenWord(u, words[u]) for u in players if words.get(u)]
        deck, hand_seed = self.deck(rules, hand_no, [w.word for w in meta.words])
        hand = Hand.start(rules, chips, players.index(dealer), seed=hand_seed, deck=deck,
                          carry=carry)
        moves = session.policy.moves(players, chips, hand.chips, hand.events, hand_no,
                                     paying="ante")
        meta.started = True
        meta.hand_no, meta.hand_seed, meta.turn = hand_no, hand_seed, meta.turn + 1
        meta.players, meta.dealer = list(players), dealer
        meta.dealer_pos = seats.index(dealer) if dealer in seats else 0
        meta.paid = {}
        add_paid(meta, moves)
        notices.insert(0, note("tables.hand_started", hand_no=hand_no, dealer=dealer))
        events = public_events(hand.events, players)
        remember(meta, events)
        updates = [await session.commit(
            meta, "started", events=events, notices=notices, moves=moves, status="playing",
            seats=seats, state=hand.to_json(), hand=hand,
        )]
        first = players[hand.to_act] if hand.to_act is not None else None
        if hand.phase == "over" or first in meta.away or first in meta.leaving:
            updates += await session.play_on(session.meta.copy(), [], [], [], "action")
        return updates

    def deck(self, rules: Rules, hand_no: int, words: list[str]) -> tuple[list[Card] | None,
                                                                          int | None]:
        """The deck of hand `hand_no` from the table's secret and the players' words
        (docs/fairness.md), or, at a table opened before the fair deal, its old seed."""
        session = self.session
        secret = session.row.secret
        if secret is None:
            return None, random.Random(f"{session.meta.seed}:{hand_no}").getrandbits(63)
        inputs = DealInputs(secret, session.id, hand_no, tuple(words))
        return inputs.deck(rules.deck_mask()), None

    def first_dealer(self, players: Sequence[int]) -> int:
        """The first dealer of the table among `players` (seat order): drawn from the secret
        (docs/fairness.md), or by the old seed at a table opened before the fair deal."""
        secret = self.session.row.secret
        if secret is None:
            return random.Random(self.session.meta.seed).choice(list(players))
        return players[first_dealer(secret, len(players))]
