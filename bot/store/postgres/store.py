"""`PostgresStore`: the store contract on PostgreSQL (asyncpg), for one or many processes.

The same rules as the SQLite store, reused from its pure parts (validation of moves, stakes
and settings, the reason a table save is refused, the audit queries); only the statements
and the concurrency differ: rows that several processes may change at once are locked (the
daily claim reads its account `FOR UPDATE`; moves update accounts in user-id order, so two
saves never wait on each other in a circle).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from typing import TYPE_CHECKING, Any, Self

import asyncpg

from bot.fairness.secret import TableSecret
from bot.store.accounts import settings_of, stakes_of
from bot.store.audit import (
    AUDIT_ACCOUNTS,
    AUDIT_GUILDS,
    AUDIT_TABLES,
    AUDIT_TOURNAMENTS,
    MINTED,
    TOTAL_BALANCES,
    TOTAL_ESCROW,
    TOTAL_POOLS,
    audit_lines,
)
from bot.store.connection import dumps
from bot.store.economy import (
    GIVE_WINDOW,
    GIVEN_SINCE,
    check_give,
    check_limits,
    check_member_age,
    daily_pay,
)
from bot.store.errors import CooldownActive, LeaseLost, StoreError, TableExists, TableNotFound
from bot.store.hand_rows import HAND_COLUMNS, StoredHand, history_entry, stored_hand
from bot.store.history import board
from bot.store.ledger import MINT_ACCOUNT, TABLE, USER, Account
from bot.store.models import (
    REASON_DAILY,
    REASON_GIVE,
    REASON_GRANT,
    REASON_REMOVE,
    DailyClaim,
    GiveResult,
    HandRecord,
    LeaderRow,
    Move,
    PlayerStats,
    ServerSettings,
    TableRow,
    TableSave,
    TournamentRow,
    TournamentSave,
)
from bot.store.postgres.connection import (
    PgBase,
    PgTransfers,
    StoreConnection,
    coerce,
    numbered,
)
from bot.store.postgres.fair_words import PgFairWordsMixin
from bot.store.postgres.leases import PgLeasesMixin
from bot.store.postgres.pings import PgPingsMixin
from bot.store.postgres.ratings import PgRatingsMixin, write_ratings
from bot.store.postgres.schema import migrate, schema_version
from bot.store.postgres.tournaments import PgTournamentsMixin
from bot.store.ratings import check_updates
from bot.store.schema import TABLES
from bot.store.server_settings import SETTINGS_COLUMNS, apply_changes
from bot.store.stakes import validate_stakes
from bot.store.tables import (
    COLUMNS,
    FENCE,
    SET_SECRET,
    check_hand,
    check_ids,
    check_moves,
    fair_columns,
    refusal,
    table_changes,
)
from bot.store.tables import table_row as _table_row
from bot.store.tournaments import (
    ENTRANTS,
    GET,
    SAVE_RUNNING,
    SET_TABLE,
    START,
    refused,
    refused_start,
    tournament_row,
)

if TYPE_CHECKING:
    from bot.store.postgres.connection import PgConnection

#: pool size when none is given (STOPPA_DB_POOL_SIZE)
DEFAULT_POOL_SIZE = 10

_SETTINGS_SQL = f"SELECT {', '.join(SETTINGS_COLUMNS)} FROM servers WHERE guild_id = $1"
_STAKES_SQL = "SELECT stakes FROM servers WHERE guild_id = $1"


async def _balance(tx: PgTransfers, guild: int, user: int) -> int:
    await tx.ensure_account(guild, user)
    rows = await tx.fetch(
        "SELECT balance FROM accounts WHERE guild_id = $1 AND user_id = $2", guild, user
    )
    return int(rows[0][0])


class PostgresStore(
    PgLeasesMixin, PgRatingsMixin, PgTournamentsMixin, PgPingsMixin, PgFairWordsMixin, PgBase
):
    """Accounts and ledger, stakes, tables and history in a PostgreSQL database.

    Open with `await PostgresStore.open(url, pool_size=...)`; any number of processes may
    open the same database.
    """

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        pool_size: int | None = None,
    ) -> Self:
        """Connect a pool of `pool_size` connections (default: STOPPA_DB_POOL_SIZE, else 10)
        and migrate the database. PostgreSQL settings may ride in the URL's query
        (`?search_path=...`: the tests give each test its own schema so)."""
        size = pool_size or int(os.environ.get("STOPPA_DB_POOL_SIZE") or DEFAULT_POOL_SIZE)
        pool = await asyncpg.create_pool(
            url,
            min_size=1,
            max_size=size,
            connection_class=StoreConnection,
        )
        try:
            async with pool.acquire() as conn:
                await migrate(conn)
        except BaseException:
            await pool.close()
            raise
        return cls(pool, url)

    # accounts and chips ------------------------------------------------------------------
    async def balance(self, guild: int, user: int) -> int:
        """The user's balance on this server (the account is created on first use)."""
        value = await self._pool.fetchval(
            "SELECT balance FROM accounts WHERE guild_id = $1 AND user_id = $2", guild, user
        )
        if value is not None:
            return int(value)
        return await self._transaction(lambda tx: _balance(tx, guild, user))

    async def balances(self, guild: int, users: list[int]) -> dict[int, int]:
        """The balances of `users` on this server (missing accounts are created)."""
        unique = list(dict.fromkeys(users))
        sql = (
            "SELECT user_id, balance FROM accounts WHERE guild_id = $1 AND user_id = ANY($2)"
        )
        rows = await self._pool.fetch(sql, guild, unique)
        if len(rows) < len(unique):

            async def create(tx: PgTransfers) -> list[asyncpg.Record]:
                for user in sorted(unique):
                    await tx.ensure_account(guild, user)
                return await tx.fetch(sql, guild, unique)

            rows = await self._transaction(create)
        return {int(r[0]): int(r[1]) for r in rows}

    async def claim_daily(
        self,
        guild: int,
        user: int,
        *,
        now: float | None = None,
        joined_at: float | None = None,
    ) -> DailyClaim:
        """Give the server's daily chips (minted), at most once per cooldown: the account row
        is locked while it is checked, so two processes never both pay it."""

        async def claim(tx: PgTransfers) -> DailyClaim:
            settings = settings_of(await tx.fetch(_SETTINGS_SQL, guild))
            check_member_age(settings, joined_at, tx.now)
            await tx.ensure_account(guild, user)
            rows = await tx.fetch(
                "SELECT daily_at, balance FROM accounts WHERE guild_id = $1 AND user_id = $2"
                " FOR UPDATE",
                guild,
                user,
            )
            last = rows[0][0]
            if last is not None and tx.now < last + settings.daily_cooldown:
                raise CooldownActive(last + settings.daily_cooldown, now=tx.now)
            pay = daily_pay(settings, int(rows[0][1]))
            await tx.execute(
                "UPDATE accounts SET daily_at = $1 WHERE guild_id = $2 AND user_id = $3",
                tx.now,
                guild,
                user,
            )
            if pay:
                await tx.add_to_user(guild, user, pay)
                tx.record(guild, MINT_ACCOUNT, Account(USER, user), pay, REASON_DAILY)
            balance = await _balance(tx, guild, user)
            return DailyClaim(pay, balance, tx.now + settings.daily_cooldown)

        return await self._transaction(claim, now)

    async def give(
        self, guild: int, giver: int, receiver: int, amount: int, *, now: float | None = None
    ) -> GiveResult:
        """Move `amount` chips from `giver` to `receiver` in one transaction: both account
        rows are locked (in id order) before the giver's gifts of the day are summed, so
        concurrent gifts in any number of processes never pass the limit nor overdraw."""

        async def gift(tx: PgTransfers) -> GiveResult:
            settings = settings_of(await tx.fetch(_SETTINGS_SQL, guild))
            check_give(settings, giver, receiver, amount)
            pair = sorted((giver, receiver))
            for member in pair:
                await tx.ensure_account(guild, member)
            locked = await tx.fetch(
                "SELECT user_id, balance FROM accounts WHERE guild_id = $1"
                " AND user_id = ANY($2::bigint[]) ORDER BY user_id FOR UPDATE",
                guild,
                pair,
            )
            balances = {int(r[0]): int(r[1]) for r in locked}
            given = await tx.conn.fetchval(
                numbered(GIVEN_SINCE), guild, giver, tx.now - GIVE_WINDOW
            )
            left = check_limits(settings, amount, int(given), balances[receiver])
            giver_balance = await tx.add_to_user(guild, giver, -amount)
            receiver_balance = await tx.add_to_user(guild, receiver, amount)
            tx.record(guild, Account(USER, giver), Account(USER, receiver), amount, REASON_GIVE)
            return GiveResult(amount, giver_balance, receiver_balance, left)

        return await self._transaction(gift, now)

    async def grant(self, guild: int, user: int, amount: int, *, reason: str, by: int) -> int:
        """An admin grant (amount > 0, minted) or removal (amount < 0, burned); new balance."""
        if isinstance(amount, bool) or not isinstance(amount, int) or amount == 0:
            raise ValueError(f"a grant needs a non-zero integer amount, not {amount!r}")

        async def give(tx: PgTransfers) -> int:
            balance = await tx.add_to_user(guild, user, amount)
            if amount > 0:
                src, dst, kind = MINT_ACCOUNT, Account(USER, user), REASON_GRANT
            else:
                src, dst, kind = Account(USER, user), MINT_ACCOUNT, REASON_REMOVE
            tx.record(guild, src, dst, abs(amount), kind, note=reason, by=by)
            return balance

        return await self._transaction(give)

    # server settings and stakes -----------------------------------------------------------
    async def server_settings(self, guild: int) -> ServerSettings:
        """The server's settings (defaults when never changed)."""
        return settings_of(list(await self._pool.fetch(_SETTINGS_SQL, guild)))

    async def update_server_settings(
        self, guild: int, *, by: int, **changes: Any
    ) -> ServerSettings:
        """Change some settings (validated, raises InvalidSetting); returns the new settings."""

        async def update(tx: PgTransfers) -> ServerSettings:
            await tx.execute(
                "INSERT INTO servers (guild_id) VALUES ($1) ON CONFLICT DO NOTHING", guild
            )
            current = settings_of(await tx.fetch(_SETTINGS_SQL + " FOR UPDATE", guild))
            new = apply_changes(current, changes)
            values = [int(v) if isinstance(v, bool) else v for v in asdict(new).values()]
            columns = (*SETTINGS_COLUMNS, "updated_by", "updated_at")
            assignments = ", ".join(f"{c} = ${i}" for i, c in enumerate(columns, start=2))
            await tx.execute(
                f"UPDATE servers SET {assignments} WHERE guild_id = $1",
                guild,
                *values,
                by,
                tx.now,
            )
            return new

        return await self._transaction(update)

    async def get_stakes(self, guild: int) -> dict[str, Any]:
        """The server's stakes and variants (a fresh dict with every key of DEFAULT_STAKES)."""
        return stakes_of(list(await self._pool.fetch(_STAKES_SQL, guild)))

    async def set_stakes(
        self, guild: int, changes: Mapping[str, Any], *, by: int
    ) -> dict[str, Any]:
        """Apply `changes` to the stakes, validate the whole result, store it with who and when."""

        async def update(tx: PgTransfers) -> dict[str, Any]:
            await tx.execute(
                "INSERT INTO servers (guild_id) VALUES ($1) ON CONFLICT DO NOTHING", guild
            )
            current = stakes_of(await tx.fetch(_STAKES_SQL + " FOR UPDATE", guild))
            new = validate_stakes({**current, **changes})
            diff = {k: [current[k], v] for k, v in new.items() if current[k] != v}
            await tx.execute(
                "UPDATE servers SET stakes = $2, updated_by = $3, updated_at = $4"
                " WHERE guild_id = $1",
                guild,
                dumps(new),
                by,
                tx.now,
            )
            if diff:
                await tx.execute(
                    'INSERT INTO stakes_changes (guild_id, at, "by", changes)'
                    " VALUES ($1, $2, $3, $4)",
                    guild,
                    tx.now,
                    by,
                    dumps(diff),
                )
            return new

        return await self._transaction(update)

    async def stakes_history(self, guild: int, limit: int = 10) -> list[dict[str, Any]]:
        """The latest stakes changes, newest first: {"at", "by", "changes": {key: [old, new]}}."""
        rows = await self._pool.fetch(
            'SELECT at, "by", changes FROM stakes_changes WHERE guild_id = $1'
            " ORDER BY id DESC LIMIT $2",
            guild,
            limit,
        )
        return [{"at": r[0], "by": r[1], "changes": json.loads(r[2])} for r in rows]

    # tables ---------------------------------------------------------------------------------
    async def create_table(
        self,
        guild: int,
        channel: int,
        *,
        settings: Mapping[str, Any],
        seats: Sequence[int] = (),
        meta: Mapping[str, Any] | None = None,
        secret: TableSecret | None = None,
    ) -> TableRow:
        """A new table in the lobby; TableExists if the channel has an open table."""
        seat_ids = check_ids("seats", seats)

        async def create(tx: PgTransfers) -> TableRow:
            return await _insert_table(tx, guild, channel, settings, seat_ids, meta, secret)

        return await self._transaction(create)

    async def get_table(self, table_id: int) -> TableRow:
        """The table with this id; TableNotFound."""
        rows = await self._pool.fetch(f"SELECT {COLUMNS} FROM tables WHERE id = $1", table_id)
        if not rows:
            raise TableNotFound(table_id)
        return _table_row(rows[0])

    async def table_in_channel(self, channel: int) -> TableRow | None:
        """The open (not closed) table of the channel, if any."""
        rows = await self._pool.fetch(
            f"SELECT {COLUMNS} FROM tables WHERE channel_id = $1 AND status != 'closed'", channel
        )
        return _table_row(rows[0]) if rows else None

    async def table_of_user(self, guild: int, user: int) -> TableRow | None:
        """The open table of this server where the user is seated (the newest if several)."""
        rows = await self._pool.fetch(
            f"SELECT {COLUMNS} FROM tables WHERE guild_id = $1 AND status != 'closed'"
            " AND seats::jsonb @> to_jsonb(ARRAY[$2::bigint]) ORDER BY id DESC LIMIT 1",
            guild,
            user,
        )
        return _table_row(rows[0]) if rows else None

    async def escrow(self, table_id: int) -> int:
        """The chips the table holds for hands in progress (or a carried pot)."""
        return (await self.get_table(table_id)).escrow

    async def save_table(
        self,
        table_id: int,
        change: TableSave,
        *,
        lease_owner: str | None = None,
        now: float | None = None,
    ) -> TableRow:
        """Save an action in ONE transaction (see `StoreContract.save_table`), fenced by the
        lease of `lease_owner` when given (`LeaseLost`), with the running tournament's state
        when given."""
        changes = table_changes(change)
        ordered = check_moves(change.moves)
        hand, tournament = change.hand, change.tournament
        expected_version = change.expected_version
        if hand is not None:
            check_hand(hand)
        return await self._transaction(
            lambda tx: _save(
                tx, table_id, expected_version, changes, ordered, hand, lease_owner, tournament
            ),
            now,
        )

    async def start_tournament(
        self,
        tournament_id: int,
        *,
        expected_version: int,
        state: str,
        channel: int,
        settings: Mapping[str, Any],
        seats: Sequence[int],
        meta: Mapping[str, Any],
        now: float | None = None,
        secret: TableSecret | None = None,
    ) -> tuple[TournamentRow, TableRow]:
        """Start a full open tournament with its new table, in ONE transaction (see
        `StoreContract.start_tournament`)."""
        seat_ids = check_ids("seats", seats)

        async def begin(tx: PgTransfers) -> tuple[TournamentRow, TableRow]:
            locked = await tx.fetch(
                numbered(START), state, tx.now, tournament_id, expected_version
            )
            if not locked:
                current = await tx.fetch(numbered(GET), tournament_id)
                raise refused_start(current, expected_version)
            table = await _insert_table(
                tx, int(locked[0][0]), channel, settings, seat_ids, meta, secret
            )
            await tx.fetch(numbered(SET_TABLE), table.id, tournament_id)
            rows = await tx.fetch(numbered(GET), tournament_id)
            entrants = await tx.fetch(numbered(ENTRANTS), tournament_id)
            return tournament_row(rows[0], entrants), table

        return await self._transaction(begin, now)

    async def close_table(
        self,
        table_id: int,
        *,
        expected_version: int,
        refunds: Sequence[Move] = (),
        meta: Mapping[str, Any] | None = None,
        lease_owner: str | None = None,
        now: float | None = None,
    ) -> TableRow:
        """Close the table and apply `refunds` in one transaction; the escrow must end at 0.
        Fenced by `lease_owner` as `save_table` is."""
        changes: dict[str, Any] = {"status": "closed", "deadline": None, "revealed": 1}
        if meta is not None:
            changes["meta"] = dumps(dict(meta))
        ordered = check_moves(refunds)
        return await self._transaction(
            lambda tx: _save(tx, table_id, expected_version, changes, ordered, None, lease_owner),
            now,
        )

    # statistics and books ----------------------------------------------------------------
    async def hand_history(self, table_id: int, limit: int = 20) -> list[dict[str, Any]]:
        """The table's finished hands, newest first, as dicts (user keys are ints)."""
        rows = await self._pool.fetch(
            "SELECT hand_no, seed, events, result, pots_won, closes, biggest_pot, at, words"
            " FROM hands WHERE table_id = $1 ORDER BY hand_no DESC LIMIT $2",
            table_id,
            limit,
        )
        return [history_entry(r) for r in rows]

    async def player_hands(
        self, guild: int, user: int, limit: int = 10, offset: int = 0
    ) -> list[StoredHand]:
        """The finished hands `user` played on this server, newest first (for history pages)."""
        rows = await self._pool.fetch(
            f"SELECT {HAND_COLUMNS} FROM hands h JOIN tables t ON t.id = h.table_id"
            " WHERE h.guild_id = $1 AND (h.result::jsonb) ? $2"
            " ORDER BY h.at DESC, h.id DESC LIMIT $3 OFFSET $4",
            guild,
            str(user),
            limit,
            offset,
        )
        return [stored_hand(r) for r in rows]

    async def count_player_hands(self, guild: int, user: int) -> int:
        """How many finished hands `user` played on this server."""
        count = await self._pool.fetchval(
            "SELECT COUNT(*) FROM hands h WHERE h.guild_id = $1 AND (h.result::jsonb) ? $2",
            guild,
            str(user),
        )
        return int(count)

    async def stored_hand(self, guild: int, hand_id: int) -> StoredHand | None:
        """The finished hand `hand_id` if it was played on this server, else None."""
        row = await self._pool.fetchrow(
            f"SELECT {HAND_COLUMNS} FROM hands h JOIN tables t ON t.id = h.table_id"
            " WHERE h.id = $1 AND h.guild_id = $2",
            hand_id,
            guild,
        )
        return stored_hand(row) if row is not None else None

    async def stats(self, guild: int, user: int) -> PlayerStats:
        """The user's statistics on this server (zeros before the first hand) and balance."""

        async def read(tx: PgTransfers) -> list[asyncpg.Record]:
            await tx.ensure_account(guild, user)
            return await tx.fetch(
                "SELECT a.balance, s.hands, s.pots_won, s.closes, s.net, s.biggest_pot"
                " FROM accounts a LEFT JOIN player_stats s"
                " ON s.guild_id = a.guild_id AND s.user_id = a.user_id"
                " WHERE a.guild_id = $1 AND a.user_id = $2",
                guild,
                user,
            )

        r = (await self._transaction(read))[0]
        return PlayerStats(
            hands=r[1] or 0,
            pots_won=r[2] or 0,
            closes=r[3] or 0,
            net=r[4] or 0,
            biggest_pot=r[5] or 0,
            balance=r[0],
        )

    async def leaderboard(
        self, guild: int, by: str = "balance", limit: int = 10, offset: int = 0
    ) -> list[LeaderRow]:
        """One page of the server's leaderboard by "balance", "net" or "closes"."""
        source, value = board(by)
        if limit < 0 or offset < 0:
            raise ValueError("limit and offset must be >= 0")
        balance = "s.balance" if by == "balance" else "COALESCE(a.balance, 0)"
        join = (
            ""
            if by == "balance"
            else " LEFT JOIN accounts a ON a.guild_id = s.guild_id AND a.user_id = s.user_id"
        )
        rows = await self._pool.fetch(
            f"SELECT s.user_id, {value}, {balance} FROM {source}{join}"
            f" WHERE s.guild_id = $1 AND s.user_id > 0 ORDER BY {value} DESC, s.user_id"
            " LIMIT $2 OFFSET $3",
            guild,
            limit,
            offset,
        )
        return [
            LeaderRow(rank=offset + i + 1, user_id=r[0], value=r[1], balance=r[2])
            for i, r in enumerate(rows)
        ]

    async def count_ranked(self, guild: int, by: str = "balance") -> int:
        """How many users the leaderboard `by` ranks (for paging)."""
        source, _ = board(by)
        value = await self._pool.fetchval(
            f"SELECT COUNT(*) FROM {source} WHERE s.guild_id = $1 AND s.user_id > 0", guild
        )
        return int(value)

    async def audit(self) -> list[str]:
        """Recompute every balance and every table escrow from the ledger (one snapshot)."""
        return await self._read_with(_audit)

    async def total_chips(self, guild: int) -> tuple[int, int, int]:
        """(sum of balances, sum of table escrows, chips minted net of burns) on the server."""
        return await self._read_with(lambda conn: _totals(conn, guild))

    # whole-database copy (`python -m bot db copy`) ------------------------------------------
    async def schema_version(self) -> int:
        """The database's schema version (the `schema_version` table)."""
        async with self._pool.acquire() as conn:
            return await schema_version(conn)

    async def is_empty(self) -> list[str]:
        """The tables of the schema that hold rows (empty list: the database is empty)."""
        full = []
        for name in TABLES:
            if await self._pool.fetchval(f"SELECT EXISTS (SELECT 1 FROM {name})"):
                full.append(name)
        return full

    async def export_rows(self, table: str) -> tuple[list[str], list[tuple[Any, ...]]]:
        """Every row of one schema table, in primary-key order, with its column names."""
        if table not in TABLES:
            raise ValueError(f"not a table of the schema: {table!r}")
        columns = await self._columns(table)
        rows = await self._pool.fetch(
            f"SELECT {', '.join(_quoted(c) for c, _ in columns)} FROM {table} ORDER BY 1, 2"
        )
        return [c for c, _ in columns], [tuple(r) for r in rows]

    async def import_rows(
        self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
    ) -> None:
        """Insert rows copied from another store in one transaction; identity counters are
        moved past the copied ids."""
        if table not in TABLES:
            raise ValueError(f"not a table of the schema: {table!r}")
        kinds = dict(await self._columns(table))
        types = [kinds[c] for c in columns]
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.copy_records_to_table(
                table, columns=list(columns), records=[coerce(r, types) for r in rows]
            )
            if "id" in columns:
                await conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                    f" COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
                )

    async def _columns(self, table: str) -> list[tuple[str, str]]:
        rows = await self._pool.fetch(
            "SELECT column_name, data_type FROM information_schema.columns"
            " WHERE table_name = $1 AND table_schema = current_schema() ORDER BY ordinal_position",
            table,
        )
        return [(str(r[0]), str(r[1])) for r in rows]


