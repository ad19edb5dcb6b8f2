"""The PostgreSQL store's pool, its transactions (with the only retries allowed), and errors.

A write is one async function `fn(tx: PgTransfers) -> result` run inside ONE transaction on a
connection of asyncpg's pool (READ COMMITTED; every debit is a conditional UPDATE, which
PostgreSQL re-checks on the locked row, and account rows are always locked in id order).

A transaction is retried only when it provably did not apply: PostgreSQL aborted it
(serialization failure, deadlock), or the connection was lost before COMMIT was sent. A
connection lost during COMMIT leaves the outcome unknown: that is raised
(`StoreError("commit_unknown")`), never retried. asyncpg's integrity errors come out as the
store's `IntegrityViolation`.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar

import asyncpg

import bot.metrics as metrics
from bot.store.errors import InsufficientFunds, IntegrityViolation, StoreError
from bot.store.ledger import MINT_ACCOUNT, USER, Account, ledger_row
from bot.store.models import REASON_START

T = TypeVar("T")

if TYPE_CHECKING:
    from asyncpg.pool import PoolConnectionProxy

    #: a connection of its own or one lent by the pool (both are used the same way)
    PgConnection: TypeAlias = (
        asyncpg.Connection[asyncpg.Record] | PoolConnectionProxy[asyncpg.Record]
    )

#: how many times a transaction PostgreSQL aborted (or never received) is tried in all
ATTEMPTS = 5

#: PostgreSQL aborted the transaction as a whole: running it again is safe
RETRY_ABORTED: tuple[type[BaseException], ...] = (
    asyncpg.SerializationError,
    asyncpg.DeadlockDetectedError,
)
#: the connection went away: safe to run again only if COMMIT was not sent yet. Depending on
#: when asyncpg notices, a dropped connection shows as one of the first four, or (once the pool
#: has taken the dead connection back) as an InterfaceError / InternalClientError on the next
#: statement; a client-side misuse is an InterfaceError too, and is then raised after the
#: last attempt (it never applied anything either)
CONNECTION_LOST: tuple[type[BaseException], ...] = (
    asyncpg.ConnectionDoesNotExistError,
    asyncpg.exceptions.ConnectionFailureError,
    asyncpg.exceptions.AdminShutdownError,
    ConnectionError,
    asyncpg.InterfaceError,
    asyncpg.exceptions.InternalClientError,
)

_INTEGRITY_CODES: dict[type[BaseException], str] = {
    asyncpg.UniqueViolationError: "integrity_unique",
    asyncpg.CheckViolationError: "integrity_check",
    asyncpg.ForeignKeyViolationError: "integrity_foreign_key",
    asyncpg.NotNullViolationError: "integrity_not_null",
}

INSERT_LEDGER = (
    'INSERT INTO ledger (at, guild_id, table_id, hand_no, src_kind, src_id, dst_kind, dst_id,'
    ' amount, reason, note, "by") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)'
)


def numbered(sql: str) -> str:
    """`sql` with its `?` placeholders numbered as PostgreSQL wants them ($1, $2...).

    Only for the store's own statements, which never hold a `?` inside a string literal.
    """
    count = iter(range(1, sql.count("?") + 1))
    return re.sub(r"\?", lambda _: f"${next(count)}", sql)


def typed_pg_error(error: BaseException) -> BaseException:
    """The store's typed error for an asyncpg integrity error (chained); others unchanged."""
    if not isinstance(error, asyncpg.IntegrityConstraintViolationError):
        return error
    code = next((c for kind, c in _INTEGRITY_CODES.items() if isinstance(error, kind)), None)
    detail = getattr(error, "detail", None) or str(error)
    typed = IntegrityViolation(code or "integrity", {"detail": detail})
    typed.__cause__ = error
    return typed


class StoreConnection(asyncpg.Connection):
    """The pool's connections: given back without asyncpg's reset query.

    The reset (`RESET ALL`, `UNLISTEN *`, `CLOSE ALL`, advisory unlock) costs one round trip
    per transaction and undoes nothing the store does: it never sets a session variable,
    listens, keeps a cursor or takes a session-level lock (migrations take a transaction-level
    one). An open transaction is still rolled back by asyncpg on release.
    """

    def get_reset_query(self) -> str:
        return ""


