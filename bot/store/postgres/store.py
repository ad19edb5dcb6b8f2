"""`PostgresStore`: the store contract on PostgreSQL (asyncpg), for one or many processes.

The store's methods are the SQLite store's (`bot.store.methods.StoreMethods`, each
transaction body written once); this driver runs them on a pool with the retries that are
safe (`bot.store.postgres.connection`). What is PostgreSQL's own is here: opening (pool and
migrations) and the bulk paths of the whole-database copy.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, Self

import asyncpg

from bot.store.contract import CopyableStore
from bot.store.postgres.connection import PgDriver, StoreConnection, coerce
from bot.store.postgres.schema import migrate, schema_version
from bot.store.schema import TABLES

#: pool size when none is given (STOPPA_DB_POOL_SIZE)
DEFAULT_POOL_SIZE = 10


class PostgresStore(PgDriver, CopyableStore):
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
