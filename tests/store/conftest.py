"""Fixtures of the store tests: a fresh store per test, on SQLite and on PostgreSQL.

`store` runs each test on both backends: a new SQLite file, and a new schema of the
PostgreSQL database named by `STOPPA_TEST_POSTGRES_URL` (`bash .ci/run` starts a throwaway
server and sets it). Without that variable the PostgreSQL runs are skipped, saying how to run
them; with `STOPPA_REQUIRE_POSTGRES=1` (set by `.ci/run`) they fail instead of skipping.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.store import Store
from bot.store.contract import StoreContract

GUILD = 111
OTHER_GUILD = 222

POSTGRES_URL_VAR = "STOPPA_TEST_POSTGRES_URL"
HOW_TO_RUN = (
    f"no PostgreSQL server: set {POSTGRES_URL_VAR}=postgresql://user@host:port/database"
    " (a database you may create schemas in), or run `bash .ci/run`, which starts one"
)


def postgres_url() -> str:
    """The test server's URL; skips the test (or fails it, under STOPPA_REQUIRE_POSTGRES=1)."""
    url = os.environ.get(POSTGRES_URL_VAR, "").strip()
    if url:
        return url
    if os.environ.get("STOPPA_REQUIRE_POSTGRES") == "1":
        pytest.fail(f"STOPPA_REQUIRE_POSTGRES=1 but {HOW_TO_RUN}")
    pytest.skip(HOW_TO_RUN)


class PostgresSchema:
    """A fresh schema on the test server: `url` reaches it (its search_path), and calling the
    object opens a PostgresStore on it (each call its own pool, as a process has)."""

    def __init__(self, url: str, name: str) -> None:
        self.name = name
        self.url = f"{url}{'&' if '?' in url else '?'}search_path={name}"
        self.opened: list[Any] = []

    async def __call__(self, **options: Any) -> Any:
        from bot.store.postgres import PostgresStore

        store = await PostgresStore.open(self.url, **options)
        self.opened.append(store)
        return store


@asynccontextmanager
async def postgres_schema() -> AsyncIterator[PostgresSchema]:
    """A fresh schema on the test server, dropped (with its stores closed) at the end."""
    import asyncpg

    url = postgres_url()
    schema = PostgresSchema(url, f"test_{uuid.uuid4().hex[:12]}")
    admin = await asyncpg.connect(url)
    await admin.execute(f"CREATE SCHEMA {schema.name}")
    try:
        yield schema
    finally:
        for store in schema.opened:
            await store.close()
        await admin.execute(f"DROP SCHEMA {schema.name} CASCADE")
        await admin.close()


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    """A database path in a folder that does not exist yet."""
    return str(tmp_path / "nested" / "stoppa.db")


@pytest.fixture
async def sqlite_store(db_path: str) -> AsyncIterator[Store]:
    """An open SQLite store on a fresh file; the audit must be clean when the test ends."""
    s = await Store.open(db_path)
    try:
        yield s
        assert await s.audit() == []
    finally:
        await s.close()


@pytest.fixture(params=["sqlite", "postgresql"])
async def store(request: pytest.FixtureRequest, db_path: str) -> AsyncIterator[StoreContract]:
    """An open store on each backend, empty; the audit must be clean when the test ends."""
    if request.param == "sqlite":
        s = await Store.open(db_path)
        try:
            yield s
            assert await s.audit() == []
        finally:
            await s.close()
        return
    async with postgres_schema() as open_store:
        s = await open_store()
        yield s
        assert await s.audit() == []


@pytest.fixture(params=["sqlite", "postgresql"])
async def two_stores(
    request: pytest.FixtureRequest, db_path: str
) -> AsyncIterator[tuple[StoreContract, StoreContract]]:
    """Two stores on ONE database, as two bot processes have (two SQLite connections to one
    file; two PostgreSQL pools on one schema); the audit must be clean when the test ends."""
    if request.param == "sqlite":
        first, second = await Store.open(db_path), await Store.open(db_path)
        try:
            yield first, second
            assert await first.audit() == []
        finally:
            await first.close()
            await second.close()
        return
    async with postgres_schema() as open_store:
        first, second = await open_store(), await open_store()
        yield first, second
        assert await first.audit() == []
