"""`python -m bot db upgrade|copy`: a server moved from SQLite to PostgreSQL (and back) keeps
every chip, ledger row and table; a non-empty target is refused."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli.db import copy, summarise
from bot.store import HandRecord, Move, Store, open_store, parse_database
from bot.store.errors import StoreError
from bot.store.models import TableSave
from bot.store.schema import LATEST

from .conftest import GUILD, OTHER_GUILD, postgres_schema


async def _fill(path: str) -> list[int]:
    """A SQLite server with accounts, grants, a daily claim, stakes, a finished hand and an
    open table holding chips; returns the open table ids."""
    store = await Store.open(path)
    try:
        await store.update_server_settings(GUILD, by=1, starting_balance=500, language="it")
        await store.set_stakes(GUILD, {"ante": 80}, by=1)
        await store.grant(GUILD, 10, 250, reason="prize", by=1)
        await store.claim_daily(OTHER_GUILD, 10, now=1_000.0)
        done = await store.create_table(GUILD, 1, settings={"ante": 80}, seats=[10, 11, -1])
        done = await store.save_table(
            done.id,
            TableSave(
                0,
                status="playing",
                moves=[Move(10, 80, "ante", 1), Move(11, 80, "ante", 1), Move(-1, 80, "ante", 1)],
            ),
        )
        done = await store.save_table(
            done.id,
            TableSave(
                1,
                moves=[Move(11, -240, "pot", 1)],
                hand=HandRecord(1, 4, "[]", {10: -80, 11: 160, -1: -80}, {11: 1}),
            ),
        )
        await store.close_table(done.id, expected_version=2)
        live = await store.create_table(GUILD, 2, settings={}, seats=[10, 12])
        live = await store.save_table(
            live.id,
            TableSave(
                0,
                status="playing",
                state='{"phase":"small"}',
                deadline=99.5,
                moves=[Move(10, 60, "ante", 1), Move(12, 60, "ante", 1)],
            ),
        )
        return [live.id]
    finally:
        await store.close()


async def test_copy_sqlite_to_postgresql_and_back_keeps_everything(tmp_path: Path) -> None:
    source = str(tmp_path / "source.db")
    open_ids = await _fill(source)
    async with postgres_schema() as open_pg:
        pg = await open_pg()  # the schema exists and is migrated, still empty
        url = open_pg.url
        assert await copy(f"sqlite:///{source}", url) == 0
        sqlite_side = await Store.open(source)
        try:
            expected = await summarise(sqlite_side)
            assert await summarise(pg) == expected
            assert expected.ledger_rows > 10 and expected.open_tables == 1
            assert [r.id for r in await pg.load_open_tables()] == open_ids
            assert await pg.load_open_tables() == await sqlite_side.load_open_tables()
            assert (await pg.server_settings(GUILD)).language == "it"
            assert (await pg.get_stakes(GUILD)).ante == 80
            assert (await pg.stats(GUILD, 11)).pots_won == 1
        finally:
            await sqlite_side.close()
        # the copy goes on working: new ids follow the copied ones
        new = await pg.create_table(GUILD, 3, settings={})
        assert new.id > max(open_ids)
        # a second copy into the now non-empty database is refused and changes nothing
        with pytest.raises(StoreError) as refused:
            await copy(f"sqlite:///{source}", url)
        assert refused.value.code == "target_not_empty"
        assert (await summarise(pg)).ledger_rows == expected.ledger_rows
        # and back into a fresh SQLite file
        back = str(tmp_path / "back.db")
        assert await copy(url, back) == 0
        again = await Store.open(back)
        try:
            assert (await summarise(again)).servers == expected.servers
        finally:
            await again.close()


async def test_upgrade_command_migrates_and_reports(tmp_path: Path) -> None:
    path = tmp_path / "fresh.db"
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "db", "upgrade", "--database", f"sqlite:///{path}"],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert f"version {LATEST}" in proc.stdout
    store = await open_store(str(path))
    try:
        assert await store.balance(GUILD, 1) == 1000  # type: ignore[union-attr]
    finally:
        await store.close()


def test_database_names_are_read_and_refused() -> None:
    assert parse_database("data/x.db").location == "data/x.db"
    assert parse_database("sqlite:///data/x.db").location == "data/x.db"
    assert parse_database("sqlite:////srv/x.db").location == "/srv/x.db"
    assert parse_database("postgresql://u:pw@h/db").kind == "postgresql"
    assert str(parse_database("postgresql://u:pw@h/db")) == "postgresql://u:***@h/db"
    for bad in ("mysql://h/db", "", "sqlite:///"):
        with pytest.raises(StoreError) as caught:
            parse_database(bad)
        assert caught.value.code == "bad_database_url"


def test_database_settings_from_the_environment() -> None:
    from bot.config import ConfigError, load_settings

    default = load_settings({}, dotenv=False)
    # the default SQLite file, resolved against the start folder (issue 15)
    expected = str((Path.cwd() / "data" / "stoppa.db").resolve())
    assert (default.database, default.db_pool_size) == (expected, 10)
    assert load_settings({"STOPPA_DB": "/tmp/a.db"}, dotenv=False).database == "/tmp/a.db"
    pg = load_settings(
        {"STOPPA_DB": "/tmp/a.db", "STOPPA_DATABASE_URL": "postgresql://u:pw@h/db",
         "STOPPA_DB_POOL_SIZE": "25"},
        dotenv=False,
    )
    assert (pg.database, pg.db_pool_size) == ("postgresql://u:pw@h/db", 25)
    assert "pw" not in repr(pg)  # the password never reaches a log line
    for bad in ({"STOPPA_DATABASE_URL": "mysql://h/db"}, {"STOPPA_DB_POOL_SIZE": "0"},
                {"STOPPA_DB_POOL_SIZE": "many"}):
        with pytest.raises(ConfigError):
            load_settings(bad, dotenv=False)
