"""Players' words on PostgreSQL: the statements of `bot.store.fair_words`, numbered."""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.fair_words import CLEAR_WORD, SET_WORD, WORDS
from bot.store.postgres.connection import PgBase, PgTransfers, numbered


class PgFairWordsMixin(PgBase):
    """The players' words of the PostgreSQL store."""

    async def set_word(self, guild: int, user: int, word: str) -> None:
        """Keep `word` (normalised) as the member's word on this server; "" clears it."""

        async def write(tx: PgTransfers) -> None:
            if word:
                await tx.execute(numbered(SET_WORD), guild, user, word, tx.now)
            else:
                await tx.execute(numbered(CLEAR_WORD), guild, user)

        await self._transaction(write)

    async def words_of(self, guild: int, users: Sequence[int]) -> dict[int, str]:
        """The words of those of `users` who set one on this server."""
        wanted = set(users)
        rows = await self.query(WORDS, (guild,)) if wanted else []
        return {int(r[0]): str(r[1]) for r in rows if int(r[0]) in wanted}
