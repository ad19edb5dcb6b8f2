"""Accounts (lazy, per server), daily claims, admin grants, server settings and stakes."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

from bot.store.driver import Driver
from bot.store.economy import (
    GIVE_WINDOW,
    GIVEN_SINCE,
    check_give,
    check_limits,
    check_member_age,
    daily_pay,
)
from bot.store.errors import CooldownActive
from bot.store.jsontext import dumps
from bot.store.ledger import BALANCE, MINT_ACCOUNT, USER, Account, Tx
from bot.store.models import (
    REASON_DAILY,
    REASON_GIVE,
    REASON_GRANT,
    REASON_REMOVE,
    DailyClaim,
    GiveResult,
    ServerSettings,
)
from bot.store.server_settings import SETTINGS_COLUMNS, apply_changes
from bot.store.sql import Body, Statement, marks
from bot.store.stakes import STAKES_KEYS, Stakes, StakesChange

_SETTINGS_SQL = f"SELECT {', '.join(SETTINGS_COLUMNS)} FROM servers WHERE guild_id = ?"
_STAKES_SQL = "SELECT stakes FROM servers WHERE guild_id = ?"
#: the server's row, created with the defaults if missing (so it can be locked)
ENSURE_SERVER = "INSERT INTO servers (guild_id) VALUES (?) ON CONFLICT DO NOTHING"


def settings_of(rows: list[Any]) -> ServerSettings:
    if not rows:
        return ServerSettings()
    r = rows[0]
    return ServerSettings(
        starting_balance=int(r[0]),
        daily_amount=int(r[1]),
        daily_cooldown=float(r[2]),
        language=r[3],
        turn_timeout=None if r[4] is None else float(r[4]),
        currency_name=r[5],
        currency_emoji=r[6],
        balance_cap=None if r[7] is None else int(r[7]),
        daily_min_age=float(r[8]),
        give_enabled=bool(r[9]),
        give_daily_limit=None if r[10] is None else int(r[10]),
        tournaments_open=bool(r[11]),
        hand_pause=None if r[12] is None else float(r[12]),
    )


def _settings(tx: Tx, guild: int, lock: str = "") -> Body[ServerSettings]:
    return settings_of((yield Statement(_SETTINGS_SQL + lock, (guild,))))


def lock_server(tx: Tx, guild: int, mode: str = "UPDATE") -> Body[None]:
    """Create the server's row if missing and lock it (mode UPDATE or SHARE) until the
    commit: read-modify-writes of the settings, a new season and a hand's ratings never
    interleave on PostgreSQL."""
    yield Statement(ENSURE_SERVER, (guild,))
    yield Statement(f"SELECT 1 FROM servers WHERE guild_id = ?{tx.dialect.lock(mode)}", (guild,))


def stakes_of(rows: list[Any]) -> Stakes:
    """The stakes in a `servers` row's JSON: the defaults for keys it lacks (variants added
    after it was written), keys no longer known dropped."""
    stored = json.loads(rows[0][0]) if rows and rows[0][0] else {}
    return Stakes().changed({k: v for k, v in stored.items() if k in STAKES_KEYS})


class AccountsMixin(Driver):
    """Accounts, daily claims, gifts, grants, server settings and stakes (both databases)."""

    async def balance(self, guild: int, user: int) -> int:
        """The user's balance on this server (the account is created on first use)."""
        rows = await self.query(BALANCE, (guild, user))
        if rows:
            return int(rows[0][0])
        return await self._transaction(lambda tx: tx.balance(guild, user))

    async def balances(self, guild: int, users: list[int]) -> dict[int, int]:
        """The balances of `users` on this server (missing accounts are created)."""
        unique = list(dict.fromkeys(users))
        if not unique:
            return {}
        sql = (
            "SELECT user_id, balance FROM accounts"
            f" WHERE guild_id = ? AND user_id IN ({marks(len(unique))})"
        )
        rows = await self.query(sql, (guild, *unique))
        if len(rows) < len(unique):  # some accounts are new: create them, then read again

            def create(tx: Tx) -> Body[list[Any]]:
                for user in sorted(unique):
                    yield from tx.ensure_account(guild, user)
                return (yield Statement(sql, (guild, *unique)))

            rows = await self._transaction(create)
        return {int(r[0]): int(r[1]) for r in rows}

    async def claim_daily(
        self,
        guild: int,
        user: int,
        *,
        now: float | None = None,
        joined_at: float | None = None,
    ) -> DailyClaim:
        """Give the server's daily chips (minted), at most once per cooldown.

        The time of the last claim is stored with the account, whose row is locked while it
        is checked (two processes never both pay it); the cooldown in force at the time of
        the new claim applies. `joined_at` (when the member joined the server, if the caller
        knows) is checked against the server's minimum age; the pay stops at the server's
        balance cap. Raises CooldownActive(retry_at) or DailyRefused.
        """

        def claim(tx: Tx) -> Body[DailyClaim]:
            settings = yield from _settings(tx, guild)
            check_member_age(settings, joined_at, tx.now)
            yield from tx.ensure_account(guild, user)
            rows = yield Statement(
                "SELECT daily_at, balance FROM accounts WHERE guild_id = ? AND user_id = ?"
                + tx.dialect.lock(),
                (guild, user),
            )
            last = rows[0][0]
            if last is not None and tx.now < last + settings.daily_cooldown:
                raise CooldownActive(last + settings.daily_cooldown, now=tx.now)
            pay = daily_pay(settings, int(rows[0][1]))
            yield Statement(
                "UPDATE accounts SET daily_at = ? WHERE guild_id = ? AND user_id = ?",
                (tx.now, guild, user),
            )
            balance = int(rows[0][1])
            if pay:
                balance = yield from tx.add_to_user(guild, user, pay)
                tx.record(guild, MINT_ACCOUNT, Account(USER, user), pay, REASON_DAILY)
            return DailyClaim(pay, balance, tx.now + settings.daily_cooldown)

        return await self._transaction(claim, now)

    async def give(
        self, guild: int, giver: int, receiver: int, amount: int, *, now: float | None = None
    ) -> GiveResult:
        """Move `amount` chips from `giver` to `receiver` in one transaction, within the
        server's rules (GiveRefused) and the giver's balance (InsufficientFunds): both account
        rows are locked (in id order) before the giver's gifts of the day are summed, so
        concurrent gifts in any number of processes never pass the limit nor overdraw."""

        def gift(tx: Tx) -> Body[GiveResult]:
            settings = yield from _settings(tx, guild)
            check_give(settings, giver, receiver, amount)
            pair = sorted((giver, receiver))
            for member in pair:
                yield from tx.ensure_account(guild, member)
            locked = yield Statement(
                "SELECT user_id, balance FROM accounts WHERE guild_id = ?"
                f" AND user_id IN (?, ?) ORDER BY user_id{tx.dialect.lock()}",
                (guild, *pair),
            )
            balances = {int(r[0]): int(r[1]) for r in locked}
            given = yield Statement(GIVEN_SINCE, (guild, giver, tx.now - GIVE_WINDOW))
            left = check_limits(settings, amount, int(given[0][0]), balances[receiver])
            giver_balance = yield from tx.add_to_user(guild, giver, -amount)
            receiver_balance = yield from tx.add_to_user(guild, receiver, amount)
            tx.record(guild, Account(USER, giver), Account(USER, receiver), amount, REASON_GIVE)
            return GiveResult(amount, giver_balance, receiver_balance, left)

        return await self._transaction(gift, now)

    async def grant(self, guild: int, user: int, amount: int, *, reason: str, by: int) -> int:
        """An admin grant (amount > 0, minted) or removal (amount < 0, burned); new balance.

        `reason` is kept in the ledger row's note, `by` is the admin. InsufficientFunds if a
        removal would go below zero; ValueError for a zero or non-integer amount.
        """
        if isinstance(amount, bool) or not isinstance(amount, int) or amount == 0:
            raise ValueError(f"a grant needs a non-zero integer amount, not {amount!r}")

        def give(tx: Tx) -> Body[int]:
            balance = yield from tx.add_to_user(guild, user, amount)
            if amount > 0:
                src, dst, kind = MINT_ACCOUNT, Account(USER, user), REASON_GRANT
            else:
                src, dst, kind = Account(USER, user), MINT_ACCOUNT, REASON_REMOVE
            tx.record(guild, src, dst, abs(amount), kind, note=reason, by=by)
            return balance

        return await self._transaction(give)

    async def server_settings(self, guild: int) -> ServerSettings:
        """The server's settings (defaults when never changed)."""
        return settings_of(await self.query(_SETTINGS_SQL, (guild,)))

    async def update_server_settings(
        self, guild: int, *, by: int, **changes: Any
    ) -> ServerSettings:
        """Change some settings (validated, raises InvalidSetting); returns the new settings."""

        def update(tx: Tx) -> Body[ServerSettings]:
            yield from lock_server(tx, guild)
            new = apply_changes((yield from _settings(tx, guild)), changes)
            values = [int(v) if isinstance(v, bool) else v for v in asdict(new).values()]
            columns = (*SETTINGS_COLUMNS, "updated_by", "updated_at")
            assignments = ", ".join(f"{c} = ?" for c in columns)
            yield Statement(
                f"UPDATE servers SET {assignments} WHERE guild_id = ?",
                (*values, by, tx.now, guild),
            )
            return new

        return await self._transaction(update)

    async def get_stakes(self, guild: int) -> Stakes:
        """The server's stakes and variants (the defaults when never changed)."""
        return stakes_of(await self.query(_STAKES_SQL, (guild,)))

    async def set_stakes(
        self, guild: int, changes: Mapping[str, object], *, by: int
    ) -> Stakes:
        """Apply `changes` (stake or variant name -> value) to the stakes, validate the whole
        result, store it with who and when.

        Raises InvalidStakes(code, params) and changes nothing if any check fails.
        """

        def update(tx: Tx) -> Body[Stakes]:
            yield from lock_server(tx, guild)
            current = stakes_of((yield Statement(_STAKES_SQL, (guild,))))
            new = current.changed(changes)
            old, stored = current.to_dict(), new.to_dict()
            diff = {k: [old[k], v] for k, v in stored.items() if old[k] != v}
            yield Statement(
                "UPDATE servers SET stakes = ?, updated_by = ?, updated_at = ? WHERE guild_id = ?",
                (dumps(stored), by, tx.now, guild),
            )
            if diff:
                yield Statement(
                    'INSERT INTO stakes_changes (guild_id, at, "by", changes) VALUES (?, ?, ?, ?)',
                    (guild, tx.now, by, dumps(diff)),
                )
            return new

        return await self._transaction(update)

    async def stakes_history(self, guild: int, limit: int = 10) -> list[StakesChange]:
        """The latest stakes changes, newest first."""
        rows = await self.query(
            'SELECT at, "by", changes FROM stakes_changes WHERE guild_id = ?'
            " ORDER BY id DESC LIMIT ?",
            (guild, limit),
        )
        return [StakesChange.from_row(r[0], r[1], r[2]) for r in rows]
