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
    """A database URL with its password (if any) replaced by ***. The host follows the LAST
    `@` (a password typed with an `@` in it must not show its end), and a URL without a
    scheme is masked the same way (it is shown when it is refused)."""
    head, sep, tail = url.rpartition("@")
    if not sep:
        return url
    scheme, slashes, credentials = head.rpartition("://")
    user, colon, _password = credentials.partition(":")
    return f"{scheme}{slashes}{user}:***@{tail}" if colon else url


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


class DatabaseUrlError(ValueError):
    """A setting or option that must be a database URL is not one we know."""

    def __init__(self, url: str, setting: str) -> None:
        self.url, self.setting = without_password(url), setting
        super().__init__(self.message())

    def message(self) -> str:
        from bot.i18n import t

        return t("ops.db.bad_url", setting=self.setting, url=self.url)


def parse_database_url(text: str, setting: str) -> Database:
    """A database URL (`sqlite:///path`, `postgresql://...`, `postgres://...`, as asyncpg
    reads both), else DatabaseUrlError naming `setting`: a bare word such as `garbage` must
    not become a new SQLite file in the working folder."""
    text = text.strip()
    if text.startswith(POSTGRES_PREFIXES) or (
        text.startswith(SQLITE_PREFIX) and len(text) > len(SQLITE_PREFIX)
    ):
        return parse_database(text)
    raise DatabaseUrlError(text, setting)


class DatabaseOpenError(Exception):
    """The database could not be opened; `str(error)` is one line naming the database
    (never its password) and the likely fix. The cause is kept for a DEBUG traceback."""


def open_failure(error: BaseException, where: Database, setting: str) -> str | None:
    """The one line for an `error` met while opening `where`, or None when it is not one an
    operator can fix (a bug: it keeps its traceback)."""
    import sqlite3

    import asyncpg

    from bot.i18n import t

    shown, reason = str(where), (str(error) or type(error).__name__).splitlines()[0]
    if where.kind == "sqlite":
        if isinstance(error, sqlite3.Error | OSError):
            if "locked" in reason or "busy" in reason:
                return t("ops.db.sqlite_locked", database=shown, setting=setting)
            return t("ops.db.sqlite_open", database=shown, reason=reason, setting=setting)
        return None
    if isinstance(error, asyncpg.InvalidCatalogNameError):
        return t("ops.db.pg_no_database", database=shown, reason=reason, setting=setting)
    refused = asyncpg.InvalidAuthorizationSpecificationError | asyncpg.InvalidPasswordError
    if isinstance(error, refused):
        return t("ops.db.pg_role", database=shown, reason=reason, setting=setting)
    if isinstance(error, OSError | TimeoutError | asyncpg.PostgresConnectionError):
        return t("ops.db.pg_unreachable", database=shown, reason=reason, setting=setting)
    if isinstance(error, asyncpg.PostgresError | asyncpg.InterfaceError):
        return t("ops.db.pg_other", database=shown, reason=reason, setting=setting)
    return None


async def open_checked(
    database: str | os.PathLike[str], setting: str, *, pool_size: int | None = None
) -> StoreContract:
    """`open_store`, with a failure an operator can fix raised as DatabaseOpenError."""
    where = parse_database(database)
    try:
        return await open_store(database, pool_size=pool_size)
    except Exception as error:
        message = open_failure(error, where, setting)
        if message is None:
            raise
        raise DatabaseOpenError(message) from error


async def stored_schema_version(
    database: str | os.PathLike[str], setting: str
) -> int | None:
    """The schema version a database holds without creating or migrating anything: None when
    there is no database there (no SQLite file), 0 when it holds no schema of ours."""
    import sqlite3
    from pathlib import Path

    where = parse_database(database)
    try:
        if where.kind == "sqlite":
            if where.location.startswith((":memory:", "file:")):
                return 0
            path = Path(where.location).expanduser()
            if not path.is_file():
                return None
            conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
            try:
                return int(conn.execute("PRAGMA user_version").fetchone()[0])
            finally:
                conn.close()
        import asyncpg

        from bot.store.postgres.schema import schema_version

        pg = await asyncpg.connect(where.location)
        try:
            return await schema_version(pg)
        finally:
            await pg.close()
    except Exception as error:
        message = open_failure(error, where, setting)
        if message is None:
            raise
        raise DatabaseOpenError(message) from error
