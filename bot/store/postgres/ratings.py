"""Ratings and seasons on PostgreSQL: the statements of `bot.store.ratings`, numbered.

A new season and the ratings of a hand must not interleave (a hand's ratings would land in a
season whose standings are already frozen): both lock the server's row of `servers`, the new
season FOR UPDATE and each hand's ratings FOR SHARE (hands of different tables still run side
by side).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.models import RatingPoint, RatingRow, RatingUpdate, Season, StoredRating
from bot.store.postgres.connection import PgBase, PgTransfers, numbered
from bot.store.ratings import (
    CURRENT_SEASON,
    END_SEASON,
    FIRST_POINT,
    FROZEN_BOARD,
    FROZEN_COUNT,
    HISTORY,
    INSERT_POINT,
    INSERT_STANDING,
    LIVE_BOARD,
    LIVE_COUNT,
    SEASONS,
    STANDINGS,
    START_SEASON,
    UPSERT_RATING,
    check_page,
    check_updates,
    points_of,
    rating_rows,
    season_name,
    seasons_of,
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


class PgRatingsMixin(PgBase):
    """Ratings and seasons of the PostgreSQL store."""

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
            "SELECT user_id, mu, sigma, hands, winnings FROM ratings WHERE guild_id = $1"
            f" AND season = ({numbered(CURRENT_SEASON)}) AND user_id = ANY($2::bigint[])",
            guild,
            list(dict.fromkeys(users)),
        )
        return {
            int(r[0]): StoredRating(float(r[1]), float(r[2]), int(r[3]), int(r[4])) for r in rows
        }

    async def current_season(self, guild: int) -> int:
        """The number of the season in progress on the server."""
        return int((await self.query(CURRENT_SEASON, (guild,)))[0][0])

    async def rating_board(
        self, guild: int, season: int | None = None, limit: int = 10, offset: int = 0
    ) -> list[RatingRow]:
        """One page of the board of `season` (None: the current one, live; an ended one: its
        frozen standings). CPU players are left out."""
        check_page(limit, offset)
        current = await self.current_season(guild)
        sql = LIVE_BOARD if season is None or season == current else FROZEN_BOARD
        rows = await self.query(sql, (guild, current if season is None else season, limit, offset))
        return rating_rows(rows, offset)

    async def count_rated(self, guild: int, season: int | None = None) -> int:
        """How many players the board of `season` ranks (for paging)."""
        current = await self.current_season(guild)
        sql = LIVE_COUNT if season is None or season == current else FROZEN_COUNT
        return int((await self.query(sql, (guild, current if season is None else season)))[0][0])

    async def rating_history(self, guild: int, user: int, limit: int = 50) -> list[RatingPoint]:
        """The player's latest `limit` ratings of the current season, oldest first."""
        check_page(limit, 0)
        current = await self.current_season(guild)
        return points_of(await self.query(HISTORY, (guild, user, current, limit)))

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

    async def seasons(self, guild: int) -> list[Season]:
        """Every season of the server, oldest first (the last one is in progress)."""
        return seasons_of(await self.query(SEASONS, (guild,)))