def _quoted(column: str) -> str:
    return f'"{column}"'


async def _insert_table(
    tx: PgTransfers,
    guild: int,
    channel: int,
    settings: Mapping[str, Any],
    seats: list[int],
    meta: Mapping[str, Any] | None,
    secret: TableSecret | None = None,
) -> TableRow:
    """Insert a new table in the lobby (TableExists if the channel has an open table), with
    its fair-deal secret (`secret`, else a new one) and commitment in the same transaction."""
    rows = await tx.fetch(
        "INSERT INTO tables (guild_id, channel_id, status, seats, settings, meta,"
        " created_at, updated_at) VALUES ($1, $2, 'lobby', $3, $4, $5, $6, $6)"
        " ON CONFLICT (channel_id) WHERE status != 'closed' DO NOTHING"
        f" RETURNING {COLUMNS}",
        guild,
        channel,
        dumps(seats),
        dumps(dict(settings)),
        dumps(dict(meta or {})),
        tx.now,
    )
    if rows:
        table_id = int(rows[0]["id"])
        fair = await tx.fetch(
            numbered(SET_SECRET) + f" RETURNING {COLUMNS}",
            *fair_columns(secret, table_id), table_id,
        )
        return _table_row(fair[0])
    existing = await tx.fetch(
        "SELECT id FROM tables WHERE channel_id = $1 AND status != 'closed'", channel
    )
    raise TableExists(channel=channel, table_id=existing[0][0] if existing else 0)


