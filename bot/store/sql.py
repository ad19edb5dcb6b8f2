"""The seam between a transaction's body and the database that runs it.

A transaction body is written ONCE, as a generator: it yields `Statement`s and receives each
statement's rows, and returns its value. It does no I/O of its own, so either driver can run
it: the SQLite driver steps through the whole body on its worker thread in one hop (inside
the group commit's savepoint), the PostgreSQL driver awaits each statement on a pooled
connection (and runs the body again, from the start, when PostgreSQL aborted it).

    def spend(tx: Tx) -> Body[int]:
        balance = yield from tx.add_to_user(guild, user, -100)   # a helper body
        rows = yield Statement("SELECT 1 FROM tables WHERE id = ?", (table_id,))
        return balance

Statements use `?` placeholders; the `Dialect` numbers them for PostgreSQL (`$1, $2...`) and
holds the few pieces of SQL the two databases really write differently (row locks, JSON
membership). Everything else (upserts with ON CONFLICT, RETURNING, CAST, CASE) both run as is.
"""

from __future__ import annotations

import re
from collections.abc import Generator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, TypeAlias, TypeVar

T = TypeVar("T")

#: the rows a statement returns: `sqlite3.Row` or `asyncpg.Record`, both read by position
#: and by column name
Rows: TypeAlias = list[Any]


@dataclass(frozen=True, slots=True)
class Statement:
    """One statement of a body with its parameters (`many`: `params` is a list of parameter
    tuples, run as one executemany; it returns no rows)."""

    sql: str
    params: Sequence[Any] = field(default=())
    many: bool = False


#: one row's columns as an INSERT or UPDATE writes them (name -> value): the SQL boundary,
#: where values are only handed to the driver
Columns: TypeAlias = dict[str, object]

#: a transaction body (or a helper it delegates to with `yield from`): yields statements,
#: is sent their rows, returns a T
Body: TypeAlias = Generator[Statement, Rows, T]


@lru_cache(maxsize=2048)
def numbered(sql: str) -> str:
    """`sql` with its `?` placeholders numbered as PostgreSQL wants them ($1, $2...).

    Only for the store's own statements, which never hold a `?` inside a string literal.
    """
    count = iter(range(1, sql.count("?") + 1))
    return re.sub(r"\?", lambda _: f"${next(count)}", sql)


@dataclass(frozen=True, slots=True)
class Dialect:
    """What the two databases write differently, in one place."""

    name: str
    #: PostgreSQL numbers its placeholders; SQLite takes `?` as written
    numbers_placeholders: bool
    #: row locks (`FOR UPDATE` / `FOR SHARE`): PostgreSQL's many writers need them; SQLite
    #: has one writer (the whole file is locked by BEGIN IMMEDIATE) and no such clause
    locks_rows: bool
    #: `{column}` (a JSON array of ids) holds the id `?`
    json_array_has: str
    #: `{column}` (a JSON object) has the key `?` (text)
    json_has_key: str

    def sql(self, text: str) -> str:
        """The statement `text` (with `?` placeholders) as this database takes it."""
        return numbered(text) if self.numbers_placeholders else text

    def lock(self, mode: str = "UPDATE") -> str:
        """The clause that locks the rows a SELECT reads until the commit (mode UPDATE or
        SHARE), or nothing."""
        return f" FOR {mode}" if self.locks_rows else ""


SQLITE = Dialect(
    name="sqlite",
    numbers_placeholders=False,
    locks_rows=False,
    json_array_has="EXISTS (SELECT 1 FROM json_each({column}) WHERE value = ?)",
    json_has_key="EXISTS (SELECT 1 FROM json_each({column}) j WHERE j.key = ?)",
)
POSTGRES = Dialect(
    name="postgresql",
    numbers_placeholders=True,
    locks_rows=True,
    json_array_has="({column})::jsonb @> to_jsonb(ARRAY[CAST(? AS BIGINT)])",
    json_has_key="jsonb_exists(({column})::jsonb, ?)",
)


def marks(n: int) -> str:
    """`n` placeholders for an IN list."""
    return ", ".join("?" * n)


def rows_of(sql: str, *params: object) -> Body[Rows]:
    """A body of one statement: its rows."""
    return (yield Statement(sql, params))
