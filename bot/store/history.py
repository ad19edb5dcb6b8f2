"""Finished hands, per-player statistics, leaderboards, and the ledger audit."""

from __future__ import annotations

from typing import Any

from bot.store.audit import (
    AUDIT_ACCOUNTS,
    AUDIT_GUILDS,
    AUDIT_TABLES,
    AUDIT_TOURNAMENTS,
    MINTED,
    TOTAL_BALANCES,
    TOTAL_ESCROW,
    TOTAL_POOLS,
    audit_lines,
)
from bot.store.driver import Driver
from bot.store.hand_rows import (
    HAND_COLUMNS,
    FinishedHand,
    StoredHand,
    history_entry,
    stored_hand,
)
from bot.store.ledger import Tx
from bot.store.models import LEADERBOARDS, LeaderRow, PlayerStats
from bot.store.sql import Body, Statement

#: per leaderboard: (FROM ... with alias s for the ranked rows, ranked value expression)
_BOARDS: dict[str, tuple[str, str]] = {
    "balance": ("accounts s", "s.balance"),
    "net": ("player_stats s", "s.net"),
    "closes": ("player_stats s", "s.closes"),
}

def board(by: str) -> tuple[str, str]:
    if by not in LEADERBOARDS:
        raise ValueError(f"unknown leaderboard {by!r}; choose one of {', '.join(LEADERBOARDS)}")
    return _BOARDS[by]


class HistoryMixin(Driver):
    """Hand history, statistics, leaderboards and the audit of the ledger."""

    async def hand_history(self, table_id: int, limit: int = 20) -> list[FinishedHand]:
        """The table's finished hands, newest first."""
        rows = await self.query(
            "SELECT hand_no, seed, events, result, pots_won, closes, biggest_pot, at, words"
            " FROM hands WHERE table_id = ? ORDER BY hand_no DESC LIMIT ?",
            (table_id, limit),
        )
        return [history_entry(r) for r in rows]

    async def player_hands(
        self, guild: int, user: int, limit: int = 10, offset: int = 0
    ) -> list[StoredHand]:
        """The finished hands `user` played on this server, newest first (for history pages)."""
        rows = await self.query(
            f"SELECT {HAND_COLUMNS} FROM hands h JOIN tables t ON t.id = h.table_id"
            f" WHERE h.guild_id = ? AND {self._played_by()}"
            " ORDER BY h.at DESC, h.id DESC LIMIT ? OFFSET ?",
            (guild, str(user), limit, offset),
        )
        return [stored_hand(r) for r in rows]

    async def count_player_hands(self, guild: int, user: int) -> int:
        """How many finished hands `user` played on this server."""
        rows = await self.query(
            f"SELECT COUNT(*) FROM hands h WHERE h.guild_id = ? AND {self._played_by()}",
            (guild, str(user)),
        )
        return int(rows[0][0])

    def _played_by(self) -> str:
        """The condition "the user `?` (text) has a result in the hand `h`"."""
        return self.dialect.json_has_key.format(column="h.result")

    async def stored_hand(self, guild: int, hand_id: int) -> StoredHand | None:
        """The finished hand `hand_id` if it was played on this server, else None."""
        rows = await self.query(
            f"SELECT {HAND_COLUMNS} FROM hands h JOIN tables t ON t.id = h.table_id"
            " WHERE h.id = ? AND h.guild_id = ?",
            (hand_id, guild),
        )
        return stored_hand(rows[0]) if rows else None

    async def stats(self, guild: int, user: int) -> PlayerStats:
        """The user's statistics on this server (zeros before the first hand) and balance."""

        def read(tx: Tx) -> Body[list[Any]]:
            yield from tx.ensure_account(guild, user)
            return (yield Statement(
                "SELECT a.balance, s.hands, s.pots_won, s.closes, s.net, s.biggest_pot"
                " FROM accounts a LEFT JOIN player_stats s"
                " ON s.guild_id = a.guild_id AND s.user_id = a.user_id"
                " WHERE a.guild_id = ? AND a.user_id = ?",
                (guild, user),
            ))

        r = (await self._transaction(read))[0]
        return PlayerStats(
            hands=r[1] or 0,
            pots_won=r[2] or 0,
            closes=r[3] or 0,
            net=r[4] or 0,
            biggest_pot=r[5] or 0,
            balance=r[0],
        )

    async def leaderboard(
        self, guild: int, by: str = "balance", limit: int = 10, offset: int = 0
    ) -> list[LeaderRow]:
        """One page of the server's leaderboard by "balance", "net" or "closes".

        Human users only (CPU accounts have negative ids). Ties are ordered by user id; rank
        is the 1-based position. "net" and "closes" list users who played at least one hand.
        """
        source, value = board(by)
        if limit < 0 or offset < 0:
            raise ValueError("limit and offset must be >= 0")
        balance = "s.balance" if by == "balance" else "COALESCE(a.balance, 0)"
        join = (
            ""
            if by == "balance"
            else " LEFT JOIN accounts a ON a.guild_id = s.guild_id AND a.user_id = s.user_id"
        )
        rows = await self.query(
            f"SELECT s.user_id, {value}, {balance} FROM {source}{join}"
            f" WHERE s.guild_id = ? AND s.user_id > 0 ORDER BY {value} DESC, s.user_id"
            " LIMIT ? OFFSET ?",
            (guild, limit, offset),
        )
        return [
            LeaderRow(rank=offset + i + 1, user_id=r[0], value=r[1], balance=r[2])
            for i, r in enumerate(rows)
        ]

    async def count_ranked(self, guild: int, by: str = "balance") -> int:
        """How many users the leaderboard `by` ranks (for paging)."""
        source, _ = board(by)
        rows = await self.query(
            f"SELECT COUNT(*) FROM {source} WHERE s.guild_id = ? AND s.user_id > 0", (guild,)
        )
        return int(rows[0][0])

    async def audit(self) -> list[str]:
        """Recompute every balance and every table escrow from the ledger; one line per
        difference (an empty list means the books balance)."""
        return await self._read(_audit)

    async def total_chips(self, guild: int) -> tuple[int, int, int]:
        """(sum of balances, chips held by tables and tournaments, chips minted net of burns)
        on the server.

        The first two always add up to the third: tables only move chips around.
        """
        return await self._read(lambda: _totals(guild))


def _audit() -> Body[list[str]]:
    accounts = [tuple(r) for r in (yield Statement(AUDIT_ACCOUNTS))]
    tables = [tuple(r) for r in (yield Statement(AUDIT_TABLES))]
    tournaments = [tuple(r) for r in (yield Statement(AUDIT_TOURNAMENTS))]
    guilds = [int(r[0]) for r in (yield Statement(AUDIT_GUILDS))]
    totals = {}
    for guild in guilds:
        totals[guild] = yield from _totals(guild)
    return audit_lines(accounts, tables, totals, tournaments)


def _totals(guild: int) -> Body[tuple[int, int, int]]:
    balances = (yield Statement(TOTAL_BALANCES, (guild,)))[0][0]
    escrow = (yield Statement(TOTAL_ESCROW, (guild,)))[0][0]
    pools = (yield Statement(TOTAL_POOLS, (guild,)))[0][0]
    minted = (yield Statement(MINTED, (guild,)))[0][0]
    return int(balances), int(escrow) + int(pools), int(minted)
