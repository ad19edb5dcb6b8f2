"""Where the slash-command sync state lives: the table `command_sync` of the bot's database.

Per target ("global", "guild:<id>") it holds the hash of the commands' JSON last sent to
Discord. Kept in the database (schema version 9, both backends) and not in a file beside a
SQLite database, so a bot on PostgreSQL also skips an unchanged tree and still knows which
server holds a former `STOPPA_DEV_GUILD` copy to remove. It is read and written at start
only, on a short connection of its own: nothing of the store's transactions is involved.
A state file of an older version (`<database>.commands.json`) is taken over once.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from bot.store.factory import Database, parse_database

_READ = "SELECT target, digest FROM command_sync"
_SQLITE_WRITE = (
    "INSERT INTO command_sync (target, digest, synced_at) VALUES (?, ?, ?)"
    " ON CONFLICT (target) DO UPDATE SET digest = excluded.digest, synced_at = excluded.synced_at"
)
_PG_WRITE = _SQLITE_WRITE.replace("?, ?, ?", "$1, $2, $3")
_SQLITE_FORGET = "DELETE FROM command_sync WHERE target = ?"
_PG_FORGET = "DELETE FROM command_sync WHERE target = $1"


def legacy_state_file(where: Database) -> Path | None:
    """The JSON file an older version kept beside a SQLite database file (None otherwise)."""
    if where.kind != "sqlite" or where.location.startswith((":memory:", "file:")):
        return None
    db = Path(where.location)
    return db.with_name(db.name + ".commands.json")


@dataclass(frozen=True, slots=True)
class SyncStateBook:
    """Reads and writes the `command_sync` rows of one (already migrated) database."""

    where: Database

    @classmethod
    def of(cls, database: str) -> SyncStateBook | None:
        """The book of `database`; None for an in-memory SQLite database, which another
        connection cannot see (its commands are then synced at every start)."""
        where = parse_database(database)
        if where.kind == "sqlite" and where.location.startswith((":memory:", "file:")):
            return None
        return cls(where)

    async def load(self) -> dict[str, str]:
        """The hash per target; a legacy state file is moved into the table first."""
        hashes = await self._read()
        legacy = legacy_state_file(self.where)
        if not hashes and legacy is not None and legacy.is_file():
            for target, digest in _read_legacy(legacy).items():
                await self.save(target, digest)
            legacy.unlink()
            hashes = await self._read()
        return hashes

    async def save(self, target: str, digest: str) -> None:
        """Record that `digest` was synced to `target` now."""
        await self._write(_SQLITE_WRITE, _PG_WRITE, target, digest, time.time())

    async def forget(self, target: str) -> None:
        """`target` holds no copy of the commands any more."""
        await self._write(_SQLITE_FORGET, _PG_FORGET, target)

    async def _read(self) -> dict[str, str]:
        if self.where.kind == "sqlite":
            rows = await asyncio.to_thread(_sqlite_run, self.where.location, _READ, ())
        else:
            import asyncpg

            conn = await asyncpg.connect(self.where.location)
            try:
                rows = [(r[0], r[1]) for r in await conn.fetch(_READ)]
            finally:
                await conn.close()
        return {str(target): str(digest) for target, digest in rows}

    async def _write(self, sqlite_sql: str, pg_sql: str, *params: object) -> None:
        if self.where.kind == "sqlite":
            await asyncio.to_thread(_sqlite_run, self.where.location, sqlite_sql, params)
            return
        import asyncpg

        conn = await asyncpg.connect(self.where.location)
        try:
            await conn.execute(pg_sql, *params)
        finally:
            await conn.close()


def _sqlite_run(path: str, sql: str, params: tuple[object, ...]) -> list[tuple[object, ...]]:
    """One statement in its own transaction (busy timeout: the store may be writing)."""
    conn = sqlite3.connect(path, timeout=10.0)
    try:
        with conn:
            return [tuple(row) for row in conn.execute(sql, params).fetchall()]
    finally:
        conn.close()


def _read_legacy(path: Path) -> dict[str, str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}
