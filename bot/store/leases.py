"""Table leases: which process runs a table, until when (several processes on one database).

A lease is one row of `table_leases`. Taking it is ONE conditional statement (an upsert whose
update only applies when the row is free, expired or already ours), so two processes can
never both hold a table; time always comes from the caller (`now`), so tests use a fake
clock. On PostgreSQL the upsert locks the conflicting row and re-checks the condition on its
newest version, so of any number of processes trying at once exactly one gets a free or
expired lease.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from typing import Any

from bot.store.driver import Driver
from bot.store.ledger import Tx
from bot.store.models import Lease, TableRow
from bot.store.sql import Body, Statement, rows_of
from bot.store.tables import COLUMNS, table_row

#: take the lease when free, expired or ours; RETURNING a row only when taken
ACQUIRE = (
    "INSERT INTO table_leases (table_id, owner, expires_at) VALUES (?, ?, ?)"
    " ON CONFLICT (table_id) DO UPDATE SET owner = excluded.owner,"
    " expires_at = excluded.expires_at"
    " WHERE table_leases.owner = excluded.owner OR table_leases.expires_at <= ?"
    " RETURNING owner, expires_at"
)
HOLDER = "SELECT owner, expires_at FROM table_leases WHERE table_id = ?"
RENEW = (
    "UPDATE table_leases SET expires_at = ? WHERE table_id = ? AND owner = ? AND expires_at > ?"
    " RETURNING table_id"
)
RENEW_ALL = (
    "UPDATE table_leases SET expires_at = ? WHERE owner = ? AND expires_at > ?"
    " RETURNING table_id"
)
RELEASE = "DELETE FROM table_leases WHERE table_id = ? AND owner = ? RETURNING table_id"
LEASED = "SELECT table_id FROM table_leases WHERE owner = ? AND expires_at > ? ORDER BY table_id"


def check_lease(owner: str, ttl: float) -> None:
    """ValueError for an empty owner name or a ttl that is not a positive finite number."""
    if not isinstance(owner, str) or not owner.strip() or len(owner) > 200:
        raise ValueError(f"a lease owner is a non-empty name, not {owner!r}")
    if isinstance(ttl, bool) or not isinstance(ttl, int | float) or not 0 < ttl < math.inf:
        raise ValueError(f"a lease ttl is a positive number of seconds, not {ttl!r}")


def lease_of(table_id: int, owner: str, rows: list[Any], holder: list[Any]) -> Lease:
    """The outcome of ACQUIRE (`rows`), else the current holder read by HOLDER."""
    if rows:
        return Lease(table_id, str(rows[0][0]), float(rows[0][1]), granted=True)
    if not holder:  # the row vanished between the two statements: nobody holds it
        return Lease(table_id, "", 0.0, granted=False)
    return Lease(table_id, str(holder[0][0]), float(holder[0][1]), granted=False)


def open_tables_sql(guild_ids: Collection[int] | None) -> tuple[str, tuple[int, ...]]:
    """The statement listing open tables (of `guild_ids` only, when given), oldest first."""
    if guild_ids is None:
        return f"SELECT {COLUMNS} FROM tables WHERE status != 'closed' ORDER BY id", ()
    ids = tuple(sorted({int(g) for g in guild_ids}))
    if not ids:
        return f"SELECT {COLUMNS} FROM tables WHERE 0 = 1", ()
    marks = ", ".join("?" * len(ids))
    return (
        f"SELECT {COLUMNS} FROM tables WHERE status != 'closed' AND guild_id IN ({marks})"
        " ORDER BY id",
        ids,
    )


class LeasesMixin(Driver):
    """Table leases and the resume listing (both databases)."""

    async def acquire_lease(self, table_id: int, owner: str, ttl: float, now: float) -> Lease:
        """Take the table's lease until `now + ttl` if it is free, expired or already ours."""
        check_lease(owner, ttl)

        def acquire(tx: Tx) -> Body[Lease]:
            rows = yield Statement(ACQUIRE, (table_id, owner, now + ttl, now))
            holder = [] if rows else (yield Statement(HOLDER, (table_id,)))
            return lease_of(table_id, owner, rows, holder)

        return await self._transaction(acquire, now)

    async def renew_lease(self, table_id: int, owner: str, ttl: float, now: float) -> bool:
        """Extend our lease to `now + ttl`; False if it is not ours or already expired."""
        check_lease(owner, ttl)
        rows = await self._transaction(
            lambda tx: rows_of(RENEW, now + ttl, table_id, owner, now), now
        )
        return bool(rows)

    async def renew_leases(self, owner: str, ttl: float, now: float) -> list[int]:
        """Extend every unexpired lease of `owner` to `now + ttl` in one statement; the ids of
        the tables renewed, sorted (a lease not listed was lost)."""
        check_lease(owner, ttl)
        rows = await self._transaction(lambda tx: rows_of(RENEW_ALL, now + ttl, owner, now), now)
        return sorted(int(r[0]) for r in rows)

    async def release_lease(self, table_id: int, owner: str) -> bool:
        """Give up our lease; False if we did not hold it."""
        return bool(await self._transaction(lambda tx: rows_of(RELEASE, table_id, owner)))

    async def leased_tables(self, owner: str, now: float) -> list[int]:
        """The ids of the tables whose lease `owner` holds at `now`."""
        return [int(r[0]) for r in await self.query(LEASED, (owner, now))]

    async def load_open_tables(self, guild_ids: Collection[int] | None = None) -> list[TableRow]:
        """Every table not closed (of the servers `guild_ids` only, when given), oldest first."""
        sql, params = open_tables_sql(guild_ids)
        return [table_row(r) for r in await self.query(sql, params)]
