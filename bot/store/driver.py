"""`Driver`: what the store's methods (written once, in the topic modules) ask of a database.

Two drivers implement it: `bot.store.connection.SQLiteDriver` (a standard-library thread that
owns the sqlite3 connection, with group commit) and `bot.store.postgres.connection.PgDriver`
(an asyncpg pool, with the retries that are safe). A method hands a transaction body
(`bot.store.sql`) to `_transaction`, a consistent multi-statement read to `_read`, and single
read statements to `query`; it never sees which database runs them.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from typing import ClassVar, TypeVar

from bot.store.ledger import Tx
from bot.store.sql import Body, Dialect, Rows, Statement

T = TypeVar("T")

#: a write transaction: a function making the body for one run (PostgreSQL may run it again)
TxBody = Callable[[Tx], Body[T]]


class Driver:
    """The three ways a store method reaches its database (see the module docstring)."""

    dialect: ClassVar[Dialect]

    async def query(self, sql: str, params: Sequence[object] = ()) -> Rows:
        """Every row of one read statement (`?` placeholders)."""
        raise NotImplementedError

    async def _transaction(self, fn: TxBody[T], now: float | None = None) -> T:
        """Run the body `fn(tx)` as ONE transaction (`tx.now` is `now`, default the wall
        clock); its value once committed."""
        raise NotImplementedError

    async def _read(self, fn: Callable[[], Body[T]]) -> T:
        """Run a reading body on one consistent view of the database."""
        raise NotImplementedError


def committed(fn: TxBody[T], tx: Tx) -> Generator[Statement, Rows, T]:
    """The whole transaction of the body `fn`: the body, then its buffered ledger rows."""
    value = yield from fn(tx)
    yield from tx.flush()
    return value