async def _save(
    tx: PgTransfers,
    table_id: int,
    expected_version: int,
    changes: dict[str, Any],
    moves: list[Move],
    hand: HandRecord | None,
    lease_owner: str | None = None,
    tournament: TournamentSave | None = None,
) -> TableRow:
    """The whole save (or close) of one table, in one transaction: the lease fence (when
    `lease_owner` is given: the lease row stays locked until the commit, so no steal can
    slip in), the conditional update of the table row (version, status, escrow), then every
    account in user-id order."""
    if lease_owner is not None and not await tx.fetch(
        numbered(FENCE), table_id, lease_owner, tx.now
    ):
        raise LeaseLost(table_id=table_id, owner=lease_owner)
    delta = sum(m.amount for m in moves)
    closing = changes.get("status") == "closed"
    params: list[Any] = list(changes.values())
    assignments = "".join(f"{column} = ${i}, " for i, column in enumerate(changes, start=1))
    n = len(params)
    params += [delta, tx.now, table_id, expected_version]
    rows = await tx.fetch(
        f"UPDATE tables SET {assignments}escrow = escrow + ${n + 1}, version = version + 1,"
        f" updated_at = ${n + 2} WHERE id = ${n + 3} AND version = ${n + 4}"
        f" AND status != 'closed' AND escrow + ${n + 1} >= 0"
        f" {f'AND escrow + ${n + 1} = 0' if closing else ''} RETURNING {COLUMNS}",
        *params,
    )
    if not rows:
        current = await tx.fetch(f"SELECT {COLUMNS} FROM tables WHERE id = $1", table_id)
        if not current:
            raise TableNotFound(table_id)
        raise refusal(_table_row(current[0]), expected_version, moves, closing)
    row = _table_row(rows[0])
    net: dict[int, int] = {}
    for m in moves:
        net[m.user] = net.get(m.user, 0) + m.amount
    for user_id in sorted(net):  # a fixed lock order: no deadlock between two saves
        if net[user_id]:
            await tx.add_to_user(row.guild_id, user_id, -net[user_id])
    table = Account(TABLE, row.id)
    for m in moves:
        user = Account(USER, m.user)
        src, dst = (user, table) if m.amount > 0 else (table, user)
        tx.record(
            row.guild_id, src, dst, abs(m.amount), m.reason, table_id=row.id, hand_no=m.hand_no
        )
    if hand is not None:
        await _record_hand(tx, row, hand)
    if tournament is not None and not await tx.fetch(
        numbered(SAVE_RUNNING), tournament.state, tx.now, tournament.id
    ):
        raise refused(await tx.fetch(numbered(GET), tournament.id))
    return row


