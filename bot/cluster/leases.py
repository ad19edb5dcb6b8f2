"""Table leases: no two processes ever drive one table, and a dead process's tables move on.

A table is driven (its actions applied, its turn clock run, its CPU players moved) only by the
process that holds its lease: a row of `table_leases` naming the owner and when the lease
expires. The owner renews it every `renew_every` seconds, pushing `expires_at` to now + `ttl`;
a process that dies stops renewing, and once `expires_at` has passed any process whose shards
hold the table's server may take the lease (a "steal") and resume the table from the database,
its turn clock restored from the stored deadline. During a reshard the old owner releases its
leases as it stops (or they expire), so the new owner takes over within `ttl` at worst.

The schema (one dialect-neutral statement; `table_id` is `tables.id`):

    CREATE TABLE table_leases (
        table_id    BIGINT PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
        owner       TEXT NOT NULL,              -- "<host>:<pid>:<random>", unique per process start
        expires_at  DOUBLE PRECISION NOT NULL,  -- seconds since the Unix epoch
        generation  BIGINT NOT NULL DEFAULT 1   -- +1 at every change of owner (a fencing token)
    );

Acquire, renew and steal are ONE conditional upsert (`ACQUIRE_SQL`; SQLite >= 3.35 and
PostgreSQL >= 9.5 both take `INSERT ... ON CONFLICT ... DO UPDATE ... WHERE ... RETURNING`; only
the placeholders differ, see `acquire_sql`): it inserts a free lease, updates the row only
when the caller already owns it or it has expired, and returns the row when the caller holds
the lease afterwards and no row otherwise. The database's row lock (PostgreSQL) or write lock
(SQLite) makes two concurrent claims serialise: the second sees the first's unexpired row and
gets nothing back.

    INSERT INTO table_leases (table_id, owner, expires_at, generation)
    VALUES (:table_id, :owner, :expires_at, 1)
    ON CONFLICT (table_id) DO UPDATE
       SET owner = excluded.owner,
           expires_at = excluded.expires_at,
           generation = table_leases.generation
               + CASE WHEN table_leases.owner = excluded.owner THEN 0 ELSE 1 END
     WHERE table_leases.owner = excluded.owner OR table_leases.expires_at <= :now
    RETURNING owner, expires_at, generation

Fencing, the part that makes "never two owners" hold for writes and not only for timers: every
transaction that changes a table (an action, a timeout, a close) runs `FENCE_SQL` first, in the
same transaction, and rolls back when it touches no row: a process paused past its expiry (GC,
SIGSTOP, a slow disk) and whose lease was stolen cannot write a single row afterwards.

    UPDATE table_leases SET expires_at = :expires_at
     WHERE table_id = :table_id AND owner = :owner AND expires_at > :now

A clean stop releases the caller's leases, so a successor need not wait for them to expire:

    DELETE FROM table_leases WHERE owner = :owner

The clock is each process's wall clock (`time.time`); processes on several machines need
clocks within a small fraction of `ttl - renew_every` of each other (NTP gives milliseconds).
`LeasePolicy` below is the same rule as pure code, the one place that decides timings; the
tests run it against these statements on a real SQLite file step by step.
"""

from __future__ import annotations

import os
import secrets
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Literal

Dialect = Literal["sqlite", "postgresql"]

ACQUIRE_SQL = """
INSERT INTO table_leases (table_id, owner, expires_at, generation)
VALUES (:table_id, :owner, :expires_at, 1)
ON CONFLICT (table_id) DO UPDATE
   SET owner = excluded.owner,
       expires_at = excluded.expires_at,
       generation = table_leases.generation
           + CASE WHEN table_leases.owner = excluded.owner THEN 0 ELSE 1 END
 WHERE table_leases.owner = excluded.owner OR table_leases.expires_at <= :now
RETURNING owner, expires_at, generation
"""

FENCE_SQL = """
UPDATE table_leases SET expires_at = :expires_at
 WHERE table_id = :table_id AND owner = :owner AND expires_at > :now
"""

