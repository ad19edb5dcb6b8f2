"""Ratings and seasons on PostgreSQL: the statements of `bot.store.ratings`, numbered; the
reads both databases share are `bot.store.rating_reads`.

A new season and the ratings of a hand must not interleave (a hand's ratings would land in a
season whose standings are already frozen): both lock the server's row of `servers`, the new
season FOR UPDATE and each hand's ratings FOR SHARE (hands of different tables still run side
by side).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.models import RatingUpdate, Season, StoredRating
from bot.store.postgres.connection import PgBase, PgTransfers, numbered
from bot.store.rating_reads import CURRENT_SEASON, RATING_COLUMNS, RatingReads, stored_ratings
from bot.store.ratings import (
    END_SEASON,
    FIRST_POINT,
    INSERT_POINT,
    INSERT_STANDING,
    STANDINGS,
    START_SEASON,
    UPSERT_RATING,
    check_updates,
    season_name,
)


async def _lock_server(tx: PgTransfers, guild: int, mode: str) -> int:
    """Lock the server's row (creating it) in `mode`; the current season."""
    await tx.execute("INSERT INTO servers (guild_id) VALUES ($1) ON CONFLICT DO NOTHING", guild)
    await tx.execute(f"SELECT 1 FROM servers WHERE guild_id = $1 FOR {mode}", guild)
    return int(await tx.conn.fetchval(numbered(CURRENT_SEASON), guild))


async def write_ratings(
    tx: PgTransfers,
    guild: int,
    ordered: Sequence[RatingUpdate],
    hand_id: int | None,
    expected_season: int | None = None,
) -> int:
    """The writes of `record_ratings` inside a running transaction; the season. Nothing is
    written when `expected_season` is given and is no longer the current one."""
    season = await _lock_server(tx, guild, "SHARE")
    if expected_season is not None and season != expected_season:
        return season
    await tx.conn.executemany(
        numbered(UPSERT_RATING),
        [(guild, season, u.user, u.mu, u.sigma, u.hands, u.winnings, tx.now) for u in ordered],
    )
    await tx.conn.executemany(
        numbered(INSERT_POINT),
        [(guild, season, u.user, hand_id, tx.now, u.mu, u.sigma) for u in ordered],
    )
    return season


class PgRatingsMixin(PgBase, RatingReads):
    """Ratings and seasons of the PostgreSQL store: the writes, and the one read whose SQL is
    PostgreSQL's own (`ratings`: the users as one array parameter, the season a subquery);
    the other reads are `RatingReads`."""

    async def record_ratings(
        self,
        guild: int,
        updates: Sequence[RatingUpdate],
        *,
        hand_id: int | None = None,
        now: float | None = None,
    ) -> int:
        """Store every player's new rating after one hand and a history point each, in one
        transaction; the season they were recorded in."""
        ordered = check_updates(updates)

        async def record(tx: PgTransfers) -> int:
            return await write_ratings(tx, guild, ordered, hand_id)

        return await self._transaction(record, now)

    async def ratings(self, guild: int, users: Sequence[int]) -> dict[int, StoredRating]:
        """The current season's ratings of `users` (those never rated are left out)."""
        rows = await self._pool.fetch(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = $1"
            f" AND season = ({numbered(CURRENT_SEASON)}) AND user_id = ANY($2::bigint[])",
            guild,
            list(dict.fromkeys(users)),
        )
        return stored_ratings(rows)

    async def new_season(self, guild: int, name: str | None, *, now: float | None = None) -> Season:
        """End the season in progress (its standings frozen) and start the next, named
        `name`, with no ratings; balances are untouched. The new season."""
        clean = season_name(name)

        async def start(tx: PgTransfers) -> Season:
            current = await _lock_server(tx, guild, "UPDATE")
            first = await tx.conn.fetchval(numbered(FIRST_POINT), guild, current)
            await tx.execute(numbered(END_SEASON), guild, current, first, tx.now)
            standings = await tx.fetch(numbered(STANDINGS), guild, current)
            await tx.conn.executemany(
                numbered(INSERT_STANDING),
                [(guild, current, rank, *r) for rank, r in enumerate(standings, start=1)],
            )
            await tx.execute(numbered(START_SEASON), guild, current + 1, clean, tx.now)
            return Season(current + 1, clean, tx.now, None)

        return await self._transaction(start, now)
