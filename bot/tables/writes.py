"""How a table's change reaches the store, as values: the save of a commit, the refusal a
failed write becomes, and the memory rebuilt from the last saved row.

A commit (`TableSession.commit`) is one `TableSave` under the table's lease (`table_save`
builds it: the turn's deadline, the dealer's seat, the meta's JSON). When the write fails, the
session rebuilds memory from the last saved row (`rebuilt`), so memory and database always
agree; when the lease went to another process, the session lets the table go (no timer, no
CPU turn, no write).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine import Hand
from bot.store import (
    UNSET,
    HandRecord,
    InsufficientFunds,
    Move,
    TableRow,
    TableSave,
    TournamentSave,
    Unset,
    VersionConflict,
)
from bot.tables.errors import TableError
from bot.tables.meta import TableMeta


@dataclass(frozen=True, slots=True)
class Before:
    """The table as memory holds it before a commit: its hand, its turn, and the deadline a
    new turn would get (None at an untimed table)."""

    hand: Hand | None
    turn: int
    new_deadline: float | None


def table_save(
    row: TableRow, before: Before, meta: TableMeta, hand: Hand | None, *,
    state: str | Unset | None, status: str | None, seats: list[int] | None,
    moves: Sequence[Move], record: HandRecord | None, tournament: TournamentSave | None,
) -> TableSave:
    """The save of a commit that leaves the table of `row` with `meta` and `hand`: a new turn
    gets a fresh deadline (on a timed table); other changes (a join) keep the running one."""
    deadline: float | Unset | None = None
    dealer: int | Unset | None = UNSET
    if hand is not None and hand.phase != "over":
        new_turn = hand is not before.hand or meta.in_play.turn != before.turn
        if before.new_deadline is not None:
            deadline = before.new_deadline if new_turn or not row.deadline else UNSET
        seats_now = seats if seats is not None else row.seats
        dealer = seats_now.index(meta.in_play.dealer) if meta.in_play.dealer in seats_now else None
    return TableSave(
        expected_version=row.version,
        status=UNSET if status is None else status,
        seats=UNSET if seats is None else seats,
        dealer=dealer,
        state=state,
        meta=meta.to_dict(),
        deadline=deadline,
        moves=moves,
        hand=record,
        tournament=tournament,
    )


def refusal(exc: Exception) -> TableError | None:
    """What a failed table write tells the player (None: the error is no refusal)."""
    if isinstance(exc, InsufficientFunds):
        return TableError("not_enough_chips_now")
    if isinstance(exc, VersionConflict):
        return TableError("busy")
    return None


def rebuilt(row: TableRow,
            read_meta: Callable[[Mapping[str, Any]], TableMeta]) -> tuple[TableMeta, Hand | None]:
    """Memory as the row `row` saved it: the meta and the engine hand (none between hands)."""
    meta = read_meta(row.meta)
    hand = Hand.from_json(row.state) if row.state else None
    if hand is not None and hand.phase == "over" and row.status != "playing":
        hand = None
    return meta, hand
