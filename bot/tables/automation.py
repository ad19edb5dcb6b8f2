"""`AutomationMixin`: what happens without a click: turn timers, CPU seats, resume at start."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from bot.engine import Hand
from bot.logs import log_table_event
from bot.store import TableRow
from bot.tables.chips import refunds
from bot.tables.clock import Clock
from bot.tables.hands import note, timeout_notice
from bot.tables.meta import TableMeta
from bot.tables.table import Table
from bot.tables.updates import Update

log = logging.getLogger("stoppa.tables")

_SEED_MASK = (1 << 63) - 1


class AutomationMixin:
    """Turn timers (fake-clock friendly), CPU moves off the event loop, and resume."""

    store: Any
    clock: Clock
    max_timeouts: int
    cpu_delay: float
    player_factory: Any
    _stopped: bool
    _busy: set[asyncio.Task[Any]]
    _cpu_tasks: set[asyncio.Task[Any]]

    def _cpu_player(self, table: Table, user: int) -> Any:
        player = table.cpu_players.get(user)
        if player is None:
            level = table.meta.cpus[user]
            player = self.player_factory(level, (table.meta.seed ^ (user * 7919)) & _SEED_MASK)
            table.cpu_players[user] = player
        return player

    def _after_commit(self, table: Table) -> None:
        self._arm_timer(table)
        self._schedule_cpu(table)

    def _cancel_timer(self, table: Table) -> None:
        if table.timer is not None:
            table.timer.cancel()
        table.timer = None
        table.timer_key = None

    def _arm_timer(self, table: Table, *, retry: bool = False) -> None:
        deadline = table.row.deadline
        if self._stopped or table.closed or deadline is None or not table.in_hand:
            self._cancel_timer(table)
            return
        if retry and deadline <= self.clock.now():
            deadline = self.clock.now() + table.timeout
        key = (float(deadline), table.meta.hand_no, table.meta.turn)
        if table.timer is not None and table.timer_key == key and not table.timer.done():
            return
        self._cancel_timer(table)
        table.timer_key = key
        table.timer = asyncio.get_running_loop().create_task(self._timer(table, *key))

    async def _timer(self, table: Table, deadline: float, hand_no: int, turn: int) -> None:
        await self.clock.sleep_until(deadline)
        task = asyncio.current_task()
        if table.timer is task:
            table.timer = None
            table.timer_key = None
        if task is not None:
            self._mark_busy(task)
        try:
            async with table.lock:
                updates = await self._on_timeout(table, hand_no, turn)
            await self._publish(updates)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: turn timeout failed", table.id)

    async def _on_timeout(self, table: Table, hand_no: int, turn: int) -> list[Update]:
        meta = table.meta.copy()
        hand = table.hand
        if table.closed or hand is None or not table.in_hand or hand.to_act is None:
            return []
        if meta.hand_no != hand_no or meta.turn != turn:
            return []  # somebody acted meanwhile
        seat = hand.to_act
        user = meta.players[seat]
        action = hand.default_action(seat)
        moves, events = self._step(table, meta, seat, action)
        meta.timeouts[user] = meta.timeouts.get(user, 0) + 1
        notices = [timeout_notice(user, action)]
        if meta.timeouts[user] >= self.max_timeouts and user not in meta.leaving:
            meta.leaving.append(user)
            notices.append(note("tables.timeouts_removed", player=user, count=meta.timeouts[user]))
        return await self._play_on(table, meta, moves, events, notices, "timeout")

    def _schedule_cpu(self, table: Table) -> None:
        hand = table.hand
        if self._stopped or table.closed or hand is None or not table.in_hand:
            return
        seat = hand.to_act
        if seat is None:
            return
        user = table.meta.players[seat]
        if user not in table.meta.cpus or user in table.meta.leaving:
            return
        task = asyncio.get_running_loop().create_task(
            self._cpu_turn(
                table, user, table.meta.hand_no, table.meta.turn, self.clock.now() + self.cpu_delay
            )
        )
        self._cpu_tasks.add(task)
        task.add_done_callback(self._cpu_tasks.discard)
        if self.cpu_delay <= 0:
            self._mark_busy(task)

    def _mark_busy(self, task: asyncio.Task[Any]) -> None:
        """`wait_idle` waits for busy tasks (not for those sleeping on the clock)."""
        self._busy.add(task)
        task.add_done_callback(self._busy.discard)

    async def _cpu_turn(
        self, table: Table, user: int, hand_no: int, turn: int, wake: float
    ) -> None:
        try:
            if self.cpu_delay > 0:
                await self.clock.sleep_until(wake)
                task = asyncio.current_task()
                if task is not None:
                    self._mark_busy(task)
            hand = table.hand
            if table.closed or hand is None or table.meta.turn != turn:
                return
            seat = table.meta.seat_of(user)
            if seat is None or hand.to_act != seat:
                return
            view, legal, events = hand.seat_view(seat), hand.legal_actions(), hand.events_for(seat)
            player = self._cpu_player(table, user)
            try:
                action = await asyncio.to_thread(player.choose, view, legal, events)
            except Exception:
                log.exception("table %s: CPU %s failed to choose; defaulting", table.id, user)
                action = None
            async with table.lock:
                if table.meta.turn != turn or table.meta.hand_no != hand_no or table.closed:
                    return
                assert table.hand is not None
                if action is None or not table.hand.can(seat, action):
                    action = table.hand.default_action(seat)
                updates = await self._apply(table, user, action, hand_no, turn, source="cpu")
            await self._publish(updates)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: CPU move failed", table.id)

    # ------------------------------------------------------------------ internals: resume

    async def _resume(self) -> None:
        rows: list[TableRow] = await self.store.load_open_tables()
        tables: list[Table] = []
        for row in rows:
            try:
                meta = TableMeta.from_dict(row.meta)
                hand = Hand.from_json(row.state) if row.state else None
                if hand is not None and len(meta.players) != len(hand.chips):
                    raise ValueError("players and hand seats differ")
            except Exception as exc:
                log.exception("table %s: state cannot be loaded; closing with refunds", row.id)
                try:
                    await self._close_broken(row, exc)
                except Exception:
                    log.exception("table %s: cannot be closed either; left as it is", row.id)
                continue
            table = Table(row, meta, hand, await self._timeout_for(row.guild_id))
            self._register(table)
            await self._refresh_balances(table)
            self._refresh(table)
            tables.append(table)
            log_table_event(row.guild_id, row.channel_id, f"table {row.id} resumed ({row.status})")
        for table in tables:
            if table.row.status == "playing" and not table.in_hand:
                # stopped between the end of a hand and the next one
                try:
                    async with table.lock:
                        updates = await self._next_hand(table, table.meta.copy())
                except Exception:
                    log.exception("table %s: cannot deal the next hand at start", table.id)
                    continue
                await self._publish(updates)
            else:
                self._after_commit(table)

    async def _close_broken(self, row: TableRow, exc: BaseException) -> None:
        escrow = await self.store.escrow(row.id)
        try:
            paid = {int(k): int(v) for k, v in (row.meta or {}).get("paid", {}).items()}
        except Exception:
            paid = {}
        try:
            last_players = [int(u) for u in (row.meta or {}).get("players", [])]
        except Exception:
            last_players = []
        moves = refunds(escrow, paid, list(row.seats) or last_players or list(paid), None, None)
        meta = dict(row.meta) if isinstance(row.meta, dict) else {}
        meta["closed_reason"] = f"unloadable state: {type(exc).__name__}"
        await self.store.close_table(row.id, expected_version=row.version, refunds=moves, meta=meta)
        log_table_event(
            row.guild_id,
            row.channel_id,
            f"table {row.id} closed at start: state cannot be loaded ({type(exc).__name__}); "
            f"refunded {escrow} chips",
        )
