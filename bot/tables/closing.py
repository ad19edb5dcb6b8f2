"""Closing a table, as values: the escrow's refunds and the table log's lines.

Whatever closes a table (the round called, nobody left, `/stoppa end`, a tournament's end, a
practice table's member leaving) ends in `TableSession.close`, after its policy's own step
(`before_close`): the escrow (the hand in progress, a carried pot) goes back by `refunds`, in
the transaction that closes the row. A table whose stored state cannot be loaded at all is
closed with refunds too (`close_unloadable`), reading what it can of its meta's JSON: the one
place a stored meta is read as a dict past its parser, because that parser refused it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.logs import log_table_event
from bot.store import Move, StoreContract, TableRow
from bot.tables.chips import refunds
from bot.tables.meta import TableMeta
from bot.tables.updates import Notice


def closing_refunds(escrow: int, row: TableRow, meta: TableMeta, in_hand: bool,
                    seats: Sequence[int] | None) -> list[Move]:
    """The refunds of the `escrow` when the table of `row` closes with `meta`: to `seats`
    (default: its seats, else the last hand's players)."""
    targets = list(row.seats if seats is None else seats) or list(meta.in_play.players)
    paid = meta.in_play.paid if in_hand else {}
    return refunds(escrow, paid, targets, meta.in_play.eldest(), meta.in_play.hand_no or None)


def log_closing(row: TableRow, notices: Sequence[Notice], moves: Sequence[Move]) -> None:
    """The table log's lines of a close: its notices (in English) and the refunds."""
    for notice in notices:
        log_table_event(row.guild_id, row.channel_id, notice.text("en"), table=row.id)
    if moves:
        paid_back = ", ".join(f"{m.user}:{-m.amount}" for m in moves)
        log_table_event(row.guild_id, row.channel_id, f"refunds {paid_back}", table=row.id)


def _unloadable_paid(meta: Mapping[str, Any]) -> dict[int, int]:
    try:
        return {int(k): int(v) for k, v in meta.get("paid", {}).items()}
    except Exception:
        return {}


def _unloadable_players(meta: Mapping[str, Any]) -> list[int]:
    try:
        return [int(u) for u in meta.get("players", [])]
    except Exception:
        return []


async def close_unloadable(store: StoreContract, row: TableRow, exc: BaseException,
                           fence: Mapping[str, Any]) -> None:
    """Close the table of `row`, whose state cannot be loaded (`exc`), refunding its escrow
    to its seats (else the last hand's players, else who paid), under the lease `fence`."""
    escrow = await store.escrow(row.id)
    stored: Mapping[str, Any] = row.meta or {}
    paid = _unloadable_paid(stored)
    last_players = _unloadable_players(stored)
    moves = refunds(escrow, paid, list(row.seats) or last_players or list(paid), None, None)
    meta = dict(row.meta) if isinstance(row.meta, dict) else {}
    meta["closed_reason"] = f"unloadable state: {type(exc).__name__}"
    await store.close_table(row.id, expected_version=row.version, refunds=moves, meta=meta,
                            **fence)
    log_table_event(
        row.guild_id,
        row.channel_id,
        f"table {row.id} closed at start: state cannot be loaded ({type(exc).__name__}); "
        f"refunded {escrow} chips",
        table=row.id,
    )
