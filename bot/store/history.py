"""Finished hands, per-player statistics, leaderboards, and the ledger audit."""

from __future__ import annotations

from typing import Any

import aiosqlite

from bot.store.connection import StoreBase, int_keys
from bot.store.hand_rows import HAND_COLUMNS, StoredHand, stored_hand
from bot.store.ledger import Transfers
from bot.store.models import LEADERBOARDS, LeaderRow, PlayerStats

#: per leaderboard: (FROM ... with alias s for the ranked rows, ranked value expression)
_BOARDS: dict[str, tuple[str, str]] = {
    "balance": ("accounts s", "s.balance"),
    "net": ("player_stats s", "s.net"),
    "closes": ("player_stats s", "s.closes"),
}

# Every user account, table escrow and guild mint recomputed from the ledger.
_AUDIT_ACCOUNTS = """
WITH flows (g, u, a) AS (
    SELECT guild_id, dst_id, amount FROM ledger WHERE dst_kind = 'user'
    UNION ALL SELECT guild_id, src_id, -amount FROM ledger WHERE src_kind = 'user'
), sums AS (SELECT g, u, SUM(a) AS s FROM flows GROUP BY g, u)
SELECT a.guild_id, a.user_id, a.balance, COALESCE(sums.s, 0)
  FROM accounts a LEFT JOIN sums ON sums.g = a.guild_id AND sums.u = a.user_id
 WHERE a.balance != COALESCE(sums.s, 0)
UNION ALL
SELECT sums.g, sums.u, NULL, sums.s
  FROM sums LEFT JOIN accounts a ON a.guild_id = sums.g AND a.user_id = sums.u
 WHERE a.user_id IS NULL
"""
_AUDIT_TABLES = """
WITH flows (t, g, a) AS (
    SELECT dst_id, guild_id, amount FROM ledger WHERE dst_kind = 'table'
    UNION ALL SELECT src_id, guild_id, -amount FROM ledger WHERE src_kind = 'table'
), sums AS (SELECT t, SUM(a) AS s, MIN(g) AS g1, MAX(g) AS g2 FROM flows GROUP BY t)
SELECT tb.id, tb.escrow, COALESCE(sums.s, 0), tb.guild_id, sums.g1, sums.g2, tb.status
  FROM tables tb LEFT JOIN sums ON sums.t = tb.id
 WHERE tb.escrow != COALESCE(sums.s, 0)
    OR (sums.t IS NOT NULL AND (sums.g1 != tb.guild_id OR sums.g2 != tb.guild_id))
    OR (tb.status = 'closed' AND tb.escrow != 0)
UNION ALL
SELECT sums.t, NULL, sums.s, NULL, sums.g1, sums.g2, NULL
  FROM sums LEFT JOIN tables tb ON tb.id = sums.t WHERE tb.id IS NULL
"""
_MINTED = """
SELECT COALESCE(SUM(CASE WHEN src_kind = 'mint' THEN amount ELSE 0 END), 0)
     - COALESCE(SUM(CASE WHEN dst_kind = 'mint' THEN amount ELSE 0 END), 0)
  FROM ledger WHERE guild_id = ? AND (src_kind = 'mint' OR dst_kind = 'mint')
"""


def _board(by: str) -> tuple[str, str]:
    if by not in LEADERBOARDS:
        raise ValueError(f"unknown leaderboard {by!r}; choose one of {', '.join(LEADERBOARDS)}")
    return _BOARDS[by]


