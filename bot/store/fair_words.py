"""Players' words for the fair deal (docs/fairness.md, `/fair word`), per member and server.

A row of `fair_words` is the member's word, already normalised (`bot.fairness.normalise_word`);
no row means no word (an empty word deletes the row).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.driver import Driver
from bot.store.sql import rows_of

SET_WORD = (
    "INSERT INTO fair_words (guild_id, user_id, word, set_at) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (guild_id, user_id) DO UPDATE SET word = excluded.word,"
    " set_at = excluded.set_at"
)
CLEAR_WORD = "DELETE FROM fair_words WHERE guild_id = ? AND user_id = ?"
WORDS = "SELECT user_id, word FROM fair_words WHERE guild_id = ? AND user_id IN ({users})"


class FairWordsMixin(Driver):
    """The players' words (both databases)."""

    async def set_word(self, guild: int, user: int, word: str) -> None:
        """Keep `word` (normalised) as the member's word on this server; "" clears it."""
        if word:
            await self._transaction(lambda tx: rows_of(SET_WORD, guild, user, word, tx.now))
        else:
            await self._transaction(lambda tx: rows_of(CLEAR_WORD, guild, user))

    async def words_of(self, guild: int, users: Sequence[int]) -> dict[int, str]:
        """The words of those of `users` who set one on this server."""
        wanted = sorted(set(users))
        if not wanted:
            return {}
        sql = WORDS.format(users=", ".join("?" * len(wanted)))
        return {int(r[0]): str(r[1]) for r in await self.query(sql, (guild, *wanted))}
