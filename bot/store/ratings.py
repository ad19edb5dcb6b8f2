"""Ratings per server and season, their per-hand history, seasons and frozen standings.

The rating math is `bot.ratings` (pure); the store keeps its plain numbers: mu and sigma
(floats), hands, and the season's net table winnings. A board ranks by the conservative
estimate `mu - 3 sigma` (a new player with a wide sigma does not top it after one lucky hand)
and leaves CPU players (negative ids) out, though their ratings are stored. Seasons are
numbered 1, 2, ... per server; the current one is the highest (season 1 exists implicitly
until the first `new_season`), which freezes the standings into `season_standings` and starts
the next with no ratings; balances are never touched. SQL here uses `?` placeholders.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from bot.store.connection import StoreBase
from bot.store.errors import InvalidName
from bot.store.ledger import Transfers
from bot.store.models import RatingPoint, RatingRow, RatingUpdate, Season, StoredRating

#: how many sigmas below mu a board ranks by
BOARD_SIGMAS = 3
MAX_SEASON_NAME = 64

CURRENT_SEASON = "SELECT CAST(COALESCE(MAX(id), 1) AS BIGINT) FROM seasons WHERE guild_id = ?"
UPSERT_RATING = (
    "INSERT INTO ratings (guild_id, season, user_id, mu, sigma, hands, winnings, updated_at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, season, user_id) DO UPDATE SET"
    " mu = excluded.mu, sigma = excluded.sigma, hands = excluded.hands,"
    " winnings = ratings.winnings + excluded.winnings, updated_at = excluded.updated_at"
)
INSERT_POINT = (
    "INSERT INTO rating_history (guild_id, season, user_id, hand_id, at, mu, sigma)"
    " VALUES (?, ?, ?, ?, ?, ?, ?)"
)
_SCORE = f"(mu - {BOARD_SIGMAS} * sigma)"
LIVE_BOARD = (
    "SELECT user_id, mu, sigma, hands, winnings FROM ratings"
    f" WHERE guild_id = ? AND season = ? AND user_id > 0 ORDER BY {_SCORE} DESC, user_id"
    " LIMIT ? OFFSET ?"
)
FROZEN_BOARD = (
    "SELECT user_id, mu, sigma, hands, winnings FROM season_standings"
    " WHERE guild_id = ? AND season = ? ORDER BY rank LIMIT ? OFFSET ?"
)
LIVE_COUNT = "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND season = ? AND user_id > 0"
FROZEN_COUNT = "SELECT COUNT(*) FROM season_standings WHERE guild_id = ? AND season = ?"
SEASONS = "SELECT id, name, started_at, ended_at FROM seasons WHERE guild_id = ? ORDER BY id"
HISTORY = (
    "SELECT at, mu, sigma, hand_id FROM rating_history"
    " WHERE guild_id = ? AND user_id = ? AND season = ? ORDER BY id DESC LIMIT ?"
)
#: the season's standings to freeze, in rank order: guild, season
STANDINGS = (
    "SELECT user_id, mu, sigma, hands, winnings FROM ratings"
    f" WHERE guild_id = ? AND season = ? AND user_id > 0 ORDER BY {_SCORE} DESC, user_id"
)
INSERT_STANDING = (
    "INSERT INTO season_standings (guild_id, season, rank, user_id, mu, sigma, hands, winnings)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)
FIRST_POINT = "SELECT MIN(at) FROM rating_history WHERE guild_id = ? AND season = ?"
#: end the season: insert its row if it was implicit, else set its end
END_SEASON = (
    "INSERT INTO seasons (guild_id, id, name, started_at, ended_at) VALUES (?, ?, NULL, ?, ?)"
    " ON CONFLICT (guild_id, id) DO UPDATE SET ended_at = excluded.ended_at"
)
START_SEASON = (
    "INSERT INTO seasons (guild_id, id, name, started_at, ended_at) VALUES (?, ?, ?, ?, NULL)"
)


def check_updates(updates: Sequence[RatingUpdate]) -> list[RatingUpdate]:
    """The updates in user order; ValueError for a repeated user or a value that is not a
    finite mu, a positive finite sigma, a count of hands or whole chips."""
    users = [u.user for u in updates]
    if len(set(users)) != len(users):
        raise ValueError("one rating update per user and hand")
    for u in updates:
        if not (math.isfinite(u.mu) and math.isfinite(u.sigma) and u.sigma > 0):
            raise ValueError(f"a rating needs a finite mu and a positive sigma: {u!r}")
        for value in (u.user, u.hands, u.winnings):
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"user, hands and winnings are integers: {u!r}")
        if u.hands < 0:
            raise ValueError(f"hands cannot be negative: {u!r}")
    return sorted(updates, key=lambda u: u.user)


def season_name(name: str | None) -> str | None:
    """None, or the stripped name (InvalidName if blank, too long or not one line)."""
    if name is None:
        return None
    text = name.strip() if isinstance(name, str) else ""
    if not text or len(text) > MAX_SEASON_NAME or any(not c.isprintable() for c in text):
        raise InvalidName(None, {"longest": MAX_SEASON_NAME})
    return text


def rating_rows(rows: Sequence[Any], offset: int) -> list[RatingRow]:
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


def write_ratings(
    tx: Transfers,
    guild: int,
    ordered: Sequence[RatingUpdate],
    hand_id: int | None,
    expected_season: int | None = None,
) -> int:
    """The writes of `record_ratings` inside a running transaction; the season. Nothing is
    written when `expected_season` is given and is no longer the current one."""
    season = int(tx.fetchall(CURRENT_SEASON, (guild,))[0][0])
    if expected_season is not None and season != expected_season:
        return season
    for u in ordered:
        values = (guild, season, u.user, u.mu, u.sigma, u.hands, u.winnings, tx.now)
        tx.db.execute(UPSERT_RATING, values)
        tx.db.execute(INSERT_POINT, (guild, season, u.user, hand_id, tx.now, u.mu, u.sigma))
    return season


class RatingsMixin(StoreBase):
    """Ratings and seasons on the SQLite store."""

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

        return await self._transaction(
            lambda tx: write_ratings(tx, guild, ordered, hand_id), now
        )

    async def ratings(self, guild: int, users: Sequence[int]) -> dict[int, StoredRating]:
        """The current season's ratings of `users` (those never rated are left out)."""
        unique = list(dict.fromkeys(users))
        if not unique:
            return {}

        def read(db: Any) -> list[Any]:
            season = int(db.execute(CURRENT_SEASON, (guild,)).fetchone()[0])
            marks = ", ".join("?" * len(unique))
            return list(
                db.execute(
                    "SELECT user_id, mu, sigma, hands, winnings FROM ratings"
                    f" WHERE guild_id = ? AND season = ? AND user_id IN ({marks})",
                    (guild, season, *unique),
                ).fetchall()
            )

        rows = await self._read_with(read)
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

        def start(tx: Transfers) -> Season:
            current = int(tx.fetchall(CURRENT_SEASON, (guild,))[0][0])
            first = tx.fetchall(FIRST_POINT, (guild, current))[0][0]
            tx.db.execute(END_SEASON, (guild, current, first, tx.now))
            standings = tx.fetchall(STANDINGS, (guild, current))
            tx.db.executemany(
                INSERT_STANDING,
                [(guild, current, rank, *r) for rank, r in enumerate(standings, start=1)],
            )
            tx.db.execute(START_SEASON, (guild, current + 1, clean, tx.now))
            return Season(current + 1, clean, tx.now, None)

        return await self._transaction(start, now)

    async def seasons(self, guild: int) -> list[Season]:
        """Every season of the server, oldest first (the last one is in progress)."""
        return seasons_of(await self.query(SEASONS, (guild,)))