class PgTransfers:
    """Balance updates and buffered ledger rows of one PostgreSQL transaction.

    The asynchronous twin of `bot.store.ledger.Transfers`: same methods, same rules (a debit
    is `balance >= amount` or InsufficientFunds; every change has a ledger row, written by
    `flush()` before COMMIT).
    """

    __slots__ = ("_rows", "_starting", "conn", "now")

    def __init__(self, conn: PgConnection, now: float) -> None:
        self.conn = conn
        self.now = now
        self._rows: list[tuple[object, ...]] = []
        self._starting: dict[int, int] = {}

    async def fetch(self, sql: str, *args: object) -> list[asyncpg.Record]:
        """Every row of one statement."""
        return list(await self.conn.fetch(sql, *args))

    async def execute(self, sql: str, *args: object) -> str:
        """Run one statement; its status text ("UPDATE 1"...)."""
        return str(await self.conn.execute(sql, *args))

    async def starting_balance(self, guild: int) -> int:
        """The server's starting balance (cached for the transaction)."""
        if guild not in self._starting:
            value = await self.conn.fetchval(
                "SELECT starting_balance FROM servers WHERE guild_id = $1", guild
            )
            self._starting[guild] = 1000 if value is None else int(value)
        return self._starting[guild]

    async def ensure_account(self, guild: int, user: int) -> bool:
        """Create the account with the starting balance (minted) if missing; True if created."""
        start = await self.starting_balance(guild)
        created = await self.conn.fetchval(
            "INSERT INTO accounts (guild_id, user_id, balance, created_at)"
            " VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING 1",
            guild,
            user,
            start,
            self.now,
        )
        if created is None:
            return False
        if start:
            self.record(guild, MINT_ACCOUNT, Account(USER, user), start, REASON_START)
        return True

    async def _update_balance(self, guild: int, user: int, delta: int) -> int | None:
        if delta >= 0:
            value = await self.conn.fetchval(
                "UPDATE accounts SET balance = balance + $1 WHERE guild_id = $2 AND user_id = $3"
                " RETURNING balance",
                delta,
                guild,
                user,
            )
        else:
            value = await self.conn.fetchval(
                "UPDATE accounts SET balance = balance - $1"
                " WHERE guild_id = $2 AND user_id = $3 AND balance >= $1 RETURNING balance",
                -delta,
                guild,
                user,
            )
        return None if value is None else int(value)

    async def add_to_user(self, guild: int, user: int, delta: int) -> int:
        """Change a user's balance by `delta` (creating the account lazily); the new balance.
        InsufficientFunds if a debit is more than the account holds."""
        balance = await self._update_balance(guild, user, delta)
        if balance is not None:
            return balance
        if await self.ensure_account(guild, user):
            balance = await self._update_balance(guild, user, delta)
            if balance is not None:
                return balance
        value = await self.conn.fetchval(
            "SELECT balance FROM accounts WHERE guild_id = $1 AND user_id = $2", guild, user
        )
        have = 0 if value is None else int(value)
        raise InsufficientFunds(guild=guild, user=user, needed=-delta, balance=have)

    def record(
        self,
        guild: int,
        src: Account,
        dst: Account,
        amount: int,
        reason: str,
        *,
        table_id: int | None = None,
        hand_no: int | None = None,
        note: str | None = None,
        by: int | None = None,
    ) -> None:
        """Buffer one ledger row (amount > 0 moves from `src` to `dst`)."""
        self._rows.append(
            ledger_row(self.now, guild, src, dst, amount, reason, table_id, hand_no, note, by)
        )

    async def flush(self) -> None:
        """Write the buffered ledger rows (before COMMIT)."""
        if len(self._rows) == 1:
            await self.conn.execute(INSERT_LEDGER, *self._rows[0])
        elif self._rows:
            await self.conn.executemany(INSERT_LEDGER, self._rows)
        self._rows.clear()


class PgBase:
    """The pool and the transaction runner shared by the PostgreSQL store's parts."""

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        self.url = url
        #: transactions run again after PostgreSQL aborted them or never got them (tests read it)
        self.retries = 0

    async def close(self) -> None:
        """Close the pool once every connection is given back."""
        await self._pool.close()

    async def query(self, sql: str, params: Sequence[object] = ()) -> list[asyncpg.Record]:
        """Every row of one read statement (`?` or `$n` placeholders)."""
        if self._pool.is_closing():
            raise ValueError("the store's connection pool is closed")
        return list(await self._pool.fetch(numbered(sql), *params))

    async def _read_with(self, fn: Callable[[PgConnection], Awaitable[T]]) -> T:
        """Run several reads on one snapshot (REPEATABLE READ, read only)."""
        async with (
            self._pool.acquire() as conn,
            conn.transaction(isolation="repeatable_read", readonly=True),
        ):
            return await fn(conn)

    async def _transaction(
        self, fn: Callable[[PgTransfers], Awaitable[T]], now: float | None = None
    ) -> T:
        """Run `fn(tx)` in ONE transaction; its value once committed. Retried only when the
        transaction provably did not apply (see the module's docstring)."""
        if self._pool.is_closing():
            raise ValueError("the store's connection pool is closed")
        at = time.time() if now is None else now
        started = metrics.started()
        for attempt in range(1, ATTEMPTS + 1):
            committing = False
            try:
                async with self._pool.acquire() as conn:
                    transaction = conn.transaction()
                    await transaction.start()
                    try:
                        tx = PgTransfers(conn, at)
                        value = await fn(tx)
                        await tx.flush()
                    except BaseException:
                        with contextlib.suppress(Exception):
                            await transaction.rollback()
                        raise
                    committing = True
                    await transaction.commit()
                    metrics.transaction_committed("postgres", started)
                    return value
            except RETRY_ABORTED:
                if attempt == ATTEMPTS:
                    raise
            except CONNECTION_LOST as error:
                if committing:
                    raise StoreError("commit_unknown") from error
                if attempt == ATTEMPTS:
                    raise
            except asyncpg.IntegrityConstraintViolationError as error:
                raise typed_pg_error(error) from error
            self.retries += 1
            metrics.transaction_retried("postgres")
            await asyncio.sleep(0.005 * attempt)
        raise AssertionError("unreachable: the last attempt returns or raises")


def coerce(values: Sequence[Any], kinds: Sequence[str]) -> tuple[Any, ...]:
    """Values read from another database, as the PostgreSQL column types want them."""
    out: list[Any] = []
    for value, kind in zip(values, kinds, strict=True):
        if value is None:
            out.append(None)
        elif kind == "double precision":
            out.append(float(value))
        elif kind in ("bigint", "integer"):
            out.append(int(value))
        else:
            out.append(value)
    return tuple(out)
