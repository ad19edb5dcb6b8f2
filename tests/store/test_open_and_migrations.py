"""Opening the file, pragmas, schema migrations (from empty and from every older version),
and restart: reopening the same file finds everything."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.store import CooldownActive, HandRecord, Move, Store, StoreError
from bot.store.models import TableSave
from bot.store.schema import LATEST, MIGRATIONS, migrate, schema_version

from .conftest import GUILD


async def test_open_creates_folder_and_file_with_pragmas(db_path: str) -> None:
    assert not Path(db_path).parent.exists()
    store = await Store.open(db_path)
    try:
        assert Path(db_path).is_file()
        assert await store.pragma("journal_mode") == "wal"
        assert await store.pragma("foreign_keys") == 1
        assert await store.pragma("busy_timeout") == 5000
        assert await store.pragma("user_version") == LATEST
    finally:
        await store.close()


async def test_at_least_two_migrations_shipped() -> None:
    assert LATEST == len(MIGRATIONS) >= 2


def _tables(path: str) -> set[str]:
    with sqlite3.connect(path) as c:
        return {r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


async def _at_version(path: str, version: int) -> None:
    db = sqlite3.connect(path, isolation_level="IMMEDIATE")
    try:
        assert migrate(db, version) == list(range(1, version + 1))
        assert schema_version(db) == version
    finally:
        db.close()


@pytest.mark.parametrize("older", range(LATEST))
async def test_migrate_from_every_older_version(db_path: str, older: int) -> None:
    Path(db_path).parent.mkdir(parents=True)
    await _at_version(db_path, older)
    if older >= 1:  # v1 data: an account with its ledger row survives the upgrade
        with sqlite3.connect(db_path) as c:
            c.execute(
                "INSERT INTO accounts (guild_id, user_id, balance, created_at) VALUES (?, ?, ?, 0)",
                (GUILD, 5, 777),
            )
            c.execute(
                "INSERT INTO ledger (at, guild_id, src_kind, dst_kind, dst_id, amount, reason)"
                " VALUES (0, ?, 'mint', 'user', 5, 777, 'start')",
                (GUILD,),
            )
    store = await Store.open(db_path)
    try:
        assert await store.pragma("user_version") == LATEST
        assert {"accounts", "ledger", "tables", "hands", "player_stats"} <= _tables(db_path)
        if older >= 1:
            assert await store.balance(GUILD, 5) == 777
        # the upgraded file works end to end: a hand is recorded in v2 tables
        row = await store.create_table(GUILD, 1, settings={}, seats=[5, 6, 7])
        row = await store.save_table(
            row.id,
            TableSave(0, moves=[Move(6, 60, "ante", 1)], hand=HandRecord(1, 9, "[]", {6: -60})),
        )
        assert (await store.stats(GUILD, 6)).hands == 1
        await store.close_table(row.id, expected_version=1, refunds=[Move(6, -60, "refund")])
        assert await store.audit() == []
    finally:
        await store.close()


async def test_migrations_are_idempotent_on_reopen(db_path: str) -> None:
    for _ in range(3):
        store = await Store.open(db_path)
        assert await store.pragma("user_version") == LATEST
        await store.close()


async def test_file_from_a_newer_bot_is_refused(db_path: str) -> None:
    Path(db_path).parent.mkdir(parents=True)
    with sqlite3.connect(db_path) as c:
        c.execute(f"PRAGMA user_version = {LATEST + 1}")
    with pytest.raises(StoreError) as info:
        await Store.open(db_path)
    assert info.value.code == "schema_too_new"


async def test_failed_migration_leaves_previous_version(db_path: str) -> None:
    Path(db_path).parent.mkdir(parents=True)
    await _at_version(db_path, 1)
    with sqlite3.connect(db_path) as c:  # a clash makes migration 2 fail half-way
        c.execute("CREATE TABLE player_stats (x)")
    with pytest.raises(sqlite3.OperationalError):
        await Store.open(db_path)
    with sqlite3.connect(db_path) as c:
        assert c.execute("PRAGMA user_version").fetchone()[0] == 1
        assert "hands" not in {
            r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }


async def test_restart_finds_everything(db_path: str) -> None:
    store = await Store.open(db_path)
    await store.update_server_settings(GUILD, by=1, starting_balance=500, language="it")
    await store.set_stakes(GUILD, {"ante": 80, "cards_per_payment": 2}, by=1)
    await store.grant(GUILD, 10, 250, reason="prize", by=1)
    claim = await store.claim_daily(GUILD, 10, now=1_000.0)
    row = await store.create_table(GUILD, 42, settings={"ante": 80}, seats=[10, 11, -1])
    row = await store.save_table(
        row.id,
        TableSave(
            row.version,
            status="playing",
            state='{"phase":"small"}',
            meta={"hand_no": 1},
            deadline=1234.5,
            dealer=11,
            moves=[Move(10, 80, "ante", 1), Move(11, 80, "ante", 1), Move(-1, 80, "ante", 1)],
        ),
    )
    await store.close()

    again = await Store.open(db_path)
    try:
        assert (await again.server_settings(GUILD)).language == "it"
        assert (await again.get_stakes(GUILD)).ante == 80
        assert await again.balance(GUILD, 10) == claim.balance - 80 == 500 + 250 + 200 - 80
        assert await again.load_open_tables() == [row]
        assert await again.escrow(row.id) == 240
        with pytest.raises(CooldownActive):
            await again.claim_daily(GUILD, 10, now=2_000.0)
        assert await again.audit() == []
    finally:
        await again.close()
