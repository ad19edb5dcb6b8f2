"""The schema history (`bot.store.schema.MIGRATIONS`) applied to a PostgreSQL database.

The version lives in the one-row table `schema_version`. Each migration runs in its own
transaction with the version bump, under an advisory lock, so two processes starting at once
never apply a migration twice and a failure leaves the previous version.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.store.schema import LATEST, MIGRATIONS, too_new

if TYPE_CHECKING:
    from bot.store.postgres.connection import PgConnection

#: the advisory lock every migrating process takes (any constant shared by them all)
MIGRATION_LOCK = 0x5707_7A00


async def schema_version(conn: PgConnection) -> int:
    """The database's schema version (0: never migrated)."""
    exists = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
    if not exists:
        return 0
    value = await conn.fetchval("SELECT version FROM schema_version")
    return 0 if value is None else int(value)


async def migrate(conn: PgConnection, target: int = LATEST) -> list[int]:
    """Apply every migration above the database's version up to `target`; those applied.

    Raises StoreError("schema_too_new") for a database written by a newer bot.
    """
    applied: list[int] = []
    while True:
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            current = await schema_version(conn)
            if current > LATEST:
                raise too_new(current)
            if current >= target:
                return applied
            version = current + 1
            if current == 0:
                await conn.execute(
                    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"
                )
                await conn.execute("INSERT INTO schema_version (version) VALUES (0)")
            await conn.execute(MIGRATIONS[version - 1].postgres)
            await conn.execute("UPDATE schema_version SET version = $1", version)
        applied.append(version)
