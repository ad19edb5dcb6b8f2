"""Chip movements inside one write transaction: balance updates plus their ledger rows.

A `Tx` lives for one run of one transaction body (see `bot.store.sql`), on either database.
Its helpers are bodies themselves (`balance = yield from tx.add_to_user(...)`). Every balance
change it makes has a ledger row, buffered by `record` and written by `flush()`, which the
driver runs after the body and before the commit; if anything raises, the whole transaction
(balances and rows) is rolled back by the driver.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.errors import InsufficientFunds
from bot.store.models import REASON_START
from bot.store.sql import Body, Dialect, Statement

USER, TABLE, MINT = "user", "table", "mint"


@dataclass(frozen=True, slots=True)
class Account:
    """A ledger account: a user of a guild, a table's escrow, or the guild's mint."""

    kind: str
    id: int | None = None


MINT_ACCOUNT = Account(MINT)

INSERT_LEDGER = (
    "INSERT INTO ledger (at, guild_id, table_id, hand_no, src_kind, src_id, dst_kind, dst_id,"
    ' amount, reason, note, "by") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'
)
STARTING_BALANCE = "SELECT starting_balance FROM servers WHERE guild_id = ?"
CREATE_ACCOUNT = (
    "INSERT INTO accounts (guild_id, user_id, balance, created_at) VALUES (?, ?, ?, ?)"
    " ON CONFLICT DO NOTHING RETURNING 1"
)
CREDIT = (
    "UPDATE accounts SET balance = balance + ? WHERE guild_id = ? AND user_id = ?"
    " RETURNING balance"
)
#: the conditional debit: no row when the account holds less than the amount
DEBIT = (
    "UPDATE accounts SET balance = balance - ?"
    " WHERE guild_id = ? AND user_id = ? AND balance >= ? RETURNING balance"
)
BALANCE = "SELECT balance FROM accounts WHERE guild_id = ? AND user_id = ?"


def balance_update(guild: int, user: int, delta: int) -> Statement:
    """The statement changing a balance by `delta`, returning the new balance (no row if
    the account is missing or, for a debit, holds less than the amount)."""
    if delta >= 0:
        return Statement(CREDIT, (delta, guild, user))
    return Statement(DEBIT, (-delta, guild, user, -delta))


class Tx:
    """Balance updates and buffered ledger rows of one transaction body's run."""

    __slots__ = ("_rows", "_starting", "dialect", "now")

    def __init__(self, dialect: Dialect, now: float) -> None:
        self.dialect = dialect
        self.now = now
        self._rows: list[tuple[object, ...]] = []
        self._starting: dict[int, int] = {}

    def starting_balance(self, guild: int) -> Body[int]:
        """The server's starting balance (read once per transaction)."""
        if guild not in self._starting:
            rows = yield Statement(STARTING_BALANCE, (guild,))
            self._starting[guild] = int(rows[0][0]) if rows else 1000
        return self._starting[guild]

    def ensure_account(self, guild: int, user: int) -> Body[bool]:
        """Create the account with the starting balance (minted) if missing; True if created."""
        start = yield from self.starting_balance(guild)
        if not (yield Statement(CREATE_ACCOUNT, (guild, user, start, self.now))):
            return False
        if start:
            self.record(guild, MINT_ACCOUNT, Account(USER, user), start, REASON_START)
        return True

    def add_to_user(self, guild: int, user: int, delta: int) -> Body[int]:
        """Change a user's balance by `delta` (creating the account lazily); the new balance.

        A debit is `balance = balance - ? WHERE ... AND balance >= ?`, and the updated row is
        checked (RETURNING, so the count and the new balance come in one statement):
        InsufficientFunds if the account has less than the amount.
        """
        update = balance_update(guild, user, delta)
        rows = yield update
        if rows:
            return int(rows[0][0])
        if (yield from self.ensure_account(guild, user)):
            rows = yield update
            if rows:
                return int(rows[0][0])
        rows = yield Statement(BALANCE, (guild, user))
        balance = int(rows[0][0]) if rows else 0
        raise InsufficientFunds(guild=guild, user=user, needed=-delta, balance=balance)

    def balance(self, guild: int, user: int) -> Body[int]:
        """The user's balance (the account created if missing)."""
        yield from self.ensure_account(guild, user)
        rows = yield Statement(BALANCE, (guild, user))
        return int(rows[0][0])

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
            (self.now, guild, table_id, hand_no, src.kind, src.id, dst.kind, dst.id, amount,
             reason, note, by)
        )

    def flush(self) -> Body[None]:
        """Write the buffered ledger rows (the driver runs it before COMMIT / RELEASE)."""
        if len(self._rows) == 1:
            yield Statement(INSERT_LEDGER, self._rows[0])
        elif self._rows:
            yield Statement(INSERT_LEDGER, list(self._rows), many=True)
        self._rows.clear()
