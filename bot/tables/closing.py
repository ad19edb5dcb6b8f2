"""Closing a table: the escrow refunded, the row closed, memory and the logs told.

Whatever closes a table (the round called, nobody left, `/stoppa end`, a tournament's end, a
practice table's member leaving) ends here, after its policy's own step (`before_close`): the
escrow (the hand in progress, a carried pot) goes back by `refunds`, in the transaction that
closes the row.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.logs import log_table_event
from bot.store import Move
from bot.tables.chips import refunds
from bot.tables.hands import eldest_of, note
from bot.tables.meta import TableMeta
from bot.tables.updates import Notice, Update

if TYPE_CHECKING:
    from bot.tables.session import TableSession


async def close_table(session: TableSession, meta: TableMeta, notices: list[Notice],
                      seats: Sequence[int] | None = None) -> Update:
    """Close `session`'s table with `meta`: refund the escrow to `seats` (default: its
    seats, else the last hand's players) and return the "closed" Update."""
    store = session.shared.store
    notices = [*notices, *await session.policy.before_close(session, meta)]
    targets = list(session.row.seats if seats is None else seats) or list(meta.players)
    escrow = await store.escrow(session.id)
    paid = meta.paid if session.in_hand else {}
    moves = refunds(escrow, paid, targets, eldest_of(meta), meta.hand_no or None)
    notices = [*notices, note("tables.closed")]
    meta.leaving = []
    session.row = await store.close_table(
        session.id, expected_version=session.row.version, refunds=moves, meta=meta.to_dict(),
        **session.shared.fence(),
    )
    session.meta = meta
    session.closed = True
    session.clock.cancel()
    session.shared.on_close(session.id)
    await session.refresh_balances()
    session.refresh()
    log_closing(session, notices, moves)
    return session.update("closed", [], notices)


def log_closing(session: TableSession, notices: Sequence[Notice], moves: Sequence[Move]) -> None:
    """The table log's lines of a close: its notices (in English) and the refunds."""
    row = session.row
    for notice in notices:
        log_table_event(row.guild_id, row.channel_id, notice.text("en"), table=row.id)
    if moves:
        paid_back = ", ".join(f"{m.user}:{-m.amount}" for m in moves)
        log_table_event(row.guild_id, row.channel_id, f"refunds {paid_back}", table=row.id)
