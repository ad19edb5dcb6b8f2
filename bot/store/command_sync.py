"""The slash commands' sync state: per target ("global", "guild:<id>") the hash of the
commands' JSON last sent to Discord (table `command_sync`, schema version 9).

Kept in the database, not beside a SQLite file, so that a bot on PostgreSQL also skips an
unchanged tree at start and every process knows which server still holds a former
`STOPPA_DEV_GUILD` copy to remove. Written once for both databases, like every store method.
"""

from __future__ import annotations

from bot.store.driver import Driver
from bot.store.sql import rows_of

READ = "SELECT target, digest FROM command_sync"
RECORD = (
    "INSERT INTO command_sync (target, digest, synced_at) VALUES (?, ?, ?)"
    " ON CONFLICT (target) DO UPDATE SET digest = excluded.digest, synced_at = excluded.synced_at"
)
FORGET = "DELETE FROM command_sync WHERE target = ?"


class CommandSyncMixin(Driver):
    """The command sync state (both databases)."""

    async def command_sync_state(self) -> dict[str, str]:
        """The hash last synced to each target."""
        return {str(target): str(digest) for target, digest in await self.query(READ)}

    async def record_command_sync(self, target: str, digest: str) -> None:
        """`digest` was just synced to `target`."""
        await self._transaction(lambda tx: rows_of(RECORD, target, digest, tx.now))

    async def forget_command_sync(self, target: str) -> None:
        """`target` holds no copy of the commands any more."""
        await self._transaction(lambda tx: rows_of(FORGET, target))
