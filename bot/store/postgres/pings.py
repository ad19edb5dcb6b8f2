"""Turn-ping opt-outs on PostgreSQL: the statements of `bot.store.pings`, numbered."""

from __future__ import annotations

from bot.store.pings import OPTED_OUT, PINGS_OFF, PINGS_ON
from bot.store.postgres.connection import PgBase, PgTransfers, numbered


class PgPingsMixin(PgBase):
    """The ping opt-outs of the PostgreSQL store."""

    async def set_pings(self, guild: int, user: int, on: bool) -> None:
        """Turn the member's turn pings on this server on (the default) or off."""
        sql = numbered(PINGS_ON if on else PINGS_OFF)

        async def write(tx: PgTransfers) -> None:
            await tx.execute(sql, guild, user)

        await self._transaction(write)

    async def pings_off(self, guild: int) -> set[int]:
        """The members of the server who turned their turn pings off."""
        return {int(r[0]) for r in await self.query(OPTED_OUT, (guild,))}
