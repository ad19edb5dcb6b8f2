"""Ratings per server and season, their per-hand history, seasons and frozen standings.

The rating math is `bot.ratings` (pure); the store keeps its plain numbers: mu and sigma
(floats), hands, and the season's net table winnings. A board ranks by the conservative
estimate `mu - 3 sigma` (a new player with a wide sigma does not top it after one lucky hand)
and leaves CPU players (negative ids) out, though their ratings are stored. Seasons are
numbered 1, 2, ... per server; the current one is the highest (season 1 exists implicitly
until the first `new_season`), which freezes the standings into `season_standings` and starts
the next with no ratings; balances are never touched. The single-statement reads are
`bot.store.rating_reads`.

A new season and the ratings of a hand must not interleave (a hand's ratings would land in a
season whose standings are already frozen): on PostgreSQL both lock the server's row of
`servers`, the new season FOR UPDATE and each hand's ratings FOR SHARE (hands of different
tables still run side by side); SQLite's one writer orders them anyway.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from bot.store.accounts import lock_server
from bot.store.errors import InvalidName
from bot.store.ledger import Tx
from bot.store.models import RatingUpdate, Season, StoredRating
from bot.store.rating_reads import (
    BOARD_SCORE,
    CURRENT_SEASON,
    RATING_COLUMNS,
    RatingReads,
    stored_ratings,
)
from bot.store.sql import Body, Statement, marks

MAX_SEASON_NAME = 64

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
#: the season's standings to freeze, in rank order: guild, season
STANDINGS = (
    f"SELECT {RATING_COLUMNS} FROM ratings"
    f" WHERE guild_id = ? AND season = ? AND user_id > 0 ORDER BY {BOARD_SCORE} DESC, user_id"
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


def write_ratings(
    tx: Tx,
    guild: int,
    ordered: Sequence[RatingUpdate],
    hand_id: int | None,
    expected_season: int | None = None,
) -> Body[int]:
    """The writes of `record_ratings` inside a running transaction; the season. Nothing is
    written when `expected_season` is given and is no longer the current one."""
    yield from lock_server(tx, guild, "SHARE")
    season = int((yield Statement(CURRENT_SEASON, (guild,)))[0][0])
    if expected_season is not None and season != expected_season:
        return season
    yield Statement(
        UPSERT_RATING,
        [(guild, season, u.user, u.mu, u.sigma, u.hands, u.winnings, tx.now) for u in ordered],
        many=True,
    )
    yield Statement(
        INSERT_POINT,
        [(guild, season, u.user, hand_id, tx.now, u.mu, u.sigma) for u in ordered],
        many=True,
    )
    return season


class RatingsMixin(RatingReads):
    """Ratings and seasons (both databases): the writes, and the read of a list of users'
    ratings with the season in one view; the other reads are `RatingReads`."""

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
        return await self._transaction(lambda tx: write_ratings(tx, guild, ordered, hand_id), now)

    async def ratings(self, guild: int, users: Sequence[int]) -> dict[int, StoredRating]:
        """The current season's ratings of `users` (those never rated are left out)."""
        unique = list(dict.fromkeys(users))
        if not unique:
            return {}
        sql = (
            f"SELECT {RATING_COLUMNS} FROM ratings"
            f" WHERE guild_id = ? AND season = ? AND user_id IN ({marks(len(unique))})"
        )

        def read() -> Body[list[Any]]:
            season = int((yield Statement(CURRENT_SEASON, (guild,)))[0][0])
            return (yield Statement(sql, (guild, season, *unique)))

        return stored_ratings(await self._read(read))

    async def new_season(self, guild: int, name: str | None, *, now: float | None = None) -> Season:
        """End the season in progress (its standings frozen) and start the next, named
        `name`, with no ratings; balances are untouched. The new season."""
        clean = season_name(name)

        def start(tx: Tx) -> Body[Season]:
            yield from lock_server(tx, guild, "UPDATE")
            current = int((yield Statement(CURRENT_SEASON, (guild,)))[0][0])
            first = (yield Statement(FIRST_POINT, (guild, current)))[0][0]
            yield Statement(END_SEASON, (guild, current, first, tx.now))
            standings = yield Statement(STANDINGS, (guild, current))
            yield Statement(
                INSERT_STANDING,
                [(guild, current, rank, *r) for rank, r in enumerate(standings, start=1)],
                many=True,
            )
            yield Statement(START_SEASON, (guild, current + 1, clean, tx.now))
            return Season(current + 1, clean, tx.now, None)

        return await self._transaction(start, now)
