"""The rating reads both stores share: boards, counts, history and seasons.

They are single statements in `?` style that both dialects run as they are (the PostgreSQL
driver's `query` numbers the placeholders), over the one method both drivers offer:
`query(sql, params) -> rows`. Rows come back as `sqlite3.Row` or `asyncpg.Record`; both index
by position, which is all the conversions here use. The writes are `bot.store.ratings`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.store.driver import Driver
from bot.store.models import RatingPoint, RatingRow, Season, StoredRating

#: how many sigmas below mu a board ranks by
BOARD_SIGMAS = 3

CURRENT_SEASON = "SELECT CAST(COALESCE(MAX(id), 1) AS BIGINT) FROM seasons WHERE guild_id = ?"
#: what a board ranks by: the conservative estimate
BOARD_SCORE = f"(mu - {BOARD_SIGMAS} * sigma)"
#: the columns of a stored rating (`stored_ratings` reads them in this order)
RATING_COLUMNS = "user_id, mu, sigma, hands, winnings"
LIVE_BOARD = (
    f"SELECT {RATING_COLUMNS} FROM ratings"
    f" WHERE guild_id = ? AND season = ? AND user_id > 0 ORDER BY {BOARD_SCORE} DESC, user_id"
    " LIMIT ? OFFSET ?"
)
FROZEN_BOARD = (
    f"SELECT {RATING_COLUMNS} FROM season_standings"
    " WHERE guild_id = ? AND season = ? ORDER BY rank LIMIT ? OFFSET ?"
)
LIVE_COUNT = "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND season = ? AND user_id > 0"
FROZEN_COUNT = "SELECT COUNT(*) FROM season_standings WHERE guild_id = ? AND season = ?"
SEASONS = "SELECT id, name, started_at, ended_at FROM seasons WHERE guild_id = ? ORDER BY id"
HISTORY = (
    "SELECT at, mu, sigma, hand_id FROM rating_history"
    " WHERE guild_id = ? AND user_id = ? AND season = ? ORDER BY id DESC LIMIT ?"
)


def stored_ratings(rows: Sequence[Any]) -> dict[int, StoredRating]:
    """Rows of `RATING_COLUMNS` by user."""
    return {
        int(r[0]): StoredRating(float(r[1]), float(r[2]), int(r[3]), int(r[4])) for r in rows
    }


def rating_rows(rows: Sequence[Any], offset: int) -> list[RatingRow]:
    """Rows of `RATING_COLUMNS` as board lines ranked from `offset + 1`."""
    return [
        RatingRow(offset + i + 1, int(r[0]), float(r[1]), float(r[2]), int(r[3]), int(r[4]))
        for i, r in enumerate(rows)
    ]


def season_of(r: Any) -> Season:
    return Season(
        int(r[0]),
        r[1],
        None if r[2] is None else float(r[2]),
        None if r[3] is None else float(r[3]),
    )


def seasons_of(rows: Sequence[Any]) -> list[Season]:
    """Every season, oldest first; season 1 in progress when none was ever started."""
    return [season_of(r) for r in rows] or [Season(1, None, None, None)]


def points_of(rows: Sequence[Any]) -> list[RatingPoint]:
    """History rows (read newest first) as points, oldest first."""
    return [
        RatingPoint(float(r[0]), float(r[1]), float(r[2]), None if r[3] is None else int(r[3]))
        for r in reversed(rows)
    ]


def check_page(limit: int, offset: int) -> None:
    if limit < 0 or offset < 0:
        raise ValueError("limit and offset cannot be negative")


class RatingReads(Driver):
    """The rating reads of both stores, over their `query` (see the module docstring)."""

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

    async def seasons(self, guild: int) -> list[Season]:
        """Every season of the server, oldest first (the last one is in progress)."""
        return seasons_of(await self.query(SEASONS, (guild,)))
