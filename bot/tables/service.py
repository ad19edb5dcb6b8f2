"""`TableService`: one async session per channel between the cogs and the engine/store.

Every change follows the same path: take the table's `asyncio.Lock`, check who acts and the
stale-button tokens, ask the engine, write the new state, the meta and every chip movement in
**one** store transaction (`store.save_table`), then publish an `Update` to the listeners
(outside the lock). If the transaction fails, the in-memory table is rebuilt from the last
saved row, so memory and database always agree.

Decisions where the rules and the issue are silent (also listed in the package docstring):
- The next hand starts as soon as the previous one is over (no pause); the hand-over update
  carries the result events first.
- Players dealt into a hand keep their engine seat until it ends. A player who leaves (or is
  kicked, or times out twice in a row) during a hand is marked "leaving": every one of their
  turns is played at once with the engine's `default_action`, and they are removed when the
  hand ends. Their chips are settled like anyone's.
- R-14, call the round: every seated player counts the hands they dealt; a player who joins
  starts at the lowest count at the table. After the round is called the table closes at the
  end of the first hand after which every player able to pay the ante has the same count (or
  at once if no hand is running).
- A CPU seat that cannot pay the ante is removed (a human sits out). A table left without a
  human seat between hands closes.
- CPU ids are `-(table_id * 10 + k)`, k = 1..9, so CPU accounts never collide between tables
  of the same server.
- A player who leaves and joins again before the hand ends simply stays.
- Force close (and a table closed at start because its state cannot be loaded): each player
  gets back what they put into the escrow during the hand in progress, net of what they
  already won in it (a small pot already won is kept); the rest (a carried big pot) is split
  equally among the seats, the remainder to the eldest hand.
- A failed CPU player (exception, or an illegal choice) plays the engine's default action.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable, Sequence
from typing import Any

from bot.engine import Action, Hand, Rules, parse_action
from bot.logs import log_table_event
from bot.players import LEVELS, make_player
from bot.store import Move, TableExists
from bot.tables.automation import AutomationMixin
from bot.tables.chips import chip_moves, refunds
from bot.tables.clock import Clock, SystemClock
from bot.tables.commit import CommitMixin, Listener
from bot.tables.errors import TableError
from bot.tables.hands import (
    add_paid,
    eldest_of,
    forget,
    hand_record,
    has_humans,
    next_dealer,
    note,
    remember,
)
from bot.tables.meta import TableMeta
from bot.tables.snapshot import hand_over, public_events
from bot.tables.table import (
    MAX_PLAYERS,
    MAX_TIMEOUTS,
    MIN_BALANCE_ANTES,
    MIN_PLAYERS,
    Table,
)
from bot.tables.updates import Notice, TableState, Update

log = logging.getLogger("stoppa.tables")

PlayerFactory = Callable[[str, int | None], Any]


class TableService(CommitMixin, AutomationMixin):
    """The table service. Build it with `await TableService.start(store, ...)`."""

    def __init__(
        self,
        store: Any,
        *,
        turn_timeout: float = 60.0,
        seed: int | None = None,
        clock: Clock | None = None,
        cpu_delay: float = 0.0,
        player_factory: PlayerFactory = make_player,
        max_timeouts: int = MAX_TIMEOUTS,
    ) -> None:
        self.store = store
        self.turn_timeout = float(turn_timeout)
        self.clock: Clock = clock or SystemClock()
        self.cpu_delay = float(cpu_delay)
        self.player_factory = player_factory
        self.max_timeouts = max_timeouts
        self._rng = random.Random(seed)
        self._by_channel: dict[int, Table] = {}
        self._by_id: dict[int, Table] = {}
        self._listeners: list[Listener] = []
        self._seating = asyncio.Lock()
        self._busy: set[asyncio.Task[Any]] = set()
        self._cpu_tasks: set[asyncio.Task[Any]] = set()
        self._stopped = False
        #: Tables whose turn clock is paused (`pause_clock`): nobody can see them.
        self._paused: set[int] = set()

    # ------------------------------------------------------------------ life cycle

    @classmethod
    async def start(cls, store: Any, **options: Any) -> TableService:
        """Build the service (`options` as for the constructor: turn_timeout, seed, clock,
        cpu_delay, player_factory, max_timeouts) and resume every open table of `store`."""
        service = cls(store, **options)
        await service._resume()
        return service

    async def stop(self) -> None:
        """Cancel every timer and CPU task (the tables stay open in the store)."""
        self._stopped = True
        tasks = [t.timer for t in self._by_id.values() if t.timer is not None]
        tasks += list(self._busy | self._cpu_tasks)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        self._busy.clear()
        self._cpu_tasks.clear()

    async def wait_idle(self) -> None:
        """Wait until no CPU move and no fired timer is running (tests, demo, bench)."""
        for _ in range(10_000):
            for _ in range(3):
                await asyncio.sleep(0)
            busy = [t for t in self._busy if not t.done()]
            if not busy:
                return
            await asyncio.gather(*busy, return_exceptions=True)

    def subscribe(self, callback: Listener) -> None:
        """Call `await callback(update)` after every committed change of any table."""
        self._listeners.append(callback)

    def unsubscribe(self, callback: Listener) -> None:
        """Stop calling `callback`."""
        with contextlib.suppress(ValueError):
            self._listeners.remove(callback)

    # ------------------------------------------------------------------ queries

    def state(self, channel: int) -> TableState | None:
        """The public snapshot of the open table in `channel`, or None."""
        table = self._by_channel.get(channel)
        return table.snapshot if table else None

    def state_by_id(self, table_id: int) -> TableState | None:
        """The public snapshot of the open table `table_id`, or None."""
        table = self._by_id.get(table_id)
        return table.snapshot if table else None

    def tables(self) -> list[TableState]:
        """Snapshots of every open table."""
        return [t.snapshot for t in self._by_id.values() if t.snapshot is not None]

    def table_of(self, guild: int, user: int) -> TableState | None:
        """The open table of this server where `user` sits, or None."""
        table = self._table_of(guild, user)
        return table.snapshot if table else None

    def hand_for(self, guild: int, channel: int, user: int) -> dict[str, Any]:
        """What `user` may see of the hand in progress (private: send it ephemeral).

        Keys: table_id, hand_no, turn (the tokens for `act`), seat, view (`hand.view(seat)`:
        own cards, public state, legal action texts when it is their turn), actions (the legal
        engine actions, Bet/Raise as representatives), bet_range ((min, max) or None),
        my_turn (bool), seat_view (`hand.seat_view(seat)`) and events (`hand.events_for(seat)`),
        what a CPU player's `choose` reads. Raises TableError no_table / not_in_hand.
        """
        table = self._get(guild, channel)
        seat = table.meta.seat_of(user)
        if table.hand is None or seat is None:
            raise TableError("not_in_hand")
        hand = table.hand
        my_turn = hand.phase != "over" and hand.to_act == seat
        return {
            "table_id": table.id,
            "hand_no": table.meta.hand_no,
            "turn": table.meta.turn,
            "seat": seat,
            "view": hand.view(seat),
            "actions": hand.legal_actions() if my_turn else [],
            "bet_range": hand.bet_range(seat) if my_turn else None,
            "my_turn": my_turn,
            "seat_view": hand.seat_view(seat),
            "events": hand.events_for(seat),
        }

    # ------------------------------------------------------------------ lobby

    async def open_table(self, guild: int, channel: int, user: int) -> TableState:
        """Open a table in `channel` (copying the server's stakes); the opener sits."""
        async with self._seating:
            if channel in self._by_channel:
                raise TableError("table_exists")
            if self._table_of(guild, user) is not None:
                raise TableError("seated_elsewhere")
            stakes = dict(await self.store.get_stakes(guild))
            await self._check_balance(guild, user, stakes)
            meta = TableMeta(seed=self._rng.getrandbits(63))
            try:
                row = await self.store.create_table(
                    guild, channel, settings=stakes, seats=[user], meta=meta.to_dict()
                )
            except TableExists:
                raise TableError("table_exists") from None
            table = Table(row, meta, None, await self._timeout_for(guild))
            self._register(table)
            await self._refresh_balances(table)
            self._refresh(table)
            update = self._update(table, "opened", [], [note("tables.opened", player=user)])
        await self._publish([update])
        return table.snapshot  # type: ignore[return-value]

    async def join(self, guild: int, channel: int, user: int) -> TableState:
        """Sit `user` at the table (3-6 seats, one table per server, 10 x ante to sit).

        During a hand the new player waits for the next one.
        """
        async with self._seating:
            table = self._get(guild, channel)
            async with table.lock:
                self._check_open(table)
                if user in table.meta.leaving:  # changed their mind before the hand ended
                    meta = table.meta.copy()
                    meta.leaving.remove(user)
                    meta.timeouts.pop(user, None)
                    notice = note("tables.stays", player=user)
                    updates = [await self._commit(table, meta, "joined", notices=[notice])]
                else:
                    if user in table.row.seats:
                        raise TableError("already_seated")
                    if self._table_of(guild, user) is not None:
                        raise TableError("seated_elsewhere")
                    if len(table.row.seats) >= MAX_PLAYERS:
                        raise TableError("table_full", max=MAX_PLAYERS)
                    await self._check_balance(guild, user, table.row.settings)
                    updates = await self._seat(table, user, None)
        await self._publish(updates)
        return table.snapshot  # type: ignore[return-value]

    async def add_cpu(self, guild: int, channel: int, by: int, level: str = "easy") -> TableState:
        """Seat a CPU player of `level` ("random", "easy", "hard"); `by` must be seated."""
        if level not in LEVELS:
            raise TableError("bad_level", level=level, levels=", ".join(LEVELS))
        async with self._seating:
            table = self._get(guild, channel)
            async with table.lock:
                self._check_open(table)
                if by not in table.row.seats:
                    raise TableError("not_seated")
                if len(table.row.seats) >= MAX_PLAYERS:
                    raise TableError("table_full", max=MAX_PLAYERS)
                taken = set(table.row.seats) | set(table.meta.leaving)
                cpu = next(
                    (u for k in range(1, 10) if (u := -(table.id * 10 + k)) not in taken), None
                )
                if cpu is None:
                    raise TableError("table_full", max=MAX_PLAYERS)
                await self._check_balance(guild, cpu, table.row.settings)
                updates = await self._seat(table, cpu, level)
        await self._publish(updates)
        return table.snapshot  # type: ignore[return-value]

    async def leave(self, guild: int, channel: int, user: int) -> TableState:
        """`user` leaves: at once between hands, else at the end of the hand (defaulting)."""
        table = self._get(guild, channel)
        async with table.lock:
            self._check_open(table)
            if user not in table.row.seats:
                raise TableError("not_seated")
            updates = await self._remove(table, user, "left", note("tables.left", player=user))
        await self._publish(updates)
        return table.snapshot  # type: ignore[return-value]

    async def kick(self, guild: int, channel: int, by: int, user: int) -> TableState:
        """Admin: remove `user` (at once between hands, else at the end of the hand)."""
        table = self._get(guild, channel)
        async with table.lock:
            self._check_open(table)
            if user not in table.row.seats:
                raise TableError("not_seated")
            notice = note("tables.kicked", player=user, by=by)
            updates = await self._remove(table, user, "kicked", notice)
        await self._publish(updates)
        return table.snapshot  # type: ignore[return-value]

    async def start_game(self, guild: int, channel: int, user: int) -> TableState:
        """Start play (any seated player): deal the first hand if 3 players can pay the ante."""
        table = self._get(guild, channel)
        async with table.lock:
            self._check_open(table)
            if user not in table.row.seats:
                raise TableError("not_seated")
            if table.in_hand:
                raise TableError("already_started")
            meta = table.meta.copy()
            meta.started = True
            updates = await self._next_hand(table, meta, strict=True)
        await self._publish(updates)
        return table.snapshot  # type: ignore[return-value]

    async def call_round(self, guild: int, channel: int, user: int) -> TableState:
        """R-14: any seated player calls the round; the table closes once every player has
        dealt the same number of times (at once if no hand is running)."""
        table = self._get(guild, channel)
        async with table.lock:
            self._check_open(table)
            if user not in table.row.seats:
                raise TableError("not_seated")
            meta = table.meta.copy()
            meta.round_called_by = user
            notice = note("tables.round_called", player=user)
            if table.in_hand:
                updates = [await self._commit(table, meta, "round_called", notices=[notice])]
            else:
                updates = await self._next_hand(table, meta, notices=[notice])
        await self._publish(updates)
        return table.snapshot  # type: ignore[return-value]

    async def force_close(self, guild: int, channel: int, by: int) -> TableState:
        """Admin: close the table now. The escrow of the hand in progress goes back to who
        paid it; a carried big pot is split equally, the remainder to the eldest."""
        return await self._close_now(self._get(guild, channel),
                                     note("tables.force_closed", by=by))

    async def close_channel(self, guild: int, channel: int) -> TableState | None:
        """Close the table of a channel or thread that is gone (deleted, or the bot can no
        longer be there) exactly as `force_close` does; None when it had no open table."""
        table = self._by_channel.get(channel)
        if table is None or table.row.guild_id != guild:
            return None
        try:
            return await self._close_now(table, note("access.channel_gone"))
        except TableError:  # closed meanwhile
            return None

    async def close_guild(self, guild: int) -> list[TableState]:
        """Close every table of a server the bot left (or that was deleted), as
        `force_close` does."""
        channels = [t.row.channel_id for t in self._by_id.values() if t.row.guild_id == guild]
        closed = [await self.close_channel(guild, channel) for channel in channels]
        return [state for state in closed if state is not None]

    async def _close_now(self, table: Table, notice: Notice) -> TableState:
        """Close `table` under its lock (escrow refunded), then publish the closed state."""
        async with table.lock:
            self._check_open(table)
            update = await self._close(table, table.meta.copy(), [notice])
        await self._publish([update])
        return update.state

    def pause_clock(self, table_id: int) -> None:
        """Stop the turn timeouts of a table whose message nobody can see (the bot cannot post
        in its channel) until `resume_clock`; a timer already asleep finds the pause when it
        wakes and does nothing. CPU seats still play; a human's turn waits."""
        if table_id in self._by_id and table_id not in self._paused:
            self._paused.add(table_id)
            log.info("table %s: turn clock paused (its message cannot be shown)", table_id)

    def resume_clock(self, table_id: int) -> None:
        """Run the turn clock of a paused table again; a deadline that passed meanwhile
        becomes a full turn from now."""
        if table_id not in self._paused:
            return
        self._paused.discard(table_id)
        table = self._by_id.get(table_id)
        if table is not None:
            log.info("table %s: turn clock resumed", table_id)
            self._arm_timer(table, retry=True)

    def clock_paused(self, table_id: int) -> bool:
        """Whether the turn clock of the table is paused."""
        return table_id in self._paused

    def _arm_timer(self, table: Table, *, retry: bool = False) -> None:
        if table.id in self._paused:
            return
        super()._arm_timer(table, retry=retry)

    async def _on_timeout(self, table: Table, hand_no: int, turn: int) -> list[Update]:
        if table.id in self._paused:
            return []
        return await super()._on_timeout(table, hand_no, turn)

    async def set_message(self, table_id: int, message_id: int | None) -> TableState:
        """Record the public message of the table (the cog's)."""
        table = self._by_id.get(table_id)
        if table is None:
            raise TableError("no_table")
        async with table.lock:
            self._check_open(table)
            row = await self.store.save_table(
                table.id, expected_version=table.row.version, message_id=message_id
            )
            table.row = row
            self._refresh(table)
        return table.snapshot  # type: ignore[return-value]

    # ------------------------------------------------------------------ play

    async def act(
        self,
        guild: int,
        channel: int,
        user: int,
        action: Action | str,
        *,
        expected_hand: int | None = None,
        expected_turn: int | None = None,
    ) -> TableState:
        """Apply `user`'s engine action (or its text, "bet 30") if it is their turn.

        `expected_hand`/`expected_turn` are the tokens of the snapshot the button was built
        from; a mismatch (double click, stale button) raises TableError("stale_button").
        Engine refusals raise `IllegalAction` (code/params, messages in engine.toml).
        """
        table = self._get(guild, channel)
        if isinstance(action, str):
            try:
                action = parse_action(action)
            except ValueError:
                raise TableError("bad_action", text=action) from None
        async with table.lock:
            updates = await self._apply(table, user, action, expected_hand, expected_turn)
        await self._publish(updates)
        return table.snapshot  # type: ignore[return-value]

    # ------------------------------------------------------------------ internals: lookup

    def _register(self, table: Table) -> None:
        self._by_channel[table.row.channel_id] = table
        self._by_id[table.id] = table

    def _unregister(self, table: Table) -> None:
        table.closed = True
        self._paused.discard(table.id)
        self._by_channel.pop(table.row.channel_id, None)
        self._by_id.pop(table.id, None)
        self._cancel_timer(table)

    def _get(self, guild: int, channel: int) -> Table:
        table = self._by_channel.get(channel)
        if table is None or table.row.guild_id != guild:
            raise TableError("no_table")
        return table

    def _check_open(self, table: Table) -> None:
        if table.closed:
            raise TableError("table_closed")

    def _table_of(self, guild: int, user: int) -> Table | None:
        for table in self._by_id.values():
            if table.row.guild_id == guild and user in table.row.seats:
                return table
        return None

    async def _timeout_for(self, guild: int) -> float:
        settings = await self.store.server_settings(guild)
        value = getattr(settings, "turn_timeout", None)
        return float(value) if value else self.turn_timeout

    async def _check_balance(self, guild: int, user: int, stakes: dict[str, Any]) -> None:
        need = MIN_BALANCE_ANTES * int(stakes["ante"])
        have = await self.store.balance(guild, user)
        if have < need:
            raise TableError("not_enough_chips", need=need, have=have)

    async def _refresh_balances(self, table: Table) -> None:
        users = list(table.row.seats)
        table.balances = dict(await self.store.balances(table.row.guild_id, users)) if users else {}

    # ------------------------------------------------------------------ internals: seats

    async def _seat(self, table: Table, user: int, cpu: str | None) -> list[Update]:
        meta = table.meta.copy()
        seats = [*table.row.seats, user]
        counts = [meta.deals.get(u, 0) for u in table.row.seats]
        meta.deals[user] = min(counts) if counts else 0
        meta.timeouts.pop(user, None)
        if cpu is not None:
            meta.cpus[user] = cpu
            notice = note("tables.cpu_joined", player=user, level=cpu)
        else:
            notice = note("tables.joined", player=user)
        kind = "cpu_added" if cpu else "joined"
        updates = [await self._commit(table, meta, kind, notices=[notice], seats=seats)]
        if meta.started and not table.in_hand and table.row.status == "lobby":
            updates += await self._next_hand(table, table.meta.copy())
        return updates

    async def _remove(self, table: Table, user: int, kind: str, notice: Notice) -> list[Update]:
        meta = table.meta.copy()
        if table.in_hand and user in meta.players:
            if user not in meta.leaving:
                meta.leaving.append(user)
            notices = [notice, note("tables.leaves_after_hand", player=user)]
            return await self._play_on(table, meta, [], [], notices, kind)
        seats = [u for u in table.row.seats if u != user]
        forget(meta, user)
        updates = [await self._commit(table, meta, kind, notices=[notice], seats=seats)]
        if not table.in_hand and not has_humans(table.row.seats):
            updates.append(await self._close(table, table.meta.copy(), []))
        return updates

    # ------------------------------------------------------------------ internals: hands

    async def _next_hand(
        self,
        table: Table,
        meta: TableMeta,
        *,
        strict: bool = False,
        notices: list[Notice] | None = None,
    ) -> list[Update]:
        """Between hands: close (round over / no human), wait in the lobby, or deal a hand."""
        notices = list(notices or [])
        guild = table.row.guild_id
        seats = list(table.row.seats)
        settings = table.row.settings
        ante = int(settings["ante"])
        balances = dict(await self.store.balances(guild, seats)) if seats else {}
        table.balances = balances
        # CPUs that cannot pay the ante leave; humans sit the hand out
        broke_cpus = [u for u in seats if u in meta.cpus and balances.get(u, 0) < ante]
        for user in broke_cpus:
            seats.remove(user)
            forget(meta, user)
            notices.append(note("tables.cpu_broke", player=user))
        able = [u for u in seats if balances.get(u, 0) >= ante]
        meta.sitting_out = [u for u in seats if u not in able]
        if meta.round_called_by is not None and (
            not meta.hand_no or len({meta.deals.get(u, 0) for u in able}) <= 1
        ):
            notices.append(note("tables.round_over"))
            return [await self._close(table, meta, notices, seats=seats)]
        if not has_humans(seats):
            return [await self._close(table, meta, notices, seats=seats)]
        if not meta.started or len(able) < MIN_PLAYERS:
            if strict and len(able) < MIN_PLAYERS:
                raise TableError("not_enough_players", need=MIN_PLAYERS, have=len(able))
            if meta.started:
                notices.append(note("tables.waiting_players", need=MIN_PLAYERS, have=len(able)))
            meta.players = []
            return [
                await self._commit(
                    table,
                    meta,
                    "lobby",
                    notices=notices,
                    status="lobby",
                    seats=seats,
                    state=None,
                    hand=None,
                )
            ]
        # the deal: first dealer by lot, then the next seat able to play
        if meta.dealer is None:
            dealer = random.Random(meta.seed).choice(able)
        else:
            dealer = next_dealer(seats, able, meta.dealer, meta.dealer_pos)
        dealer_pos = seats.index(dealer)
        players = able  # playing order = seat order
        hand_no = meta.hand_no + 1
        hand_seed = random.Random(f"{meta.seed}:{hand_no}").getrandbits(63)
        try:
            rules = Rules(players=len(players), **settings)
        except (TypeError, ValueError) as exc:
            raise TableError("bad_stakes", reason=str(exc)) from None
        chips = [balances[u] for u in players]
        hand = Hand.start(rules, chips, players.index(dealer), seed=hand_seed, carry=meta.carry)
        moves = chip_moves(players, chips, hand.chips, hand.events, hand_no, paying="ante")
        meta.hand_no = hand_no
        meta.hand_seed = hand_seed
        meta.turn += 1
        meta.players = list(players)
        meta.dealer = dealer
        meta.dealer_pos = dealer_pos
        meta.paid = {}
        add_paid(meta, moves)
        for user in meta.sitting_out:
            notices.append(note("tables.sits_out", player=user, ante=ante))
        notices.insert(0, note("tables.hand_started", hand_no=hand_no, dealer=dealer))
        events = public_events(hand.events, players)
        remember(meta, events)
        updates = [
            await self._commit(
                table,
                meta,
                "started",
                events=events,
                notices=notices,
                moves=moves,
                status="playing",
                seats=seats,
                state=hand.to_json(),
                hand=hand,
            )
        ]
        if hand.phase == "over":  # no choice at all in this hand (possible only in theory)
            updates += await self._play_on(table, table.meta.copy(), [], [], [], "action")
        return updates

    async def _apply(
        self,
        table: Table,
        user: int,
        action: Action,
        expected_hand: int | None,
        expected_turn: int | None,
        *,
        source: str = "player",
    ) -> list[Update]:
        """Apply one action under the lock (the caller holds it)."""
        self._check_open(table)
        meta = table.meta.copy()
        if expected_hand is not None and expected_hand != meta.hand_no:
            raise TableError("stale_button")
        if expected_turn is not None and expected_turn != meta.turn:
            raise TableError("stale_button")
        hand = table.hand
        if hand is None or not table.in_hand:
            raise TableError("no_hand")
        seat = meta.seat_of(user)
        if seat is None:
            raise TableError("not_in_hand")
        if hand.to_act != seat:
            raise TableError("not_your_turn", player=meta.players[hand.to_act or 0])
        moves, events = self._step(table, meta, seat, action)
        if source == "player":
            meta.timeouts[user] = 0
        kind = "action" if source == "player" else source
        return await self._play_on(table, meta, moves, events, [], kind)

    def _step(
        self, table: Table, meta: TableMeta, seat: int, action: Action
    ) -> tuple[list[Move], list[Any]]:
        """One engine action (raises IllegalAction with the hand unchanged)."""
        hand = table.hand
        assert hand is not None
        before = list(hand.chips)
        events = hand.act(seat, action)
        moves = chip_moves(meta.players, before, hand.chips, events, meta.hand_no)
        add_paid(meta, moves)
        meta.turn += 1
        return moves, list(events)

    async def _play_on(
        self,
        table: Table,
        meta: TableMeta,
        moves: list[Move],
        events: list[Any],
        notices: list[Notice],
        kind: str,
    ) -> list[Update]:
        """After a change in a hand: default the leavers' turns, then commit (and settle the
        hand and go on to the next one if it is over). On failure the hand is rebuilt."""
        hand = table.hand
        assert hand is not None
        try:
            while hand.phase != "over" and hand.to_act is not None:
                user = meta.players[hand.to_act]
                if user not in meta.leaving:
                    break
                more_moves, more_events = self._step(
                    table, meta, hand.to_act, hand.default_action(hand.to_act)
                )
                moves += more_moves
                events += more_events
        except Exception:
            self._rebuild(table)
            raise
        public = public_events(events, meta.players)
        remember(meta, public)
        if hand.phase != "over":
            return [
                await self._commit(
                    table,
                    meta,
                    kind,
                    events=public,
                    notices=notices,
                    moves=moves,
                    state=hand.to_json(),
                    hand=hand,
                )
            ]
        # the hand is over: record it, settle the leavers, then the next hand
        record = hand_record(hand, meta)
        meta.last_hand = hand_over(
            hand, meta.players, hand_no=meta.hand_no, turn=meta.turn,
            blocked_stoppa=str(table.row.settings.get("blocked_stoppa", "four_aces")),
        ).to_dict()
        meta.carry = int(getattr(hand, "carry_out", 0) or 0)
        meta.paid = {}
        if meta.dealer is not None:
            meta.deals[meta.dealer] = meta.deals.get(meta.dealer, 0) + 1
        seats = list(table.row.seats)
        for user in meta.leaving:
            if user in seats:
                seats.remove(user)
            notices.append(note("tables.removed", player=user))
        for user in list(meta.leaving):
            forget(meta, user)
        meta.leaving = []
        notices.insert(0, note("tables.hand_over", hand_no=meta.hand_no))
        updates = [
            await self._commit(
                table,
                meta,
                "hand_over",
                events=public,
                notices=notices,
                moves=moves,
                seats=seats,
                state=hand.to_json(),
                hand=hand,
                record=record,
            )
        ]
        try:
            updates += await self._next_hand(table, table.meta.copy())
        except Exception:  # the action itself is committed: report it, deal on /start
            log.exception("table %s: the next hand could not be dealt", table.id)
        return updates

    async def _close(
        self,
        table: Table,
        meta: TableMeta,
        notices: list[Notice],
        *,
        seats: Sequence[int] | None = None,
    ) -> Update:
        """Close the table: refund the escrow (hand in progress, carried pot) and forget it."""
        seats = list(table.row.seats if seats is None else seats)
        escrow = await self.store.escrow(table.id)
        paid = meta.paid if table.in_hand else {}
        eldest = eldest_of(meta)
        targets = seats or list(meta.players)
        moves = refunds(escrow, paid, targets, eldest, meta.hand_no or None)
        notices = [*notices, note("tables.closed")]
        meta.leaving = []
        row = await self.store.close_table(
            table.id, expected_version=table.row.version, refunds=moves, meta=meta.to_dict()
        )
        table.row = row
        table.meta = meta
        self._unregister(table)
        await self._refresh_balances(table)
        self._refresh(table)
        for notice in notices:
            log_table_event(table.row.guild_id, table.row.channel_id, notice.text("en"))
        if moves:
            paid_back = ", ".join(f"{m.user}:{-m.amount}" for m in moves)
            log_table_event(table.row.guild_id, table.row.channel_id, f"refunds {paid_back}")
        return self._update(table, "closed", [], notices)
