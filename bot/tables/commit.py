"""`CommitMixin`: the one path by which a table change reaches the store, memory and listeners.

`_commit` writes the state, meta, chip moves and hand record in one `store.save_table`
transaction; on failure the in-memory table is rebuilt from the stored row.

The table log (INFO) carries only what the table showed: a special hand's event holds the
holder's whole hand, so its line keeps only the cards that prove it (`special_proof`).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any

from bot.engine import Hand
from bot.logs import log_table_event, table_log
from bot.store import HandRecord, InsufficientFunds, Move, VersionConflict
from bot.tables.clock import Clock
from bot.tables.errors import TableError
from bot.tables.meta import TableMeta
from bot.tables.snapshot import build_state, special_proof
from bot.tables.table import Table
from bot.tables.updates import Notice, Update

log = logging.getLogger("stoppa.tables")

Listener = Callable[[Update], Awaitable[None]]

def loggable_data(event: dict[str, Any], settings: dict[str, Any]) -> dict[str, Any]:
    """The data of a public event as the log may hold it: no card the table did not show."""
    data = dict(event.get("data") or {})
    if event.get("kind") == "special":
        blocked = str(settings.get("blocked_stoppa") or "four_aces")
        cards = [str(code) for code in data.get("cards") or ()]
        data["cards"] = list(special_proof(str(data.get("kind")), cards, blocked))
    return data


class CommitMixin:
    """Writing a change (one transaction), rebuilding memory, snapshots and publishing."""

    store: Any
    clock: Clock
    _listeners: list[Listener]

    # provided by AutomationMixin (the service inherits both): _arm_timer, _after_commit

    async def _refresh_balances(self, table: Table) -> None:
        users = list(table.row.seats)
        table.balances = dict(await self.store.balances(table.row.guild_id, users)) if users else {}

    async def _commit(
        self,
        table: Table,
        meta: TableMeta,
        kind: str,
        *,
        events: Iterable[dict[str, Any]] = (),
        notices: Iterable[Notice] = (),
        moves: Sequence[Move] = (),
        record: HandRecord | None = None,
        status: str | None = None,
        seats: list[int] | None = None,
        state: Any = ...,
        hand: Any = ...,
    ) -> Update:
        """Write the table (state, meta, moves, hand record) in one transaction, then update
        memory and return the Update to publish. On failure memory is rebuilt from the DB."""
        new_hand = table.hand if hand is ... else hand
        fields: dict[str, Any] = {"meta": meta.to_dict()}
        if status is not None:
            fields["status"] = status
        if seats is not None:
            fields["seats"] = seats
        if state is not ...:
            fields["state"] = state
        if new_hand is not None and new_hand.phase != "over":
            # a new turn gets a fresh deadline; other changes (a join) keep the running one
            if new_hand is not table.hand or meta.turn != table.meta.turn or not table.row.deadline:
                fields["deadline"] = self.clock.now() + table.timeout
            seats_now = seats if seats is not None else table.row.seats
            fields["dealer"] = seats_now.index(meta.dealer) if meta.dealer in seats_now else None
        else:
            fields["deadline"] = None
        try:
            row = await self.store.save_table(
                table.id, expected_version=table.row.version, moves=moves, hand=record, **fields
            )
        except Exception as exc:
            log.warning("table %s: commit failed (%r); rebuilding from the store", table.id, exc)
            await self._reload(table)
            if isinstance(exc, InsufficientFunds):
                raise TableError("not_enough_chips_now") from exc
            if isinstance(exc, VersionConflict):
                raise TableError("busy") from exc
            raise
        table.row = row
        table.meta = meta
        table.hand = new_hand
        if not table.in_hand or seats is not None:
            await self._refresh_balances(table)
        self._refresh(table)
        self._log(table, kind, events, notices)
        self._after_commit(table)
        return self._update(table, kind, list(events), list(notices))

    def _rebuild(self, table: Table) -> None:
        """Memory back to the last saved row (state JSON and meta)."""
        row = table.row
        table.meta = TableMeta.from_dict(row.meta)
        table.hand = Hand.from_json(row.state) if row.state else None
        if table.hand is not None and table.hand.phase == "over" and row.status != "playing":
            table.hand = None

    async def _reload(self, table: Table) -> None:
        try:
            table.row = await self.store.get_table(table.id)
        except Exception:  # keep the row we had
            log.exception("table %s: cannot reload its row", table.id)
        self._rebuild(table)
        self._refresh(table)
        self._arm_timer(table, retry=True)

    def _refresh(self, table: Table) -> None:
        table.snapshot = build_state(table.row, table.meta, table.hand, table.balances)

    def _update(
        self, table: Table, kind: str, events: list[dict[str, Any]], notices: list[Notice]
    ) -> Update:
        state = table.snapshot
        assert state is not None
        return Update(
            kind=kind,
            table_id=table.id,
            guild_id=table.row.guild_id,
            channel_id=table.row.channel_id,
            state=state,
            events=events,
            notices=notices,
            to_act=state.to_act,
        )

    def _log(
        self, table: Table, kind: str, events: Iterable[dict[str, Any]], notices: Iterable[Notice]
    ) -> None:
        if not table_log.isEnabledFor(logging.INFO):
            return
        guild, channel = table.row.guild_id, table.row.channel_id
        for notice in notices:
            log_table_event(guild, channel, f"table {table.id}: {notice.text('en')}")
        for event in events:
            data = loggable_data(event, table.row.settings)
            details = " ".join(f"{k}={v}" for k, v in data.items())
            who = event.get("user")
            log_table_event(
                guild,
                channel,
                f"table {table.id} hand {table.meta.hand_no}: {event.get('kind')}"
                + (f" by {who}" if who is not None else "")
                + (f" {details}" if details else ""),
            )

    async def _publish(self, updates: Iterable[Update]) -> None:
        for update in updates:
            for listener in list(self._listeners):
                try:
                    await listener(update)
                except Exception:
                    log.exception("table listener failed on %s", update.kind)
