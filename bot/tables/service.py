"""`TableService`: the registry of table sessions (one per channel) and what they share.

A change of one table is the work of its `TableSession` (`bot.tables.session`): its lock, the
checks, the engine, one store transaction, the listeners. The service finds the session, and
keeps what spans tables: the seating lock (one seat per server), opening, resume and stop.

Decisions where the rules and the issue are silent (also listed in the package docstring):
- The next hand starts as soon as the previous one is over (no pause); the hand-over update
  carries the result events first.
- Players dealt into a hand keep their engine seat until it ends. A player who leaves (or is
  kicked) during a hand is marked "leaving": every one of their turns is played at once with
  the engine's `default_action`, and they are removed when the hand ends. Their chips are
  settled like anyone's.
- A player whose turn clock runs out `max_timeouts` times in a row (the table's `away_after`,
  2) is sat out (`away_mode` "sit_out", the default): their turns are played at once with the
  engine's `default_action` until they are back (`back`, which the cog calls for the I'm back
  button and any table command of theirs); sat out for a whole hand, they leave at its end.
  With `away_mode` "leave" they are marked leaving instead. Both settings live in the meta.
- After a hand, a table with fewer than 3 active (able to pay, not sat out) players closes.
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
from collections.abc import Awaitable, Callable
from typing import TypedDict, Unpack

from bot.engine import Action, Hand, parse_action
from bot.logs import log_table_event
from bot.players import LEVELS, make_player
from bot.store import StoreContract, TableExists, TableRow
from bot.tables.clock import Clock, SystemClock
from bot.tables.closing import close_unloadable
from bot.tables.errors import TableError, UnknownKind
from bot.tables.hands import note
from bot.tables.leases import LeaseKeeper, Ownership
from bot.tables.limits import MAX_TIMEOUTS
from bot.tables.meta import TableMeta, TournamentReader
from bot.tables.player_hand import PlayerHand, PracticeTable
from bot.tables.policies.cash import cash_only
from bot.tables.policies.practice import practice_channel, practice_meta, with_practice
from bot.tables.policy import Close, PolicyChooser
from bot.tables.seating import check_balance
from bot.tables.session import TableSession
from bot.tables.shared import Listener, PlayerFactory, Shared
from bot.tables.updates import Notice, TableState, Update
from bot.thinking import Thinker

log = logging.getLogger("stoppa.tables")


class ServiceOptions(TypedDict, total=False):
    """The options of a service (`TableService(store, **options)`, `start` the same), named
    once: the turn clock's default and clock, the seed of tests and the demo, the CPU
    players' pause, factory and `thinker` (where they think: `bot.thinking`; the caller
    closes it), the rule of absent players, the table ownership of a process sharing its
    database, the kinds of table beyond cash (`policy_for`, `read_tournament`), and the
    pause between hands where a server set none."""

    turn_timeout: float
    seed: int | None
    clock: Clock | None
    cpu_delay: float
    player_factory: PlayerFactory
    thinker: Thinker
    max_timeouts: int
    away_mode: str
    ownership: Ownership | None
    policy_for: PolicyChooser
    read_tournament: TournamentReader | None
    hand_pause: float


class TableService:
    """The table service. Build it with `await TableService.start(store, ...)`."""

    def __init__(
        self,
        store: StoreContract,
        *,
        turn_timeout: float = 60.0,
        seed: int | None = None,
        clock: Clock | None = None,
        cpu_delay: float = 0.0,
        player_factory: PlayerFactory = make_player,
        thinker: Thinker | None = None,
        max_timeouts: int = MAX_TIMEOUTS,
        away_mode: str = "sit_out",
        ownership: Ownership | None = None,
        policy_for: PolicyChooser = cash_only,
        read_tournament: TournamentReader | None = None,
        hand_pause: float = 0.0,
    ) -> None:
        self.store = store
        #: the hand policy of each table, chosen from its meta when its session is built (a
        #: practice table's is this package's own, whatever the chooser given)
        self.policy_for = with_practice(policy_for)
        self.turn_timeout = float(turn_timeout)
        self.clock: Clock = clock or SystemClock()
        self.shared = Shared(
            store, self.clock, player_factory, float(cpu_delay), max_timeouts,
            on_close=self._forget, away_mode=away_mode, thinker=thinker or Thinker(),
        )
        #: the tournament code's reader of a tournament table's meta (with `policy_for`)
        self.shared.read_tournament = read_tournament
        #: the pause between hands where a server set none (`Shared.pause_of`)
        self.shared.hand_pause = float(hand_pause)
        self._rng = random.Random(seed)
        if seed is not None:  # tests and the demo only: see `Shared.seeded`
            self.shared.seeded = random.Random(f"{seed}:secrets")
        self._by_channel: dict[int, TableSession] = {}
        self._by_id: dict[int, TableSession] = {}
        self._seating = asyncio.Lock()
        #: the table leases of a process sharing its database (None: one process, no leases)
        self.leases: LeaseKeeper | None = None
        if ownership is not None:
            self.shared.lease_owner = ownership.owner
            self.shared.lease_clock = ownership.clock
            self.leases = LeaseKeeper(
                store, ownership,
                held=lambda: list(self._by_id), drop=self._let_go, adopt=self._adopt,
            )

    # ------------------------------------------------------------------ life cycle

    @classmethod
    async def start(cls, store: StoreContract, **options: Unpack[ServiceOptions]) -> TableService:
        """Build the service (`options` as for the constructor) and resume every open table;
        with `ownership`, only the tables of its servers whose lease it takes, and the lease
        beat runs until `stop`."""
        service = cls(store, **options)
        await service._resume()
        if service.leases is not None:
            service.leases.start()
        return service

    @property
    def thinker(self) -> Thinker:
        """Where the CPU seats think, and the practice table's hint (`bot.thinking`)."""
        return self.shared.thinker

    @property
    def stopped(self) -> bool:
        """Whether `stop` ran (no timer or CPU turn runs any more)."""
        return self.shared.stopped

    async def stop(self) -> None:
        """Cancel every timer and CPU task (the tables stay open in the store) and release
        the table leases, so another process may take the tables at once."""
        shared = self.shared
        shared.stopped = True
        if self.leases is not None:
            await self.leases.stop(())
        tasks = [s.clock.task for s in self._by_id.values() if s.clock.task is not None]
        tasks += list(shared.busy | shared.cpu_tasks)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        shared.busy.clear()
        shared.cpu_tasks.clear()
        if self.leases is not None:
            await self.leases.stop(list(self._by_id))

    async def wait_idle(self) -> None:
        """Wait until no CPU move and no fired timer is running (tests, demo, bench)."""
        for _ in range(10_000):
            for _ in range(3):
                await asyncio.sleep(0)
            busy = [t for t in self.shared.busy if not t.done()]
            if self.leases is not None and self.leases.beating:
                await asyncio.sleep(0.001)  # a lease beat (store I/O, maybe a takeover)
                continue
            if not busy:
                return
            await asyncio.gather(*busy, return_exceptions=True)

    def subscribe(self, callback: Listener) -> None:
        """Call `await callback(update)` after every committed change of any table."""
        self.shared.listeners.append(callback)

    def unsubscribe(self, callback: Listener) -> None:
        """Stop calling `callback`."""
        with contextlib.suppress(ValueError):
            self.shared.listeners.remove(callback)

    # ------------------------------------------------------------------ queries

    def session(self, table_id: int) -> TableSession | None:
        """The session of the open table `table_id`, or None."""
        return self._by_id.get(table_id)

    def state(self, channel: int) -> TableState | None:
        """The public snapshot of the open table in `channel`, or None."""
        table = self._by_channel.get(channel)
        return table.snapshot if table else None

    def state_by_id(self, table_id: int) -> TableState | None:
        """The public snapshot of the open table `table_id`, or None."""
        table = self._by_id.get(table_id)
        return table.snapshot if table else None

    def tables(self) -> list[TableState]:
        """Snapshots of every open table of a channel (a practice table is its member's)."""
        return [t.snapshot for t in self._by_id.values() if t.policy.channel_table]

    def open_tables(self, guild: int) -> list[TableState]:
        """Snapshots of the open channel tables of one server, oldest first."""
        tables = [t for t in self._by_id.values()
                  if t.row.guild_id == guild and not t.closed and t.policy.channel_table]
        return [t.snapshot for t in sorted(tables, key=lambda t: t.id)]

    def table_of(self, guild: int, user: int) -> TableState | None:
        """The open table of this server where `user` sits, or None."""
        table = self._table_of(guild, user)
        return table.snapshot if table else None

    def hand_for(self, guild: int, channel: int, user: int) -> PlayerHand:
        """What `user` may see of the hand in progress (private: send it ephemeral).
        Raises TableError no_table / not_in_hand."""
        return self._get(guild, channel).hand_for(user)

    # ------------------------------------------------------------------ lobby

    async def check_can_open(self, guild: int, user: int) -> None:
        """Raise the TableError `open_table` would raise for `user` alone (seated at another
        table of this server, or too few chips), before a thread is made for the table."""
        if self._table_of(guild, user) is not None:
            raise TableError("seated_elsewhere")
        await check_balance(self.store, guild, user, (await self.store.get_stakes(guild)).ante)

    async def open_table(
        self, guild: int, channel: int, user: int, *, own_thread: bool = False,
        lang: str | None = None,
    ) -> TableState:
        """Open a table in `channel` (copying the server's stakes); the opener sits, speaking
        `lang` ("it"/"en": the table's language while they sit, where the server pinned none).
        `own_thread`: `channel` is a thread made for this table (archived when it closes)."""
        async with self._seating:
            if channel in self._by_channel:
                raise TableError("table_exists")
            if self._table_of(guild, user) is not None:
                raise TableError("seated_elsewhere")
            stakes = await self.store.get_stakes(guild)
            await check_balance(self.store, guild, user, stakes.ante)
            meta = TableMeta(seed=self._rng.getrandbits(63), absence=self.shared.absence_rule(),
                             own_thread=own_thread)
            meta.sat_in(user, lang)
            try:
                row = await self.store.create_table(
                    guild, channel, settings=stakes.to_dict(), seats=[user], meta=meta.to_dict(),
                    secret=self.shared.table_secret(),
                )
            except TableExists:  # not in memory: another process holds it (crashed, maybe)
                raise TableError("table_resuming") from None
            if self.leases is not None and not await self.leases.claim(row.id):
                raise TableError("busy")  # another process took the new table: it drives it
            timeout = await self._timeout_for(guild)
            table = TableSession(self.shared, row, meta, None, timeout, self.policy_for(meta))
            self._register(table)
            await table.refresh_balances()
            table.refresh()
            update = table.update("opened", [], [note("tables.opened", player=user)])
        await self.shared.publish([update])
        return table.snapshot

    async def open_tournament(
        self, channel: int, create: Callable[[], Awaitable[TableRow]]
    ) -> TableState:
        """Open a tournament's table in `channel` and deal its first hand. `create` writes the
        table's row (with the tournament's start, in one transaction: the tournament service's
        `start`); the row's meta holds the tournament, whose policy `policy_for` gives."""
        async with self._seating:
            if channel in self._by_channel:
                raise TableError("table_exists")
            try:
                row = await create()
            except TableExists:
                raise TableError("table_exists") from None
            if self.leases is not None and not await self.leases.claim(row.id):
                raise TableError("busy")  # another process took the new table: it drives it
            meta = self.shared.read_meta(row.meta)
            timeout = await self._timeout_for(row.guild_id)
            table = TableSession(self.shared, row, meta, None, timeout, self.policy_for(meta))
            self._register(table)
            await table.refresh_balances()
            table.refresh()
            updates = [table.update("opened", [], [])]
            async with table.lock:
                updates += await table.next_hand(table.meta.copy())
        return await self._publish(table, updates)

    # ------------------------------------------------------------------ practice tables

    def practice(self, user: int) -> PracticeTable | None:
        """`user`'s open practice table (`bot.tables.policies.practice`): its snapshot and
        their view of the hand; None without one."""
        table = self._practice(user)
        return None if table is None else self._practice_view(table, user)

    def practice_table(self, user: int, table_id: int) -> PracticeTable:
        """`user`'s practice table a button was drawn for: TableError "no_table" without one,
        "stale_button" when the button is another (closed) table's."""
        return self._practice_view(self._own_practice(user, table_id), user)

    async def open_practice(self, guild: int, user: int, cpus: int, level: str,
                            lang: str | None = None) -> TableState:
        """`user`'s practice table against `cpus` CPU players of `level`, with the server's
        stakes and practice chips, its first hand dealt; their open one if they have one.
        `lang`: the member's language, kept with their seat."""
        if level not in LEVELS:
            raise TableError("bad_level", level=level, levels=", ".join(LEVELS))
        async with self._seating:
            table = self._practice(user)
            if table is not None:
                return table.snapshot
            stakes = await self.store.get_stakes(guild)
            meta = practice_meta(
                TableMeta(seed=self._rng.getrandbits(63)), user, cpus, level, stakes.ante
            )
            meta.sat_in(user, lang)
            try:
                row = await self.store.create_table(
                    guild, practice_channel(user), settings=stakes.to_dict(), seats=[user],
                    meta=meta.to_dict(), secret=self.shared.table_secret(),
                )
            except TableExists:  # not in memory: another process holds it (crashed, maybe)
                raise TableError("table_resuming") from None
            if self.leases is not None and not await self.leases.claim(row.id):
                raise TableError("busy")
            table = TableSession(self.shared, row, meta, None, self.turn_timeout,
                                 self.policy_for(meta))
            self._register(table)
            await table.refresh_balances()
            async with table.lock:
                updates = await table.next_hand(table.meta.copy(), strict=True)
        await self.shared.publish(updates)
        await table.cpus.played()
        return table.snapshot

    async def practice_act(self, user: int, table_id: int, action: Action | None,
                           expected_hand: int | None, expected_turn: int | None) -> TableState:
        """`user`'s move at their practice table `table_id` (None: a move that reads as none,
        TableError "bad_action"), then the CPU seats' moves."""
        table = self._own_practice(user, table_id)
        if action is None:
            raise TableError("bad_action", text="")
        chosen = action
        return await self._play_practice(
            table, lambda s: s.apply(user, chosen, expected_hand, expected_turn)
        )

    async def practice_next(self, user: int, table_id: int) -> TableState:
        """Next hand at `user`'s practice table (a second click while the hand plays is a
        stale button, not a new deal)."""
        table = self._own_practice(user, table_id)
        if table.in_hand:
            raise TableError("stale_button")
        return await self._play_practice(table, lambda s: s.start_game(user))

    async def practice_leave(self, user: int, table_id: int) -> TableState:
        """`user` leaves their practice table: it closes (nothing to refund)."""
        table = self._own_practice(user, table_id)
        notice = note("tables.left", player=user)
        return await self._play_practice(table, lambda s: s.remove(user, "left", notice))

    def _practice(self, user: int) -> TableSession | None:
        return self._by_channel.get(practice_channel(user))

    def _own_practice(self, user: int, table_id: int) -> TableSession:
        table = self._practice(user)
        if table is None:
            raise TableError("no_table")
        if table.id != table_id:
            raise TableError("stale_button")
        return table

    @staticmethod
    def _practice_view(table: TableSession, user: int) -> PracticeTable:
        seated = table.hand is not None and table.meta.in_play.seat_of(user) is not None
        return PracticeTable(table.snapshot, table.hand_for(user) if seated else None)

    async def _play_practice(
        self, table: TableSession, change: Callable[[TableSession], Awaitable[list[Update]]]
    ) -> TableState:
        """One change of a practice table, then the CPU seats' moves: the snapshot is at the
        member's next decision or the hand's end."""
        await self._run(table.row.guild_id, table.row.channel_id, change, table=table)
        await table.cpus.played()
        return table.snapshot

    async def join(self, guild: int, channel: int, user: int,
                   lang: str | None = None) -> TableState:
        """Sit `user` at the table (3-6 seats, one table per server, 10 x ante to sit),
        speaking `lang` ("it"/"en", kept with their seat; None: not known).

        During a hand the new player waits for the next one.
        """
        async with self._seating:
            table = self._get(guild, channel)
            async with table.lock:
                if (
                    not table.closed
                    and user not in table.meta.in_play.leaving
                    and user not in table.row.seats
                    and self._table_of(guild, user) is not None
                ):
                    raise TableError("seated_elsewhere")
                updates = await table.join(user, lang)
        return await self._publish(table, updates)

    async def add_cpu(self, guild: int, channel: int, by: int, level: str = "easy") -> TableState:
        """Seat a CPU player of `level` (one of `LEVELS`); `by` must be seated."""
        if level not in LEVELS:
            raise TableError("bad_level", level=level, levels=", ".join(LEVELS))
        async with self._seating:
            table = self._get(guild, channel)
            async with table.lock:
                updates = await table.add_cpu(by, level)
        return await self._publish(table, updates)

    async def leave(self, guild: int, channel: int, user: int) -> TableState:
        """`user` leaves: at once between hands, else at the end of the hand (defaulting)."""
        notice = note("tables.left", player=user)
        return await self._run(guild, channel, lambda s: s.remove(user, "left", notice))

    async def back(self, guild: int, user: int) -> TableState | None:
        """A sat-out `user` is back at their table of this server (None when they sit nowhere;
        nothing changes when they were not sat out)."""
        table = self._table_of(guild, user)
        if table is None:
            return None
        return await self._run(guild, table.row.channel_id, lambda s: s.back(user),
                               table=table)

    async def kick(self, guild: int, channel: int, by: int, user: int) -> TableState:
        """Admin: remove `user` (at once between hands, else at the end of the hand)."""
        notice = note("tables.kicked", player=user, by=by)
        return await self._run(guild, channel, lambda s: s.remove(user, "kicked", notice))

    async def start_game(self, guild: int, channel: int, user: int) -> TableState:
        """Start play (any seated player): deal the first hand if 3 players can pay the ante."""
        return await self._run(guild, channel, lambda s: s.start_game(user))

    async def call_round(self, guild: int, channel: int, user: int) -> TableState:
        """R-14: any seated player calls the round; the table closes once every player has
        dealt the same number of times (at once if no hand is running)."""
        return await self._run(guild, channel, lambda s: s.call_round(user))

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

    async def _close_now(self, table: TableSession, notice: Notice) -> TableState:
        """Close `table` under its lock (escrow refunded), then publish the closed state."""
        async with table.lock:
            table.check_open()
            updates = await table.close(Close(table.meta.copy(), [notice]))
        await self.shared.publish(updates)
        return updates[-1].state

    def table_unseen(self, table_id: int) -> None:
        """The listener could not show the table (Discord refused the bot its channel): the
        service stops the turn timeouts until `table_seen`; a timer already asleep finds the
        pause when it wakes and does nothing. CPU seats still play; a human's turn waits."""
        table = self._by_id.get(table_id)
        if table is not None and table.pause_clock():
            log.info("table %s: turn clock paused (its message cannot be shown)", table_id)

    def table_seen(self, table_id: int) -> None:
        """The listener showed the table's latest state: a paused turn clock runs again (a
        deadline that passed meanwhile becomes a full turn from now)."""
        table = self._by_id.get(table_id)
        if table is not None and table.resume_clock():
            log.info("table %s: turn clock resumed", table_id)

    def clock_paused(self, table_id: int) -> bool:
        """Whether the turn clock of the table is paused."""
        table = self._by_id.get(table_id)
        return table is not None and table.clock.paused

    async def message_posted(self, table_id: int, message_id: int | None) -> TableState:
        """The listener posted the table's public message as `message_id`: the service keeps
        it with the table (TableError "no_table" once it is gone)."""
        table = self._by_id.get(table_id)
        if table is None:
            raise TableError("no_table")
        async with table.lock:
            await table.set_message(message_id)
        return table.snapshot

    # ------------------------------------------------------------------ play

    def can_act(self, guild: int, channel: int, user: int, expected_hand: int | None = None,
                expected_turn: int | None = None) -> None:
        """Raise the TableError `act` would raise now for `user` with a button of this hand
        and turn (a stranger, a stale button, no hand, not their turn); the cog checks
        before it defers, the session again under its lock - one check, said once."""
        self._get(guild, channel).can_act(user, expected_hand, expected_turn)

    async def act(
        self,
        guild: int,
        channel: int,
        user: int,
        action: Action | str,
        *,
        expected_hand: int | None = None,
        expected_turn: int | None = None,
        lang: str | None = None,
    ) -> TableState:
        """Apply `user`'s engine action (or its text, "bet 30") if it is their turn.

        `expected_hand`/`expected_turn` are the tokens of the snapshot the button was built
        from; a mismatch (double click, stale button) raises TableError("stale_button").
        Engine refusals raise `IllegalAction` (code/params, messages in engine.toml).
        `lang`: the language the player speaks now ("it"/"en"), kept with their seat.
        """
        table = self._get(guild, channel)
        if isinstance(action, str):
            try:
                action = parse_action(action)
            except ValueError:
                raise TableError("bad_action", text=action) from None
        chosen = action
        return await self._run(
            guild, channel,
            lambda s: s.apply(user, chosen, expected_hand, expected_turn, lang=lang),
            table=table,
        )

    # ------------------------------------------------------------------ internals

    async def _run(
        self,
        guild: int,
        channel: int,
        change: Callable[[TableSession], Awaitable[list[Update]]],
        *,
        table: TableSession | None = None,
    ) -> TableState:
        """Run one change of a table under its lock, then publish (outside the lock)."""
        table = table or self._get(guild, channel)
        async with table.lock:
            updates = await change(table)
        return await self._publish(table, updates)

    async def _publish(self, table: TableSession, updates: list[Update]) -> TableState:
        """Hand the updates to the listeners and return the table's snapshot."""
        await self.shared.publish(updates)
        return table.snapshot

    def _register(self, table: TableSession) -> None:
        self._by_channel[table.row.channel_id] = table
        self._by_id[table.id] = table

    def _forget(self, table_id: int) -> None:
        """A session closed: it is no longer the table of its channel."""
        table = self._by_id.pop(table_id, None)
        if table is not None and self._by_channel.get(table.row.channel_id) is table:
            del self._by_channel[table.row.channel_id]

    def _get(self, guild: int, channel: int) -> TableSession:
        table = self._by_channel.get(channel)
        if table is None or table.row.guild_id != guild:
            raise self.missing(channel)
        return table

    def missing(self, channel: int) -> TableError:
        """The refusal for a channel without a table driven here: "no table", or, while its
        open table waits for another process's lease to expire (that process crashed), "being
        picked up" - the same answer to every command, `/stoppa new` included."""
        if self.leases is not None and channel in self.leases.elsewhere:
            return TableError("table_resuming")
        return TableError("no_table")

    def missing_table(self, table_id: int) -> TableError:
        """The refusal for a table id not driven here: closed, or being picked up."""
        if self.leases is not None and table_id in self.leases.elsewhere.values():
            return TableError("table_resuming")
        return TableError("table_closed")

    def table_here(self, guild: int, channel: int) -> TableState:
        """The snapshot of the open table of `channel`; raises `missing(channel)` without."""
        return self._get(guild, channel).snapshot

    def _table_of(self, guild: int, user: int) -> TableSession | None:
        for table in self._by_id.values():
            if not table.policy.channel_table:  # a practice table is no seat in the server
                continue
            if table.row.guild_id == guild and user in table.row.seats:
                return table
        return None

    async def _timeout_for(self, guild: int) -> float:
        settings = await self.store.server_settings(guild)
        value = settings.turn_timeout
        return float(value) if value else self.turn_timeout

    # ------------------------------------------------------------------ resume

    async def _resume(self) -> None:
        """Load the open tables (with leases: those of this process's servers whose lease it
        takes), then deal or run the clock of each."""
        if self.leases is not None:
            rows = await self.leases.claimable()
        else:
            rows = await self.store.load_open_tables()
        sessions = [table for row in rows if (table := await self._load(row)) is not None]
        for table in sessions:
            await self._begin(table)

    async def _load(self, row: TableRow) -> TableSession | None:
        """A session for the stored table, registered; None when its state cannot be loaded
        (then it is closed with refunds)."""
        try:
            meta = self.shared.read_meta(row.meta)
            hand = Hand.from_json(row.state) if row.state else None
            if hand is not None and len(meta.in_play.players) != len(hand.chips):
                raise ValueError("players and hand seats differ")
            policy = self.policy_for(meta)
        except UnknownKind:  # a kind this service cannot play: left as it is, not closed
            log.error("table %s: no policy for its kind here; not resumed", row.id)
            return None
        except Exception as exc:
            log.exception("table %s: state cannot be loaded; closing with refunds", row.id)
            try:
                await close_unloadable(self.store, row, exc, self.shared.fence())
            except Exception:
                log.exception("table %s: cannot be closed either; left as it is", row.id)
            return None
        timeout = await self._timeout_for(row.guild_id)
        table = TableSession(self.shared, row, meta, hand, timeout, policy)
        self._register(table)
        await table.refresh_balances()
        table.refresh()
        log_table_event(
            row.guild_id, row.channel_id, f"table {row.id} resumed ({row.status})", table=row.id
        )
        return table

    async def _begin(self, table: TableSession) -> None:
        try:
            await table.begin()
        except Exception:
            log.exception("table %s: cannot deal the next hand at start", table.id)

    async def _adopt(self, row: TableRow) -> None:
        """Resume a table whose lease this process just took over (its owner died or let it
        go): its turn clock runs from the stored deadline."""
        async with self._seating:
            if row.id in self._by_id or self.shared.stopped:
                return
            table = await self._load(row)
        if table is not None:
            await self._begin(table)

    def _let_go(self, table_id: int) -> None:
        """Stop driving a table whose lease was lost (no write; memory only)."""
        table = self._by_id.get(table_id)
        if table is not None:
            table.let_go()
