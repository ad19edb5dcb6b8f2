"""Chip movements inside one write transaction: balance updates plus their ledger rows.

A `Transfers` object lives for one transaction of `Store` (or one savepoint of a group
commit, see `bot.store.connection`). It is synchronous: it runs on the store's worker thread,
inside the one function that makes the whole transaction. Every balance change it makes has a
ledger row, written by `flush()` before the commit; if anything raises, the whole transaction
(balances and rows) is rolled back by the caller.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from bot.store.errors import InsufficientFunds
from bot.store.models import REASON_START

USER, TABLE, MINT = "user", "table", "mint"


@dataclass(frozen=True, slots=True)
class Account:
    """A ledger account: a user of a guild, a table's escrow, or the guild's mint."""

    kind: str
    id: int | None = None


MINT_ACCOUNT = Account(MINT)

INSERT_LEDGER = (
    "INSERT INTO ledger (at, guild_id, table_id, hand_no, src_kind, src_id, dst_kind, dst_id,"
    " amount, reason, note, by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def ledger_row(
    now: float,
    guild: int,
    src: Account,
    dst: Account,
    amount: int,
    reason: str,
    table_id: int | None,
    hand_no: int | None,
    note: str | None,
    by: int | None,
) -> tuple[object, ...]:
    """One `ledger` row in the column order of the insert, for either database."""
    return (now, guild, table_id, hand_no, src.kind, src.id, dst.kind, dst.id, amount, reason,
            note, by)


class Transfers:
    """Balance updates and buffered ledger rows of one write transaction (synchronous)."""

    __slots__ = ("_rows", "_starting", "db", "now")

    def __init__(self, db: sqlite3.Connection, now: float) -> None:
        self.db = db
        self.now = now
        self._rows: list[tuple[object, ...]] = []
        self._starting: dict[int, int] = {}

    def fetchall(self, sql: str, params: tuple[object, ...] = ()) -> list[sqlite3.Row]:
        """Run one statement and return every row."""
        return self.db.execute(sql, params).fetchall()

    def starting_balance(self, guild: int) -> int:
        """The server's starting balance (cached for the transaction)."""
        if guild not in self._starting:
            rows = self.fetchall(
                "SELECT starting_balance FROM servers WHERE guild_id = ?", (guild,)
            )
            self._starting[guild] = int(rows[0][0]) if rows else 1000
        return self._starting[guild]

    def ensure_account(self, guild: int, user: int) -> bool:
        """Create the account with the starting balance (minted) if missing; True if created."""
        start = self.starting_balance(guild)
        cur = self.db.execute(
            "INSERT INTO accounts (guild_id, user_id, balance, created_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT DO NOTHING",
            (guild, user, start, self.now),
        )
        if cur.rowcount != 1:
            return False
        if start:
            self.record(guild, MINT_ACCOUNT, Account(USER, user), start, REASON_START)
        return True

    @staticmethod
    def balance_update(guild: int, user: int, delta: int) -> tuple[str, tuple[int, ...]]:
        """The statement changing a balance by `delta`, returning the new balance (no row if
        the account is missing or, for a debit, holds less than the amount)."""
        if delta >= 0:
            return (
                "UPDATE accounts SET balance = balance + ? WHERE guild_id = ? AND user_id = ?"
                " RETURNING balance",
                (delta, guild, user),
            )
        return (
            "UPDATE accounts SET balance = balance - ?"
            " WHERE guild_id = ? AND user_id = ? AND balance >= ? RETURNING balance",
            (-delta, guild, user, -delta),
        )

    def add_to_user(self, guild: int, user: int, delta: int) -> int:
        """Change a user's balance by `delta` (creating the account lazily); the new balance.

        A debit is `balance = balance - ? WHERE ... AND balance >= ?`, and the updated row is
        checked (RETURNING, so the count and the new balance come in one statement):
        InsufficientFunds if the account has less than the amount.
        """
        sql, params = self.balance_update(guild, user, delta)
        rows = self.fetchall(sql, params)
        if len(rows) == 1:
            return int(rows[0][0])
        if self.ensure_account(guild, user):
            rows = self.fetchall(sql, params)
            if len(rows) == 1:
                return int(rows[0][0])
        rows = self.fetchall(
            "SELECT balance FROM accounts WHERE guild_id = ? AND user_id = ?", (guild, user)
        )
        balance = int(rows[0][0]) if rows else 0
        raise InsufficientFunds(guild=guild, user=user, needed=-delta, balance=balance)

    def record(
        self,
        guild: int,
        src: Account,
        dst: Account,
        amount: int,
        reason: str,
        *,
        table_id: int | None = None,
        hand_no: int | None = None,
        note: str | None = None,
        by: int | None = None,
    ) -> None:
        """Buffer one ledger row (amount > 0 moves from `src` to `dst`)."""
        self._rows.append(
            ledger_row(self.now, guild, src, dst, amount, reason, table_id, hand_no, note, by)
        )

    def flush(self) -> None:
        """Write the buffered ledger rows (call before COMMIT / RELEASE)."""
        if self._rows:
            self.db.executemany(INSERT_LEDGER, self._rows)
            self._rows.clear()
