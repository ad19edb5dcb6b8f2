"""Turn pings per member and server: who asked the bot not to mention them (`/pings off`).

A row of `pings_off` means "no pings for this member on this server"; no row is the default
(pings on).
"""

from __future__ import annotations

from bot.store.driver import Driver
from bot.store.sql import rows_of

PINGS_OFF = (
    "INSERT INTO pings_off (guild_id, user_id) VALUES (?, ?)"
    " ON CONFLICT (guild_id, user_id) DO NOTHING"
)
PINGS_ON = "DELETE FROM pings_off WHERE guild_id = ? AND user_id = ?"
OPTED_OUT = "SELECT user_id FROM pings_off WHERE guild_id = ?"


class PingsMixin(Driver):
    """The ping opt-outs (both databases)."""

    async def set_pings(self, guild: int, user: int, on: bool) -> None:
        """Turn the member's turn pings on this server on (the default) or off."""
        sql = PINGS_ON if on else PINGS_OFF
        await self._transaction(lambda tx: rows_of(sql, guild, user))

    async def pings_off(self, guild: int) -> set[int]:
        """The members of the server who turned their turn pings off."""
        return {int(r[0]) for r in await self.query(OPTED_OUT, (guild,))}
