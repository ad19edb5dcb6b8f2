"""Typed errors of the store. Each has a `code` and `params`; its text is `store.<code>`.

`str(error)` is the English message; `error.message(lang)` gives it in "en" or "it".
"""

from __future__ import annotations

import math
import sqlite3
import time
from collections.abc import Mapping
from typing import Any

from bot.i18n import t


class StoreError(Exception):
    """Base of every store error: `code` names a message in `store.toml`, `params` fill it."""

    default_code = "error"

    def __init__(
        self, code: str | None = None, params: Mapping[str, object] | None = None
    ) -> None:
        self.code = code or self.default_code
        #: what fills the message (only formatted; Any, not object, because `t` also takes a
        #: typed `currency` keyword, which mypy would not let an object value reach)
        self.params: Mapping[str, Any] = dict(params or {})
        super().__init__(self.message("en"))

    def message(self, lang: str | None = "en") -> str:
        """The readable message in `lang` ("en" or "it")."""
        return t(f"store.{self.code}", lang, **self.params)


class InsufficientFunds(StoreError):
    """A debit would take an account (or a table escrow) below zero."""

    default_code = "insufficient_funds"

    def __init__(self, *, guild: int, user: int, needed: int, balance: int) -> None:
        self.guild, self.user, self.needed, self.balance = guild, user, needed, balance
        super().__init__(None, {"user": user, "needed": needed, "balance": balance})


class CooldownActive(StoreError):
    """The daily claim is not available yet; `retry_at` is when it will be (epoch seconds)."""

    default_code = "cooldown_active"

    def __init__(self, retry_at: float, *, now: float | None = None) -> None:
        self.retry_at = retry_at
        wait = max(0, math.ceil(retry_at - (time.time() if now is None else now)))
        hours, rest = divmod(wait, 3600)
        minutes = math.ceil(rest / 60) if hours or rest else 0
        if minutes == 60:
            hours, minutes = hours + 1, 0
        super().__init__(None, {"hours": hours, "minutes": minutes})


class InvalidStakes(StoreError):
    """Stakes or variants refused by validation (R-4); `code` says which check failed."""

    default_code = "stakes_invalid"


class InvalidSetting(StoreError):
    """A server setting refused by validation; `code` says which check failed."""

    default_code = "setting_bad_value"


class VersionConflict(StoreError):
    """The table changed since it was read (optimistic check on `TableRow.version`)."""

    default_code = "version_conflict"

    def __init__(self, *, table_id: int, expected: int, actual: int) -> None:
        self.table_id, self.expected, self.actual = table_id, expected, actual
        super().__init__(None, {"table_id": table_id, "expected": expected, "actual": actual})


class LeaseLost(StoreError):
    """A fenced table write refused: the writer does not hold the table's lease (another
    process took it, or it ran out). Nothing was written; the writer must stop driving the
    table."""

    default_code = "lease_lost"

    def __init__(self, *, table_id: int, owner: str) -> None:
        self.table_id, self.owner = table_id, owner
        super().__init__(None, {"table_id": table_id})


class TableExists(StoreError):
    """The channel already has an open (not closed) table."""

    default_code = "table_exists"

    def __init__(self, *, channel: int, table_id: int) -> None:
        self.channel, self.table_id = channel, table_id
        super().__init__(None, {"channel": channel, "table_id": table_id})


class TableNotFound(StoreError):
    """No table has this id."""

    default_code = "table_not_found"

    def __init__(self, table_id: int) -> None:
        self.table_id = table_id
        super().__init__(None, {"table_id": table_id})


class IntegrityViolation(StoreError):
    """SQLite refused a change that breaks one of the schema's constraints (a bug in the
    caller, or a race with another process): nothing of the transaction was saved.

    `code` says which kind of constraint (integrity_unique, integrity_check,
    integrity_foreign_key, integrity_not_null, integrity); `params["detail"]` is SQLite's
    description of it; the original `sqlite3.IntegrityError` is the `__cause__`.
    """

    default_code = "integrity"


#: SQLite's extended result names -> IntegrityViolation codes
_INTEGRITY_CODES = {
    "SQLITE_CONSTRAINT_UNIQUE": "integrity_unique",
    "SQLITE_CONSTRAINT_PRIMARYKEY": "integrity_unique",
    "SQLITE_CONSTRAINT_CHECK": "integrity_check",
    "SQLITE_CONSTRAINT_FOREIGNKEY": "integrity_foreign_key",
    "SQLITE_CONSTRAINT_NOTNULL": "integrity_not_null",
}


def typed_error(error: BaseException) -> BaseException:
    """The store's typed error for a raw `sqlite3.IntegrityError` (chained to it); any other
    exception is returned unchanged."""
    if not isinstance(error, sqlite3.IntegrityError):
        return error
    name = getattr(error, "sqlite_errorname", "") or ""
    text = str(error)
    detail = text.split(":", 1)[1].strip() if ":" in text else text
    typed = IntegrityViolation(_INTEGRITY_CODES.get(name, "integrity"), {"detail": detail})
    typed.__cause__ = error
    return typed


def _wait(retry_at: float, now: float) -> dict[str, int]:
    """{"hours", "minutes"} until `retry_at`, minutes rounded up."""
    wait = max(0, math.ceil(retry_at - now))
    hours, rest = divmod(wait, 3600)
    minutes = math.ceil(rest / 60) if hours or rest else 0
    if minutes == 60:
        hours, minutes = hours + 1, 0
    return {"hours": hours, "minutes": minutes}


class DailyRefused(StoreError):
    """The daily claim does not pay: the member joined the server too recently
    (`daily_member_too_new`, `retry_at` set) or the balance is at the server's cap
    (`daily_at_cap`). Nothing is changed and the cooldown is not used up."""

    default_code = "daily_at_cap"

    def __init__(
        self, code: str, params: Mapping[str, object] | None = None, *,
        retry_at: float | None = None,
    ) -> None:
        self.retry_at = retry_at
        super().__init__(code, params)

    @classmethod
    def too_new(cls, retry_at: float, now: float) -> DailyRefused:
        """The member may claim from `retry_at` on (their join time + the minimum age)."""
        return cls("daily_member_too_new", _wait(retry_at, now), retry_at=retry_at)


class GiveRefused(StoreError):
    """A gift refused; `code` says why: give_disabled, give_self, give_not_member,
    give_bad_amount, give_limit (`limit`, `left`), give_cap (`cap`). Nothing is changed."""

    default_code = "give_disabled"


class InvalidName(StoreError):
    """A name refused (a season's or a tournament's): blank, too long or not one line."""

    default_code = "name_invalid"


class TournamentError(StoreError):
    """A tournament operation refused; `code` says why: tournament_not_found,
    tournament_not_open, tournament_full, tournament_registered, tournament_not_registered,
    tournament_version_conflict, tournament_payout_mismatch (`pool`, `total`),
    tournament_payout_bad. Nothing is changed."""

    default_code = "tournament_not_found"
