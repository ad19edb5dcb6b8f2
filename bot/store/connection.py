"""The one writer connection of the process, and its transaction discipline.

Every public store method runs inside `_write()` (a `BEGIN IMMEDIATE ... COMMIT` under an
`asyncio.Lock`) or `_read()` (the lock only, so a read never sees another coroutine's
uncommitted writes on the shared connection). aiosqlite runs one thread per connection and
executes its calls in order, so the lock is what keeps two coroutines from interleaving
statements inside one transaction.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Self

import aiosqlite

from bot.store.ledger import Transfers
from bot.store.schema import migrate

BUSY_TIMEOUT_MS = 5000


def dumps(value: Any) -> str:
    """Compact JSON for a column."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def int_keys(text: str | None) -> dict[int, int]:
    """A JSON object {user: n} read back with integer keys."""
    return {int(k): int(v) for k, v in json.loads(text or "{}").items()}


class StoreBase:
    """Opening, closing and the transaction helpers shared by the store's parts."""

    def __init__(self, db: aiosqlite.Connection, path: str) -> None:
        self._db = db
        self.path = path
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | os.PathLike[str]) -> Self:
        """Open (creating the folder and file if needed) and migrate the database at `path`.

        Pragmas: WAL journal, synchronous=NORMAL, busy_timeout, foreign_keys=ON.
        """
        path = os.fspath(path)
        if path != ":memory:" and not path.startswith("file:"):
            Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
        # isolation_level="IMMEDIATE": the sqlite3 module opens a `BEGIN IMMEDIATE` itself before
        # a write statement run outside a transaction (used by `_write(begin=False)`)
        db = await aiosqlite.connect(path, isolation_level="IMMEDIATE")
        try:
            db.row_factory = sqlite3.Row
            await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute("PRAGMA synchronous = NORMAL")
            await db.execute("PRAGMA foreign_keys = ON")
            await migrate(db)
        except BaseException:
            await db.close()
            raise
        return cls(db, path)

    async def close(self) -> None:
        """Close the connection (waits for a transaction in progress to finish)."""
        async with self._lock:
            await self._db.close()

    async def pragma(self, name: str) -> Any:
        """The value of `PRAGMA name` (journal_mode, foreign_keys, busy_timeout...)."""
        if not name.isidentifier():
            raise ValueError(f"not a pragma name: {name!r}")
        async with self._read() as db:
            rows = await db.execute_fetchall(f"PRAGMA {name}")
            return next(iter(rows))[0]

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            yield self._db

    @asynccontextmanager
    async def _write(
        self, now: float | None = None, *, begin: bool = True
    ) -> AsyncIterator[Transfers]:
        """One `BEGIN IMMEDIATE` transaction: committed if the block ends, else rolled back.

        With `begin=False` the block's first statement must be a write (INSERT/UPDATE): the
        sqlite3 module then issues the `BEGIN IMMEDIATE` in the same call, saving a round trip
        to aiosqlite's thread on the hot paths (table saves, grants).
        """
        async with self._lock:
            db = self._db
            if begin:
                await db.execute("BEGIN IMMEDIATE")
            tx = Transfers(db, time.time() if now is None else now)
            try:
                yield tx
                await tx.flush()
                await db.execute("COMMIT")
            except BaseException:
                # Always queue the rollback (a no-op outside a transaction): aiosqlite runs calls
                # in order on its thread, so it runs after a statement whose await was cancelled
                # and before any later BEGIN, even if this task is being cancelled again.
                await asyncio.shield(db.rollback())
                raise
