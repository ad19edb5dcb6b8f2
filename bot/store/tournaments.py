"""Tournaments: entries whose buy-ins sit in the tournament's own ledger account (its pool)
until they are paid out to the winners or refunded.

Every operation is one transaction and locks the tournament's row first (a conditional
UPDATE), so registrations never pass `max_players` and the pool never pays twice; every chip
moved has a ledger row between a user and the `tournament` account, and the audit checks each
pool against the ledger. On PostgreSQL the conditional UPDATE that comes first locks the row
and is re-checked on its newest version: concurrent registrations never pass `max_players`,
and a pool is paid out or refunded once; accounts are then updated in user-id order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.store.driver import Driver
from bot.store.errors import TournamentError
from bot.store.ledger import USER, Account, Tx
from bot.store.models import (
    REASON_BUY_IN,
    REASON_BUY_IN_REFUND,
    REASON_PRIZE,
    UNSET,
    TournamentRow,
    Unset,
)
from bot.store.sql import Body, Columns, Statement

TOURNAMENT = "tournament"
T_COLUMNS = (
    "id, guild_id, channel_id, table_id, state, status, buy_in, max_players, pool, version,"
    " created_at, updated_at, message_channel_id, message_id, table_channel_id, results_posted"
)
CREATE = (
    "INSERT INTO tournaments (guild_id, channel_id, state, status, buy_in, max_players,"
    f" created_at, updated_at) VALUES (?, ?, ?, 'open', ?, ?, ?, ?) RETURNING {T_COLUMNS}"
)
GET = f"SELECT {T_COLUMNS} FROM tournaments WHERE id = ?"
ENTRANTS = (
    "SELECT user_id, lang FROM tournament_entries WHERE tournament_id = ? ORDER BY at, user_id"
)
ENTRIES = "SELECT user_id, paid FROM tournament_entries WHERE tournament_id = ? ORDER BY user_id"
ENTER = (
    "INSERT INTO tournament_entries (tournament_id, user_id, paid, at, lang)"
    " SELECT id, ?, buy_in, ?, ? FROM tournaments WHERE id = ?"
    " ON CONFLICT (tournament_id, user_id) DO NOTHING RETURNING paid"
)
TAKE_SEAT = (
    "UPDATE tournaments SET pool = pool + ?, entrants = entrants + 1, updated_at = ?"
    " WHERE id = ? AND status = 'open' AND entrants < max_players RETURNING guild_id"
)
#: lock a tournament still in play: updated_at, id, statuses allowed
LOCK = (
    "UPDATE tournaments SET updated_at = ? WHERE id = ? AND status IN ({statuses})"
    " RETURNING guild_id, pool"
)
LEAVE = "DELETE FROM tournament_entries WHERE tournament_id = ? AND user_id = ? RETURNING paid"
GIVE_SEAT = "UPDATE tournaments SET pool = pool - ?, entrants = entrants - 1 WHERE id = ?"
END = (
    "UPDATE tournaments SET status = ?, pool = 0, version = version + 1 WHERE id = ?"
    f" RETURNING {T_COLUMNS}"
)
OF_GUILD = (
    f"SELECT {T_COLUMNS} FROM tournaments WHERE guild_id = ? AND status IN ('open', 'running')"
    " ORDER BY id"
)
MAX_PLAYERS = 64
#: the language an entrant speaks now (`TournamentSave.languages`)
ENTRY_LANGUAGE = (
    "UPDATE tournament_entries SET lang = ? WHERE tournament_id = ? AND user_id = ?"
)
#: a running tournament's state written with its table's save (`TournamentSave`)
SAVE_RUNNING = (
    "UPDATE tournaments SET state = ?, version = version + 1, updated_at = ?"
    " WHERE id = ? AND status = 'running' RETURNING id"
)
#: `start_tournament`: a full open tournament at `expected_version` starts running
START = (
    "UPDATE tournaments SET state = ?, status = 'running', version = version + 1,"
    " updated_at = ? WHERE id = ? AND version = ? AND status = 'open'"
    " AND entrants = max_players RETURNING guild_id"
)
#: the tournament's new table and, in the same write, the channel or thread it plays in
SET_TABLE = (
    "UPDATE tournaments SET (table_id, table_channel_id) ="
    f" (SELECT id, channel_id FROM tables WHERE id = ?) WHERE id = ? RETURNING {T_COLUMNS}"
)
#: the finished tournaments of a server whose results the cog has not posted yet
TO_POST = (
    f"SELECT {T_COLUMNS} FROM tournaments WHERE guild_id = ? AND status = 'finished'"
    " AND results_posted = 0 ORDER BY id"
)


def lock_sql(*statuses: str) -> str:
    return LOCK.format(statuses=", ".join(f"'{s}'" for s in statuses))


def tournament_row(r: Any, entrants: Sequence[Any] = ()) -> TournamentRow:
    return TournamentRow(
        id=int(r[0]),
        guild_id=int(r[1]),
        channel_id=int(r[2]),
        table_id=None if r[3] is None else int(r[3]),
        state=r[4],
        status=str(r[5]),
        buy_in=int(r[6]),
        max_players=int(r[7]),
        pool=int(r[8]),
        version=int(r[9]),
        created_at=float(r[10]),
        updated_at=float(r[11]),
        entrants=[int(e[0]) for e in entrants],
        languages={int(e[0]): str(e[1]) for e in entrants if len(e) > 1 and e[1] is not None},
        message_channel_id=None if r[12] is None else int(r[12]),
        message_id=None if r[13] is None else int(r[13]),
        table_channel_id=None if r[14] is None else int(r[14]),
        results_posted=bool(r[15]),
    )


def posts_update(
    message: tuple[int, int] | Unset, table_channel: int | Unset, results_posted: bool | Unset
) -> tuple[str, list[object]]:
    """`note_tournament_posts`' UPDATE (`?` placeholders, the id last) and its values. The
    version is not bumped: these are the cog's notes, not the tournament's state."""
    changes: dict[str, object] = {}
    if not isinstance(message, Unset):
        changes["message_channel_id"], changes["message_id"] = message
    if not isinstance(table_channel, Unset):
        changes["table_channel_id"] = table_channel
    if not isinstance(results_posted, Unset):
        changes["results_posted"] = int(results_posted)
    sets = ", ".join(f"{column} = ?" for column in changes) or "id = id"
    return f"UPDATE tournaments SET {sets} WHERE id = ? RETURNING id", list(changes.values())


def check_new(buy_in: int, max_players: int) -> None:
    """ValueError for a buy-in that is not whole chips >= 0 or a size outside 2..64."""
    for value in (buy_in, max_players):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError("buy_in and max_players are integers")
    if buy_in < 0 or not 2 <= max_players <= MAX_PLAYERS:
        raise ValueError(f"buy_in >= 0 and 2 <= max_players <= {MAX_PLAYERS}")


def check_payouts(payouts: Mapping[int, int], pool: int, entrants: set[int]) -> list[int]:
    """The winners in id order; TournamentError unless every prize is whole chips above zero
    to an entrant and the prizes add up to the pool exactly."""
    for user, amount in payouts.items():
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            raise TournamentError("tournament_payout_bad")
        if user not in entrants:
            raise TournamentError("tournament_payout_bad")
    total = sum(payouts.values())
    if total != pool:
        raise TournamentError("tournament_payout_mismatch", {"pool": pool, "total": total})
    return sorted(payouts)


def refused(current: Any, expected_version: int | None = None) -> TournamentError:
    """Why a conditional update of the tournament found no row (`current`: GET's rows)."""
    if not current:
        return TournamentError("tournament_not_found")
    row = tournament_row(current[0])
    if row.status not in ("open", "running"):
        return TournamentError("tournament_not_open")
    if expected_version is not None and row.version != expected_version:
        return TournamentError("tournament_version_conflict")
    return TournamentError("tournament_not_open")


def save_changes(
    state: str | Unset | None, status: str | Unset, table_id: int | Unset | None
) -> Columns:
    """The columns `save_tournament` sets; ValueError for a status other than open/running
    (a tournament ends only through `pay_tournament` or `cancel_tournament`)."""
    changes: Columns = {}
    if not isinstance(state, Unset):
        changes["state"] = state
    if not isinstance(status, Unset):
        if status not in ("open", "running"):
            raise ValueError(f"save_tournament sets open or running, not {status!r}")
        changes["status"] = status
    if not isinstance(table_id, Unset):
        changes["table_id"] = table_id
    return changes


def refused_start(current: Any, expected_version: int) -> TournamentError:
    """Why START matched no row: gone, no longer open, changed meanwhile, or seats still
    free (the service checks that first: then it is "not open" too)."""
    row = tournament_row(current[0]) if current else None
    if row is not None and row.status == "open" and row.version != expected_version:
        return TournamentError("tournament_version_conflict")
    return refused(current)


def _pool(t: int) -> Account:
    return Account(TOURNAMENT, t)


class TournamentsMixin(Driver):
    """Tournaments (both databases)."""

    async def create_tournament(
        self,
        guild: int,
        channel: int,
        *,
        buy_in: int,
        max_players: int,
        state: str | None = None,
        now: float | None = None,
    ) -> TournamentRow:
        """A new tournament open for registration, with an empty pool."""
        check_new(buy_in, max_players)

        def create(tx: Tx) -> Body[TournamentRow]:
            values = (guild, channel, state, buy_in, max_players, tx.now, tx.now)
            return tournament_row((yield Statement(CREATE, values))[0])

        return await self._transaction(create, now)

    async def get_tournament(self, tournament_id: int) -> TournamentRow:
        """The tournament with its entrants (TournamentError tournament_not_found)."""
        return await self._read(lambda: read_tournament(tournament_id))

    async def open_tournaments(self, guild: int) -> list[TournamentRow]:
        """The server's tournaments still open or running, oldest first (no entrants)."""
        return [tournament_row(r) for r in await self.query(OF_GUILD, (guild,))]

    async def register(
        self, tournament_id: int, user: int, *, lang: str | None = None,
        now: float | None = None,
    ) -> TournamentRow:
        """Enter `user` (speaking `lang`, "it"/"en", kept with the entry), moving the buy-in
        from their balance into the pool (TournamentError: registered, full, not open;
        InsufficientFunds)."""

        def enter(tx: Tx) -> Body[TournamentRow]:
            if not (yield Statement(ENTER, (user, tx.now, lang, tournament_id))):
                raise refused_entry((yield Statement(GET, (tournament_id,))))
            current = tournament_row((yield Statement(GET, (tournament_id,)))[0])
            if not (yield Statement(TAKE_SEAT, (current.buy_in, tx.now, tournament_id))):
                again = tournament_row((yield Statement(GET, (tournament_id,)))[0])
                full = again.status == "open"
                raise TournamentError("tournament_full" if full else "tournament_not_open")
            if current.buy_in:
                yield from tx.add_to_user(current.guild_id, user, -current.buy_in)
                tx.record(
                    current.guild_id,
                    Account(USER, user),
                    _pool(tournament_id),
                    current.buy_in,
                    REASON_BUY_IN,
                )
            return (yield from read_tournament(tournament_id))

        return await self._transaction(enter, now)

    async def unregister(
        self, tournament_id: int, user: int, *, now: float | None = None
    ) -> TournamentRow:
        """Withdraw `user` before the start, refunding their buy-in."""

        def leave(tx: Tx) -> Body[TournamentRow]:
            locked = yield Statement(lock_sql("open"), (tx.now, tournament_id))
            if not locked:
                raise refused((yield Statement(GET, (tournament_id,))))
            paid = yield Statement(LEAVE, (tournament_id, user))
            if not paid:
                raise TournamentError("tournament_not_registered")
            amount = int(paid[0][0])
            yield Statement(GIVE_SEAT, (amount, tournament_id))
            if amount:
                guild = int(locked[0][0])
                yield from tx.add_to_user(guild, user, amount)
                tx.record(
                    guild, _pool(tournament_id), Account(USER, user), amount, REASON_BUY_IN_REFUND
                )
            return (yield from read_tournament(tournament_id))

        return await self._transaction(leave, now)

    async def cancel_tournament(
        self, tournament_id: int, *, now: float | None = None
    ) -> TournamentRow:
        """Cancel an open or running tournament, refunding every buy-in."""

        def cancel(tx: Tx) -> Body[TournamentRow]:
            locked = yield Statement(lock_sql("open", "running"), (tx.now, tournament_id))
            if not locked:
                raise refused((yield Statement(GET, (tournament_id,))))
            guild = int(locked[0][0])
            for user, paid in (yield Statement(ENTRIES, (tournament_id,))):
                if paid:
                    yield from tx.add_to_user(guild, int(user), int(paid))
                    tx.record(
                        guild,
                        _pool(tournament_id),
                        Account(USER, int(user)),
                        int(paid),
                        REASON_BUY_IN_REFUND,
                    )
            yield Statement(END, ("cancelled", tournament_id))
            return (yield from read_tournament(tournament_id))

        return await self._transaction(cancel, now)

    async def save_tournament(
        self,
        tournament_id: int,
        *,
        expected_version: int,
        state: str | Unset | None = UNSET,
        status: str | Unset = UNSET,
        table_id: int | Unset | None = UNSET,
        now: float | None = None,
    ) -> TournamentRow:
        """Save the tournament's state (and status open/running, its current table) if its
        version is still `expected_version` (TournamentError tournament_version_conflict)."""
        changes = save_changes(state, status, table_id)
        sets = "".join(f"{c} = ?, " for c in changes)
        sql = (
            f"UPDATE tournaments SET {sets}version = version + 1, updated_at = ?"
            " WHERE id = ? AND version = ? AND status IN ('open', 'running') RETURNING id"
        )

        def save(tx: Tx) -> Body[TournamentRow]:
            values = (*changes.values(), tx.now, tournament_id, expected_version)
            if not (yield Statement(sql, values)):
                raise refused((yield Statement(GET, (tournament_id,))), expected_version)
            return (yield from read_tournament(tournament_id))

        return await self._transaction(save, now)

    async def pay_tournament(
        self, tournament_id: int, payouts: Mapping[int, int], *, now: float | None = None
    ) -> TournamentRow:
        """Pay the whole pool to the winners by the given amounts (adding up to the pool
        exactly) and close the tournament as finished."""

        def pay(tx: Tx) -> Body[TournamentRow]:
            locked = yield Statement(lock_sql("open", "running"), (tx.now, tournament_id))
            if not locked:
                raise refused((yield Statement(GET, (tournament_id,))))
            guild, pool = int(locked[0][0]), int(locked[0][1])
            entrants = {int(r[0]) for r in (yield Statement(ENTRIES, (tournament_id,)))}
            for user in check_payouts(payouts, pool, entrants):
                yield from tx.add_to_user(guild, user, payouts[user])
                tx.record(
                    guild, _pool(tournament_id), Account(USER, user), payouts[user], REASON_PRIZE
                )
            yield Statement(END, ("finished", tournament_id))
            return (yield from read_tournament(tournament_id))

        return await self._transaction(pay, now)

    async def note_tournament_posts(
        self,
        tournament_id: int,
        *,
        message: tuple[int, int] | Unset = UNSET,
        table_channel: int | Unset = UNSET,
        results_posted: bool | Unset = UNSET,
    ) -> None:
        """Keep what the cog posted: the registration message (channel id, message id), the
        table's channel or thread, the results posted (TournamentError if no such row)."""
        sql, values = posts_update(message, table_channel, results_posted)

        def note(tx: Tx) -> Body[None]:
            if not (yield Statement(sql, (*values, tournament_id))):
                raise TournamentError("tournament_not_found")

        await self._transaction(note)

    async def tournaments_to_post(self, guild: int) -> list[TournamentRow]:
        """The server's finished tournaments whose results are not posted yet (no entrants)."""
        return [tournament_row(r) for r in await self.query(TO_POST, (guild,))]


def refused_entry(current: Any) -> TournamentError:
    """Why ENTER inserted nothing: no such tournament, or the user is already in it."""
    if not current:
        return TournamentError("tournament_not_found")
    return TournamentError("tournament_registered")


def read_tournament(tournament_id: int) -> Body[TournamentRow]:
    """The tournament with its entrants (TournamentError tournament_not_found)."""
    rows = yield Statement(GET, (tournament_id,))
    if not rows:
        raise TournamentError("tournament_not_found")
    return tournament_row(rows[0], (yield Statement(ENTRANTS, (tournament_id,))))