async def _record_hand(tx: PgTransfers, row: TableRow, hand: HandRecord) -> None:
    """Insert the finished hand and add it to every player's statistics."""
    inserted = await tx.fetch(
        "INSERT INTO hands (table_id, guild_id, hand_no, seed, events, result, pots_won,"
        " closes, biggest_pot, at, words) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
        " ON CONFLICT (table_id, hand_no) DO NOTHING RETURNING id",
        row.id,
        row.guild_id,
        hand.hand_no,
        hand.seed,
        hand.events,
        dumps(hand.result),
        dumps(hand.pots_won),
        dumps(hand.closes),
        dumps(hand.biggest_pot),
        tx.now,
        dumps([list(w) for w in hand.words]),
    )
    if not inserted:
        raise StoreError("hand_exists", {"table_id": row.id, "hand_no": hand.hand_no})
    users = sorted(dict.fromkeys([*hand.result, *hand.pots_won, *hand.closes, *hand.biggest_pot]))
    for user in users:
        await tx.ensure_account(row.guild_id, user)
    await tx.conn.executemany(
        "INSERT INTO player_stats (guild_id, user_id, hands, pots_won, closes, net, biggest_pot)"
        " VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (guild_id, user_id) DO UPDATE SET"
        " hands = player_stats.hands + excluded.hands,"
        " pots_won = player_stats.pots_won + excluded.pots_won,"
        " closes = player_stats.closes + excluded.closes,"
        " net = player_stats.net + excluded.net,"
        " biggest_pot = GREATEST(player_stats.biggest_pot, excluded.biggest_pot)",
        [
            (
                row.guild_id,
                user,
                1 if user in hand.result else 0,
                hand.pots_won.get(user, 0),
                hand.closes.get(user, 0),
                hand.result.get(user, 0) if hand.counts_net else 0,
                hand.biggest_pot.get(user, 0),
            )
            for user in users
        ],
    )
    if hand.ratings:
        updates = check_updates(hand.ratings)
        hand_id = int(inserted[0][0])
        await write_ratings(tx, row.guild_id, updates, hand_id, hand.ratings_season)


async def _audit(conn: PgConnection) -> list[str]:
    accounts = [tuple(r) for r in await conn.fetch(AUDIT_ACCOUNTS)]
    tables = [tuple(r) for r in await conn.fetch(AUDIT_TABLES)]
    tournaments = [tuple(r) for r in await conn.fetch(AUDIT_TOURNAMENTS)]
    guilds = [int(r[0]) for r in await conn.fetch(AUDIT_GUILDS)]
    totals = {g: await _totals(conn, g) for g in guilds}
    return audit_lines(accounts, tables, totals, tournaments)


async def _totals(conn: PgConnection, guild: int) -> tuple[int, int, int]:
    balances = await conn.fetchval(numbered(TOTAL_BALANCES), guild)
    escrow = await conn.fetchval(numbered(TOTAL_ESCROW), guild)
    pools = await conn.fetchval(numbered(TOTAL_POOLS), guild)
    minted = await conn.fetchval(numbered(MINTED), guild)
    return int(balances), int(escrow) + int(pools), int(minted)
