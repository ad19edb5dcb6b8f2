"""`open_store(database)`: the right store for a SQLite path or a database URL.

    sqlite:///data/stoppa.db      a file, relative to the working folder
    sqlite:////srv/stoppa.db      an absolute path (four slashes, as SQLAlchemy writes it)
    data/stoppa.db                a plain path is a SQLite file too
    postgresql://user@host:5432/stoppa   (or postgres://...) a PostgreSQL database
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Literal

from bot.store.contract import StoreContract
from bot.store.errors import StoreError

SQLITE_PREFIX = "sqlite:///"
POSTGRES_PREFIXES = ("postgresql://", "postgres://")


@dataclass(frozen=True, slots=True)
class Database:
    """Where the data lives: a SQLite file path or a PostgreSQL URL."""

    kind: Literal["sqlite", "postgresql"]
    location: str

    def __str__(self) -> str:
        """The database as a URL fit for a log line or a terminal (no password)."""
        if self.kind == "sqlite":
            return f"{SQLITE_PREFIX}{self.location}"
        return without_password(self.location)


def without_password(url: str) -> str:
    """A database URL with its password (if any) replaced by ***."""
    head, sep, tail = url.partition("@")
    if not sep or "://" not in head:
        return url
    scheme, _, credentials = head.partition("://")
    user, colon, _password = credentials.partition(":")
    return f"{scheme}://{user}:***@{tail}" if colon else url


def parse_database(database: str | os.PathLike[str]) -> Database:
    """Read a SQLite path, a `sqlite:///` URL or a PostgreSQL URL (StoreError otherwise)."""
    text = os.fspath(database).strip()
    if text.startswith(POSTGRES_PREFIXES):
        return Database("postgresql", text)
    if text.startswith(SQLITE_PREFIX):
        path = text[len(SQLITE_PREFIX) :]
        if path:
            return Database("sqlite", path)
    elif text and "://" not in text:
        return Database("sqlite", text)
    raise StoreError("bad_database_url", {"url": without_password(text)})


async def open_store(
    database: str | os.PathLike[str], *, pool_size: int | None = None
) -> StoreContract:
    """Open (and migrate) the store `database` names; `pool_size` is PostgreSQL's pool."""
    where = parse_database(database)
    if where.kind == "postgresql":
        from bot.store.postgres import PostgresStore

        return await PostgresStore.open(where.location, pool_size=pool_size)
    from bot.store.store import SQLiteStore

    return await SQLiteStore.open(where.location)
