"""Storage: accounts and ledger, stakes and variants, tables, history.

One database file, WAL mode, one writer connection per process; schema migrations are applied
at open. Every chip movement is a ledger row written in the same `BEGIN IMMEDIATE` transaction
as the balance change; chips committed to a hand are held in the table's escrow, so on each
server `sum(balances) + sum(escrow)` equals the chips minted (starting balances, daily claims,
admin grants) net of those burned (admin removals). `Store.audit()` checks it all.

    store = await Store.open("data/stoppa.db")
    await store.balance(guild, user)
    row = await store.create_table(guild, channel, settings=await store.get_stakes(guild))
    row = await store.save_table(row.id, expected_version=row.version, state=json_text,
                                 moves=[Move(user, 60, "ante", hand_no=1)])
    await store.close()
"""

from __future__ import annotations

from bot.store.errors import (
    CooldownActive,
    InsufficientFunds,
    InvalidSetting,
    InvalidStakes,
    StoreError,
    TableExists,
    TableNotFound,
    VersionConflict,
)
from bot.store.models import (
    LEADERBOARDS,
    TABLE_REASONS,
    TABLE_STATUSES,
    DailyClaim,
    HandRecord,
    LeaderRow,
    Move,
    PlayerStats,
    ServerSettings,
    TableRow,
)
from bot.store.schema import LATEST as SCHEMA_VERSION
from bot.store.stakes import CHOICES as STAKES_CHOICES
from bot.store.stakes import DEFAULT_STAKES, small_points, validate_stakes
from bot.store.store import Store
from bot.store.tables import UNSET

__all__ = [
    "DEFAULT_STAKES",
    "LEADERBOARDS",
    "SCHEMA_VERSION",
    "STAKES_CHOICES",
    "TABLE_REASONS",
    "TABLE_STATUSES",
    "UNSET",
    "CooldownActive",
    "DailyClaim",
    "HandRecord",
    "InsufficientFunds",
    "InvalidSetting",
    "InvalidStakes",
    "LeaderRow",
    "Move",
    "PlayerStats",
    "ServerSettings",
    "Store",
    "StoreError",
    "TableExists",
    "TableNotFound",
    "TableRow",
    "VersionConflict",
    "small_points",
    "validate_stakes",
]
