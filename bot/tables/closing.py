"""Closing a table, as values: the escrow's refunds and the table log's lines.

Whatever closes a table (the round called, nobody left, `/stoppa end`, a tournament's end, a
practice table's member leaving) ends in `TableSession.close`, after its policy's own step
(`before_close`): the escrow (the hand in progress, a carried pot) goes back by `refunds`, in
the transaction that closes the row.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.logs import log_table_event
from bot.store import Move, TableRow
from bot.tables.chips import refunds
from bot.tables.hands import eldest_of
from bot.tables.meta import TableMeta
from bot.tables.updates import Notice


def closing_refunds(escrow: int, row: TableRow, meta: TableMeta, in_hand: bool,
                    seats: Sequence[int] | None) -> list[Move]:
    """The refunds of the `escrow` when the table of `row` closes with `meta`: to `seats`
    (default: its seats, else the last hand's players)."""
    targets = list(row.seats if seats is None else seats) or list(meta.players)
    paid = meta.paid if in_hand else {}
    return refunds(escrow, paid, targets, eldest_of(meta), meta.hand_no or None)


def log_closing(row: TableRow, notices: Sequence[Notice], moves: Sequence[Move]) -> None:
    """The table log's lines of a close: its notices (in English) and the refunds."""
    for notice in notices:
        log_table_event(row.guild_id, row.channel_id, notice.text("en"), table=row.id)
    if moves:
        paid_back = ", ".join(f"{m.user}:{-m.amount}" for m in moves)
        log_table_event(row.guild_id, row.channel_id, f"refunds {paid_back}", table=row.id)
