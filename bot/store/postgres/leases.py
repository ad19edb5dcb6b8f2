"""Table leases on PostgreSQL: the statements of `bot.store.leases`, numbered for asyncpg.

The lease is taken by ONE `INSERT ... ON CONFLICT DO UPDATE ... WHERE` statement: PostgreSQL
locks the conflicting row and re-checks the condition on its newest version, so of any number
of processes trying at once exactly one gets a free or expired lease.
"""

from __future__ import annotations

from collections.abc import Collection

from bot.store.leases import (
    ACQUIRE,
    HOLDER,
    LEASED,
    RELEASE,
    RENEW,
    RENEW_ALL,
    check_lease,
    lease_of,
    open_tables_sql,
)
from bot.store.models import Lease, TableRow
from bot.store.postgres.connection import PgBase, PgTransfers, numbered
from bot.store.tables import table_row


class PgLeasesMixin(PgBase):
    """Table leases and the resume listing of the PostgreSQL store."""

    async def acquire_lease(self, table_id: int, owner: str, ttl: float, now: float) -> Lease:
        """Take the table's lease until `now + ttl` if it is free, expired or already ours."""
        check_lease(owner, ttl)

        async def acquire(tx: PgTransfers) -> Lease:
            rows = await tx.fetch(numbered(ACQUIRE), table_id, owner, now + ttl, now)
            holder = [] if rows else await tx.fetch(numbered(HOLDER), table_id)
            return lease_of(table_id, owner, rows, holder)

        return await self._transaction(acquire, now)

    async def renew_lease(self, table_id: int, owner: str, ttl: float, now: float) -> bool:
        """Extend our lease to `now + ttl`; False if it is not ours or already expired."""
        check_lease(owner, ttl)

        async def renew(tx: PgTransfers) -> bool:
            return bool(await tx.fetch(numbered(RENEW), now + ttl, table_id, owner, now))

        return await self._transaction(renew, now)

    async def renew_leases(self, owner: str, ttl: float, now: float) -> list[int]:
        """Extend every unexpired lease of `owner` to `now + ttl` in one statement; the ids of
        the tables renewed, sorted (a lease not listed was lost)."""
        check_lease(owner, ttl)

        async def renew(tx: PgTransfers) -> list[int]:
            return sorted(int(r[0]) for r in await tx.fetch(numbered(RENEW_ALL), now + ttl,
                                                            owner, now))

        return await self._transaction(renew, now)

    async def release_lease(self, table_id: int, owner: str) -> bool:
        """Give up our lease; False if we did not hold it."""

        async def release(tx: PgTransfers) -> bool:
            return bool(await tx.fetch(numbered(RELEASE), table_id, owner))

        return await self._transaction(release)

    async def leased_tables(self, owner: str, now: float) -> list[int]:
        """The ids of the tables whose lease `owner` holds at `now`."""
        return [int(r[0]) for r in await self.query(LEASED, (owner, now))]

    async def load_open_tables(self, guild_ids: Collection[int] | None = None) -> list[TableRow]:
        """Every table not closed (of the servers `guild_ids` only, when given), oldest first."""
        sql, params = open_tables_sql(guild_ids)
        return [table_row(r) for r in await self.query(sql, params)]