class HistoryMixin(StoreBase):
    """Hand history, statistics, leaderboards and the audit of the ledger."""

    async def hand_history(self, table_id: int, limit: int = 20) -> list[dict[str, Any]]:
        """The table's finished hands, newest first, as dicts (user keys are ints)."""
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT hand_no, seed, events, result, pots_won, closes, biggest_pot, at"
                " FROM hands WHERE table_id = ? ORDER BY hand_no DESC LIMIT ?",
                (table_id, limit),
            )
        return [
            {
                "hand_no": r["hand_no"],
                "seed": r["seed"],
                "events": r["events"],
                "result": int_keys(r["result"]),
                "pots_won": int_keys(r["pots_won"]),
                "closes": int_keys(r["closes"]),
                "biggest_pot": int_keys(r["biggest_pot"]),
                "at": r["at"],
            }
            for r in rows
        ]

    async def player_hands(
        self, guild: int, user: int, limit: int = 10, offset: int = 0
    ) -> list[StoredHand]:
        """The finished hands `user` played on this server, newest first (for history pages)."""
        async with self._read() as db:
            rows = await db.execute_fetchall(
                f"SELECT {HAND_COLUMNS} FROM hands h JOIN tables t ON t.id = h.table_id"
                " WHERE h.guild_id = ?"
                " AND EXISTS (SELECT 1 FROM json_each(h.result) j WHERE j.key = ?)"
                " ORDER BY h.at DESC, h.id DESC LIMIT ? OFFSET ?",
                (guild, str(user), limit, offset),
            )
        return [stored_hand(r) for r in rows]

    async def count_player_hands(self, guild: int, user: int) -> int:
        """How many finished hands `user` played on this server."""
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT COUNT(*) FROM hands h WHERE h.guild_id = ?"
                " AND EXISTS (SELECT 1 FROM json_each(h.result) j WHERE j.key = ?)",
                (guild, str(user)),
            )
        return int(next(iter(rows))[0])

    async def stored_hand(self, guild: int, hand_id: int) -> StoredHand | None:
        """The finished hand `hand_id` if it was played on this server, else None."""
        async with self._read() as db:
            rows = await db.execute_fetchall(
                f"SELECT {HAND_COLUMNS} FROM hands h JOIN tables t ON t.id = h.table_id"
                " WHERE h.id = ? AND h.guild_id = ?",
                (hand_id, guild),
            )
        found = list(rows)
        return stored_hand(found[0]) if found else None

    async def stats(self, guild: int, user: int) -> PlayerStats:
        """The user's statistics on this server (zeros before the first hand) and balance."""

        def read(tx: Transfers) -> list[Any]:
            tx.ensure_account(guild, user)
            return tx.fetchall(
                "SELECT a.balance, s.hands, s.pots_won, s.closes, s.net, s.biggest_pot"
                " FROM accounts a LEFT JOIN player_stats s"
                " ON s.guild_id = a.guild_id AND s.user_id = a.user_id"
                " WHERE a.guild_id = ? AND a.user_id = ?",
                (guild, user),
            )

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
        source, value = _board(by)
        if limit < 0 or offset < 0:
            raise ValueError("limit and offset must be >= 0")
        balance = "s.balance" if by == "balance" else "COALESCE(a.balance, 0)"
        join = (
            ""
            if by == "balance"
            else " LEFT JOIN accounts a ON a.guild_id = s.guild_id AND a.user_id = s.user_id"
        )
        async with self._read() as db:
            rows = await db.execute_fetchall(
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
        source, _ = _board(by)
        async with self._read() as db:
            rows = await db.execute_fetchall(
                f"SELECT COUNT(*) FROM {source} WHERE s.guild_id = ? AND s.user_id > 0", (guild,)
            )
        return int(rows[0][0])

    async def audit(self) -> list[str]:
        """Recompute every balance and every table escrow from the ledger; one line per
        difference (an empty list means the books balance)."""
        problems: list[str] = []
        async with self._read() as db:
            for g, u, balance, expected in await db.execute_fetchall(_AUDIT_ACCOUNTS):
                if balance is None:
                    problems.append(f"guild {g} user {u}: ledger rows but no account")
                else:
                    problems.append(
                        f"guild {g} user {u}: balance {balance}, ledger says {expected}"
                    )
            for t, escrow, expected, g, g1, g2, status in await db.execute_fetchall(_AUDIT_TABLES):
                if escrow is None:
                    problems.append(f"table {t}: ledger rows but no table")
                elif escrow != expected:
                    problems.append(f"table {t}: escrow {escrow}, ledger says {expected}")
                elif g1 != g or g2 != g:
                    problems.append(f"table {t} of guild {g}: ledger rows of guild {g1}/{g2}")
                else:
                    problems.append(f"table {t}: {status} with escrow {escrow}")
            guilds = await db.execute_fetchall(
                "SELECT guild_id FROM accounts UNION SELECT guild_id FROM tables"
                " UNION SELECT guild_id FROM ledger"
            )
            for (g,) in guilds:
                balances, escrow, minted = await _totals(db, g)
                if balances + escrow != minted:
                    problems.append(
                        f"guild {g}: balances {balances} + escrow {escrow} != minted {minted}"
                    )
        return problems

    async def total_chips(self, guild: int) -> tuple[int, int, int]:
        """(sum of balances, sum of table escrows, chips minted net of burns) on the server.

        The first two always add up to the third: tables only move chips around.
        """
        async with self._read() as db:
            return await _totals(db, guild)


async def _totals(db: aiosqlite.Connection, guild: int) -> tuple[int, int, int]:
    balances = await db.execute_fetchall(
        "SELECT COALESCE(SUM(balance), 0) FROM accounts WHERE guild_id = ?", (guild,)
    )
    escrow = await db.execute_fetchall(
        "SELECT COALESCE(SUM(escrow), 0) FROM tables WHERE guild_id = ?", (guild,)
    )
    minted = await db.execute_fetchall(_MINTED, (guild,))
    return int(balances[0][0]), int(escrow[0][0]), int(minted[0][0])
