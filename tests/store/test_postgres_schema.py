"""The schema history on PostgreSQL: from empty and from every older version, two processes
starting at once, and a database written by a newer bot refused."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bot.store import Move, StoreError
from bot.store.models import TableSave
from bot.store.postgres.schema import migrate, schema_version
from bot.store.schema import LATEST

from .conftest import GUILD, postgres_schema


@pytest.mark.parametrize("older", range(LATEST))
async def test_migrate_from_every_older_version(older: int) -> None:
    async with postgres_schema() as schema:
        conn = await asyncpg.connect(schema.url)
        try:
            assert await migrate(conn, older) == list(range(1, older + 1))
            if older >= 1:  # v1 data survives the upgrade
                await conn.execute(
                    "INSERT INTO accounts (guild_id, user_id, balance, created_at)"
                    " VALUES ($1, 5, 777, 0)",
                    GUILD,
                )
                await conn.execute(
                    "INSERT INTO ledger (at, guild_id, src_kind, dst_kind, dst_id, amount,"
                    " reason) VALUES (0, $1, 'mint', 'user', 5, 777, 'start')",
                    GUILD,
                )
        finally:
            await conn.close()
        store = await schema()
        assert await store.schema_version() == LATEST
        if older >= 1:
            assert await store.balance(GUILD, 5) == 777
        row = await store.create_table(GUILD, 1, settings={}, seats=[5, 6])
        await store.save_table(row.id, TableSave(0, moves=[Move(6, 60, "ante", 1)]))
        assert await store.audit() == []


async def test_two_processes_starting_at_once_migrate_once() -> None:
    async with postgres_schema() as schema:
        first, second = await asyncio.gather(schema(), schema())
        assert await first.schema_version() == await second.schema_version() == LATEST
        await first.balance(GUILD, 1)
        assert await second.balance(GUILD, 1) == 1000


async def test_database_from_a_newer_bot_is_refused() -> None:
    async with postgres_schema() as schema:
        store = await schema()
        conn = await asyncpg.connect(schema.url)
        try:
            await conn.execute("UPDATE schema_version SET version = $1", LATEST + 1)
            assert await schema_version(conn) == LATEST + 1
        finally:
            await conn.close()
        with pytest.raises(StoreError) as refused:
            await schema()
        assert refused.value.code == "schema_too_new"
        assert await store.balance(GUILD, 2) == 1000  # the open store is untouched