RELEASE_SQL = "DELETE FROM table_leases WHERE owner = :owner"

CREATE_SQL = """
CREATE TABLE table_leases (
    table_id    BIGINT PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    owner       TEXT NOT NULL,
    expires_at  DOUBLE PRECISION NOT NULL,
    generation  BIGINT NOT NULL DEFAULT 1
)
"""

#: The order of the named parameters when a driver wants `$1, $2...` (asyncpg).
_POSITIONAL = (":table_id", ":owner", ":expires_at", ":now")


def for_dialect(sql: str, dialect: Dialect) -> str:
    """`sql` with placeholders the driver takes: `:name` for sqlite3/aiosqlite (unchanged),
    `$1, $2...` for asyncpg, numbered in the order of `_POSITIONAL` among the names `sql`
    uses (`RELEASE_SQL`: `$1` is the owner)."""
    if dialect == "sqlite":
        return sql
    used = [name for name in _POSITIONAL if name in sql]
    for number, name in enumerate(used, start=1):
        sql = sql.replace(name, f"${number}")
    return sql


def acquire_sql(dialect: Dialect) -> str:
    """`ACQUIRE_SQL` for `dialect` (asyncpg: `$1` table_id, `$2` owner, `$3` expires_at,
    `$4` now)."""
    return for_dialect(ACQUIRE_SQL, dialect)


def new_owner_id() -> str:
    """This process start's name in `table_leases.owner`: `<host>:<pid>:<random>`, so a
    restarted process (same host, maybe the same pid) never passes for its predecessor."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


@dataclass(frozen=True)
class Lease:
    """A `table_leases` row."""

    table_id: int
    owner: str
    expires_at: float
    generation: int = 1


@dataclass(frozen=True)
class LeasePolicy:
    """How long a lease lasts and when it is renewed, on `clock` (seconds; a fake in tests).

    `renew_every` is at most half of `ttl`, so one missed renewal (a slow transaction, a
    network blip) does not lose the lease.
    """

    ttl: float = 30.0
    renew_every: float = 10.0
    clock: Callable[[], float] = field(default=time.time, compare=False)

    def __post_init__(self) -> None:
        if not self.ttl > 0:
            raise ValueError("a lease's ttl must be more than 0 seconds")
        if not 0 < self.renew_every <= self.ttl / 2:
            raise ValueError("renew_every must be more than 0 and at most half of ttl")

    def claim(self, current: Lease | None, table_id: int, owner: str) -> Lease | None:
        """The lease after `owner` asks for it, or None when someone else holds it.

        Free: `owner` gets it. Its own: renewed (the generation stays). Another's, expired:
        stolen (generation + 1). Another's, running: refused. This is `ACQUIRE_SQL`.
        """
        now = self.clock()
        expires_at = now + self.ttl
        if current is None:
            return Lease(table_id, owner, expires_at)
        if current.owner == owner:
            return replace(current, expires_at=expires_at)
        if current.expires_at <= now:
            return Lease(table_id, owner, expires_at, current.generation + 1)
        return None

    def fence(self, current: Lease | None, owner: str) -> Lease | None:
        """The lease after its owner writes to the table (`FENCE_SQL`), or None when `owner`
        may not write: not the owner, or the lease ran out (then the write is rolled back)."""
        now = self.clock()
        if current is None or current.owner != owner or current.expires_at <= now:
            return None
        return replace(current, expires_at=now + self.ttl)

    def holds(self, lease: Lease | None, owner: str) -> bool:
        """Whether `owner` may drive the table now."""
        return lease is not None and lease.owner == owner and self.clock() < lease.expires_at

    def renew_due(self, lease: Lease) -> bool:
        """Whether the owner should renew now (`renew_every` after the last claim)."""
        return self.clock() >= lease.expires_at - self.ttl + self.renew_every

    def free_at(self, lease: Lease) -> float:
        """When another process may take the lease if its owner stops renewing."""
        return lease.expires_at
