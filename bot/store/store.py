"""`SQLiteStore`: the store on one SQLite file, assembled from its parts."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from bot.store.connection import SQLiteDriver
from bot.store.contract import CopyableStore
from bot.store.ledger import Tx
from bot.store.schema import TABLES
from bot.store.sql import Body, Statement


class SQLiteStore(SQLiteDriver, CopyableStore):
    """Accounts and ledger, stakes, tables and history in one SQLite file.

    Open with `await SQLiteStore.open(path)`; one instance (one writer connection) per process.
    """

    # whole-database copy (`python -m bot db copy`) ------------------------------------------
    async def schema_version(self) -> int:
        """The file's schema version (`PRAGMA user_version`)."""
        return int(await self.pragma("user_version"))

    async def is_empty(self) -> list[str]:
        """The tables of the schema that hold rows (empty list: the database is empty)."""
        return [name for name in TABLES if await self.query(f"SELECT 1 FROM {name} LIMIT 1")]

    async def export_rows(self, table: str) -> tuple[list[str], list[tuple[Any, ...]]]:
        """Every row of one schema table, in primary-key order, with its column names."""
        if table not in TABLES:
            raise ValueError(f"not a table of the schema: {table!r}")

        def read(db: sqlite3.Connection) -> tuple[list[str], list[tuple[Any, ...]]]:
            cursor = db.execute(f"SELECT * FROM {table} ORDER BY 1, 2")
            columns = [d[0] for d in cursor.description]
            return columns, [tuple(r) for r in cursor.fetchall()]

        return await self._read_with(read)

    async def import_rows(
        self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
    ) -> None:
        """Insert rows copied from another store, in one transaction."""
        if table not in TABLES:
            raise ValueError(f"not a table of the schema: {table!r}")
        names = ", ".join(f'"{c}"' for c in columns)
        sql = f"INSERT INTO {table} ({names}) VALUES ({', '.join('?' * len(columns))})"

        def insert(tx: Tx) -> Body[None]:
            yield Statement(sql, [tuple(r) for r in rows], many=True)

        await self._transaction(insert)


#: the name callers and tests have always used for the SQLite store
Store = SQLiteStore
