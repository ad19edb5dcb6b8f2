"""The hands of a closed table to check against its revealed secret (`/verify`).

Every finished hand is in the store with its words; a hand the close interrupted (refunded)
is not, but its engine state stays in the table row and its words in the meta, so it is
checked too: after the reveal every hand of the table is verifiable (docs/fairness.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine import Hand
from bot.fairness import HandToCheck
from bot.store import StoreContract, TableRow
from bot.tables.meta import LastDeal


@dataclass(frozen=True, slots=True)
class HandOfTable:
    """One hand to check, with what `/verify` shows of it."""

    check: HandToCheck
    words: tuple[tuple[int, str], ...]
    players: int
    #: the close interrupted it (its chips were refunded)
    aborted: bool = False


def _used(row: TableRow, players: int) -> int:
    return row.rules(players).deck_mask()


async def hands_of(store: StoreContract, row: TableRow) -> list[HandOfTable]:
    """The hands of the closed table `row`, by hand number, the interrupted one last."""
    stored = sorted(await store.hand_history(row.id, limit=1_000_000), key=lambda h: h.hand_no)
    hands = [
        HandOfTable(
            HandToCheck(h.hand_no, tuple(w for _, w in h.words), _used(row, len(h.result)),
                        h.event_log()),
            h.words, len(h.result),
        )
        for h in stored
    ]
    last = LastDeal.of(row.meta)
    hand_no, players, words = last.hand_no, last.players, last.words
    if row.state and hand_no and players and hand_no not in {h.check.hand_no for h in hands}:
        events = Hand.from_json(row.state).events
        hands.append(HandOfTable(
            HandToCheck(hand_no, tuple(w for _, w in words), _used(row, len(players)), events),
            words, len(players), aborted=True,
        ))
    return hands
