"""`TournamentService`: sit-and-go tournaments for the Discord side (Discord-free).

The cog calls it; it keeps the tournament rows of the store (registration, escrowed
buy-ins, refunds, payouts) and opens the tournament's table on the `TableService`, which
plays the hands (see `bot.tournaments.table_policy`). Who may open or cancel a tournament is
the cog's check (`ServerSettings.tournaments_open`, manager permissions): the service only
records the opener.

Refusals are `TournamentError` (the store's: `error.message(lang)`, text `store.<code>`),
`RankedError` (`t(error.key, lang, **error.params)`, text `ranked.*`) or the table service's
`TableError`; nothing changed when one is raised.

The tournament's `TournamentRecord` (state, opener, CPU levels) is its row's JSON; once it
runs, its table's meta holds it too and every hand writes both in one transaction.
Registration order is seat order. A CPU entrant registers like a member, its buy-in taken
from its own account (created with the server's starting balance, as a table CPU's is).
"""

from __future__ import annotations

import asyncio
import random
from collections import defaultdict
from dataclasses import replace

from bot.engine import MIN_PLAYERS, Rules
from bot.fairness import first_dealer
from bot.players import LEVELS
from bot.ratings.errors import RankedError
from bot.store import StoreContract, TableRow, TournamentRow
from bot.store.errors import TournamentError
from bot.store.models import UNSET, Unset
from bot.tables.errors import TableError
from bot.tables.meta import TableMeta
from bot.tables.service import TableService
from bot.tables.updates import TableState
from bot.tournaments import table_policy
from bot.tournaments.config import TournamentConfig
from bot.tournaments.info import Posts, TournamentInfo
from bot.tournaments.record import TournamentRecord
from bot.tournaments.state import TournamentState, new_tournament, start

__all__ = ["RankedError", "TournamentError", "TournamentService"]


