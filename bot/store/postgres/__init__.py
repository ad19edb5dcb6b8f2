"""The store on PostgreSQL through asyncpg (`PostgresStore`): same contract as the SQLite one."""

from __future__ import annotations

from bot.store.postgres.store import DEFAULT_POOL_SIZE, PostgresStore

__all__ = ["DEFAULT_POOL_SIZE", "PostgresStore"]
