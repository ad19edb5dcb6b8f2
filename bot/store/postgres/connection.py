"""The PostgreSQL driver: the pool, its transactions (with the only retries allowed), errors.

A write is one transaction body (`bot.store.sql`: a generator of statements, the same one the
SQLite driver runs) stepped through with one await per statement inside ONE transaction on a
connection of asyncpg's pool (READ COMMITTED; every debit is a conditional UPDATE, which
PostgreSQL re-checks on the locked row, and account rows are always locked in id order).
`PgDriver._transaction` is the one place a transaction runs.

A transaction is retried only when it provably did not apply: PostgreSQL aborted it
(serialization failure, deadlock), or the connection was lost before COMMIT was sent. A
connection lost during COMMIT leaves the outcome unknown: that is raised
(`StoreError("commit_unknown")`), never retried. asyncpg's integrity errors come out as the
store's `IntegrityViolation`.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar

import asyncpg

import bot.metrics as metrics
from bot.store.driver import Driver, TxBody, committed
from bot.store.errors import IntegrityViolation, StoreError
from bot.store.ledger import Tx
from bot.store.sql import POSTGRES, Body, Rows, Statement

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


async def run_body(conn: PgConnection, body: Body[T]) -> T:
    """Step through a body on `conn`: await each statement it yields, send it the rows."""
    with contextlib.closing(body):
        try:
            statement = next(body)
            while True:
                statement = body.send(await _execute(conn, statement))
        except StopIteration as done:
            value: T = done.value
            return value


async def _execute(conn: PgConnection, statement: Statement) -> Rows:
    sql = POSTGRES.sql(statement.sql)
    if statement.many:
        await conn.executemany(sql, statement.params)
        return []
    return await conn.fetch(sql, *statement.params)


class PgDriver(Driver):
    """The pool, reads and the transaction runner of the PostgreSQL store."""

    dialect = POSTGRES

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        self.url = url
        #: transactions run again after PostgreSQL aborted them or never got them (tests read it)
        self.retries = 0

    async def close(self) -> None:
        """Close the pool once every connection is given back."""
        await self._pool.close()

    async def query(self, sql: str, params: Sequence[object] = ()) -> Rows:
        """Every row of one read statement (`?` or `$n` placeholders)."""
        if self._pool.is_closing():
            raise ValueError("the store's connection pool is closed")
        return await self._pool.fetch(POSTGRES.sql(sql), *params)

    async def _read(self, fn: Callable[[], Body[T]]) -> T:
        """Run a reading body on one snapshot (REPEATABLE READ, read only)."""
        async with (
            self._pool.acquire() as conn,
            conn.transaction(isolation="repeatable_read", readonly=True),
        ):
            return await run_body(conn, fn())

    async def _transaction(self, fn: TxBody[T], now: float | None = None) -> T:
        """Run the body `fn(tx)` in ONE transaction; its value once committed. Retried (the
        body run again from its start) only when the transaction provably did not apply (see
        the module's docstring)."""
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
                        value = await run_body(conn, committed(fn, Tx(POSTGRES, at)))
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