class TournamentService:
    """Tournaments of the servers of one process, beside its `TableService`."""

    def __init__(
        self, store: StoreContract, tables: TableService, *, seed: int | None = None
    ) -> None:
        self.store = store
        self.tables = tables
        self._rng = random.Random(seed)
        #: one change at a time per tournament (its record is read, changed and written)
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    async def create(
        self, guild: int, channel: int, by: int, config: TournamentConfig
    ) -> TournamentInfo:
        """Open a tournament for registration in `channel` (the opener is not registered)."""
        config.check()
        record = TournamentRecord(new_tournament(config), opened_by=by)
        row = await self.store.create_tournament(
            guild, channel, buy_in=config.buy_in, max_players=config.seats,
            state=record.to_json(),
        )
        return _info(row, record)

    async def join(self, tournament_id: int, user: int,
                   lang: str | None = None) -> TournamentInfo:
        """Register `user`, escrowing the buy-in from their balance; `lang` ("it"/"en"), the
        language they registered in, is kept with the entry (their table speaks it)."""
        async with self._locks[tournament_id]:
            row = await self._registering(tournament_id)
            if self.tables.table_of(row.guild_id, user) is not None:
                raise TableError("seated_elsewhere")  # one table at a time per server
            row = await self.store.register(tournament_id, user, lang=lang)
        return _info(row, _record(row))

    async def leave(self, tournament_id: int, user: int) -> TournamentInfo:
        """Withdraw `user` before the start, refunding the buy-in."""
        async with self._locks[tournament_id]:
            await self._registering(tournament_id)
            row = await self.store.unregister(tournament_id, user)
        return _info(row, _record(row))

    async def add_cpu(self, tournament_id: int, by: int, level: str) -> TournamentInfo:
        """Register a CPU entrant of `level` (one of `LEVELS`); it pays its buy-in
        from its own CPU account, like a table CPU."""
        if level not in LEVELS:
            raise TableError("bad_level", level=level, levels=", ".join(LEVELS))
        async with self._locks[tournament_id]:
            row = await self._registering(tournament_id)
            record = _record(row)
            cpu = table_policy.cpu_id(tournament_id, set(row.entrants))
            if cpu is None or len(row.entrants) >= record.state.config.seats:
                raise RankedError("ranked.tournament_full", seats=record.state.config.seats)
            record = record.with_cpu(cpu, level)
            # the level first: a CPU registered without one would play as "easy"
            row = await self.store.save_tournament(
                tournament_id, expected_version=row.version, state=record.to_json()
            )
            row = await self.store.register(tournament_id, cpu)
        return _info(row, record)

    async def cancel(self, tournament_id: int, by: int) -> TournamentInfo:
        """Cancel a registering or running tournament, refunding every buy-in (a running one
        closes its table: see `bot.tournaments.table_policy`)."""
        async with self._locks[tournament_id]:
            row = await self.store.get_tournament(tournament_id)
            table = None if row.table_id is None else self.tables.session(row.table_id)
            if row.status == "running" and table is not None:
                await self.tables.force_close(row.guild_id, table.row.channel_id, by)
            else:
                await self.store.cancel_tournament(tournament_id)
            row = await self.store.get_tournament(tournament_id)
        return _info(row, _record(row))

    async def start(self, tournament_id: int, *, channel: int, own_thread: bool) -> TableState:
        """Seat the entrants at a new tournament table in `channel` and deal; the tournament
        becomes running with its table, in one transaction with the table's creation."""
        async with self._locks[tournament_id]:
            row = await self._registering(tournament_id)
            if any(self.tables.table_of(row.guild_id, u) for u in row.entrants if u > 0):
                raise TableError("entrant_seated_elsewhere")  # one table at a time
            record = _record(row)
            seated = TournamentState(
                record.state.config, players=tuple(str(u) for u in row.entrants)
            )
            # the table's fair-deal secret is drawn now: it draws the first dealer and
            # is written with the table and its commitment (docs/fairness.md)
            secret = self.tables.shared.table_secret()
            begun = start(seated, self._rng.getrandbits(63))
            dealer = first_dealer(secret, len(seated.players))
            record = record.with_state(replace(begun, dealer=dealer))
            stakes = await self.store.get_stakes(row.guild_id)
            settings = table_policy.table_settings(
                stakes.to_dict(), record.state.config.schedule.level(0)
            )
            try:  # the server's variants with the tournament's stakes, at every table size
                for players in range(MIN_PLAYERS, record.state.config.seats + 1):
                    Rules(**{**settings, "players": players})
            except (TypeError, ValueError) as exc:
                raise TableError("bad_stakes", reason=str(exc)) from None
            shared = self.tables.shared
            meta = TableMeta(
                seed=self._rng.getrandbits(63), started=True, absence=shared.absence_rule(),
                own_thread=own_thread,
            )
            for user, level in record.cpus.items():
                meta.seat_cpu(user, level, shared.cpu_seed())
            for user in row.entrants:
                meta.sat_in(user, row.languages.get(user))
            table_policy.keep(meta, tournament_id, record)

            async def create() -> TableRow:
                _, table = await self.store.start_tournament(
                    tournament_id, expected_version=row.version, state=record.to_json(),
                    channel=channel, settings=settings,
                    seats=list(row.entrants), meta=meta.to_dict(), secret=secret,
                )
                return table

            return await self.tables.open_tournament(channel, create)

    async def info(self, tournament_id: int) -> TournamentInfo:
        """The tournament now (TournamentError tournament_not_found)."""
        row = await self.store.get_tournament(tournament_id)
        return _info(row, _record(row))

    async def open_in(self, guild: int) -> list[TournamentInfo]:
        """The server's tournaments registering or running, oldest first."""
        rows = await self.store.open_tournaments(guild)
        full = [await self.store.get_tournament(r.id) for r in rows]
        return [_info(row, _record(row)) for row in full]

    async def note_posts(
        self, tournament_id: int, *, registration: tuple[int, int] | Unset = UNSET,
        results_posted: bool | Unset = UNSET,
    ) -> None:
        """Keep in the tournament's row what the cog posted: the registration message
        (channel id, message id), or that the results are posted."""
        await self.store.note_tournament_posts(
            tournament_id, message=registration, results_posted=results_posted
        )

    async def to_post(self, guild: int) -> list[TournamentInfo]:
        """The server's finished tournaments whose results were never posted (the process
        stopped between the payout and the post), oldest first."""
        rows = await self.store.tournaments_to_post(guild)
        full = [await self.store.get_tournament(r.id) for r in rows]
        return [_info(row, _record(row)) for row in full]

    async def _registering(self, tournament_id: int) -> TournamentRow:
        """The tournament's row while it is open for registration (TournamentError)."""
        row = await self.store.get_tournament(tournament_id)
        if row.status != "open":
            raise TournamentError("tournament_not_open")
        return row


def _record(row: TournamentRow) -> TournamentRecord:
    if not row.state:
        raise TournamentError("tournament_not_found")
    return TournamentRecord.from_json(row.state)


def _info(row: TournamentRow, record: TournamentRecord) -> TournamentInfo:
    info = record.info(
        tournament_id=row.id, guild=row.guild_id, channel=row.channel_id, status=row.status,
        entrants=row.entrants, table_id=row.table_id, pool=row.pool,
    )
    registration = (
        None if row.message_channel_id is None or row.message_id is None
        else (row.message_channel_id, row.message_id)
    )
    return replace(info, posts=Posts(registration, row.table_channel_id, row.results_posted),
                   languages=dict(row.languages))
