"""Checking a stored hand against its recomputed deck: every dealt, shown and played card.

The engine deals the deck from its first card (R-3), one ``deal`` event per seat and deal,
so the ``deal`` events of a log, in order, must read the deck from its start without a gap;
every card a seat then shows (``declare``, ``special``) or plays (``play``) must be one the
deck gave that seat. The seats come from the log, the cards from the deck: a log that claims
cards the deck did not deal is caught either way. Works for aborted and refunded hands too
(they simply have fewer events).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine.cards import Card
from bot.engine.events import Dealt, Declared, Event, Played, SpecialHand
from bot.fairness.deck import DealInputs
from bot.fairness.secret import Commitment, TableSecret


@dataclass(frozen=True, slots=True)
class CardCheck:
    """One event's cards against the deck.

    ``expected``: for a deal, the deck's next cards; for a shown or played card, every card
    the deck dealt that seat so far. ``ok`` when the event's cards are those (a deal) or
    among those (shown, played).
    """

    event: int
    kind: str
    seat: int
    cards: tuple[str, ...]
    expected: tuple[str, ...]
    ok: bool


@dataclass(frozen=True, slots=True)
class Verification:
    """A hand's deck recomputed from its inputs, and each event's cards checked against it."""

    inputs: DealInputs
    deck: tuple[Card, ...]
    dealt: tuple[CardCheck, ...]
    shown: tuple[CardCheck, ...]
    played: tuple[CardCheck, ...]

    @property
    def ok(self) -> bool:
        """Every dealt, shown and played card matches the deck."""
        return all(c.ok for c in (*self.dealt, *self.shown, *self.played))

    @property
    def mismatches(self) -> tuple[CardCheck, ...]:
        """The checks that failed, in the log's order."""
        return tuple(
            sorted((c for c in (*self.dealt, *self.shown, *self.played) if not c.ok),
                   key=lambda c: c.event)
        )


def verify_hand(
    inputs: DealInputs, used: Sequence[Card] | int, events: Sequence[Event]
) -> Verification:
    """Check a hand's event log (as stored: read it with ``Event.from_dict``) against the
    deck of ``inputs``; ``used`` is the table's ``rules.deck()`` or ``rules.deck_mask()``."""
    deck = tuple(inputs.deck(used))
    codes = [c.code for c in deck]
    held: dict[int, set[str]] = {}
    dealt: list[CardCheck] = []
    shown: list[CardCheck] = []
    played: list[CardCheck] = []
    pos = 0
    for index, event in enumerate(events):
        if isinstance(event, Dealt):
            cards = event.cards
            expected = tuple(codes[pos : pos + len(cards)])
            pos += len(cards)
            held.setdefault(event.seat, set()).update(expected)
            dealt.append(CardCheck(index, event.kind, event.seat, cards, expected,
                                   cards == expected))
        elif isinstance(event, Declared | SpecialHand | Played):
            mine = held.get(event.seat, set())
            check = CardCheck(index, event.kind, event.seat, event.cards,
                              tuple(c for c in codes if c in mine),
                              all(c in mine for c in event.cards))
            (played if isinstance(event, Played) else shown).append(check)
    return Verification(inputs, deck, tuple(dealt), tuple(shown), tuple(played))


@dataclass(frozen=True, slots=True)
class HandToCheck:
    """One stored hand of a closed table: its number, the words recorded with it, the cards
    its table used (``rules.deck_mask()`` for its players and variants) and its event log."""

    hand_no: int
    words: tuple[str, ...]
    used: int
    events: Sequence[Event]


@dataclass(frozen=True, slots=True)
class TableVerification:
    """A closed table checked whole: the commitment against the revealed secret, then each
    hand (what `/verify` shows)."""

    commitment_ok: bool
    hands: tuple[Verification, ...]

    @property
    def ok(self) -> bool:
        """The commitment matches and every hand's cards match their decks."""
        return self.commitment_ok and all(h.ok for h in self.hands)


def verify_table(
    commitment: Commitment, secret: TableSecret, table_id: int, hands: Sequence[HandToCheck]
) -> TableVerification:
    """Check ``commitment`` against the revealed ``secret`` and every hand of the table."""
    checked = tuple(
        verify_hand(DealInputs(secret, table_id, h.hand_no, h.words), h.used, h.events)
        for h in hands
    )
    return TableVerification(commitment.matches(secret, table_id), checked)
