"""Storage: accounts and ledger, stakes and variants, tables, history (SQLite or PostgreSQL).

`StoreContract` (`contract.py`) is what callers may use; `open_store(database)` returns the
SQLite store (`SQLiteStore`: one file, WAL, one writer thread per process) or the PostgreSQL
one (`bot.store.postgres.PostgresStore`: asyncpg pool, any number of processes). Schema
migrations are applied at open. Every chip movement is a ledger row written in the same
transaction as the balance change; chips committed to a hand are held in the table's escrow,
so on each server `sum(balances) + sum(escrow)` equals the chips minted (starting balances,
daily claims, admin grants) net of those burned (admin removals). `audit()` checks it all.

    store = await open_store("data/stoppa.db")     # or "postgresql://user@host/stoppa"
    await store.balance(guild, user)
    stakes = await store.get_stakes(guild)                # typed: Stakes (ante, variants...)
    row = await store.create_table(guild, channel, settings=stakes.to_dict())
    change = TableSave(row.version, state=json_text, moves=[Move(user, 60, "ante", hand_no=1)])
    row = await store.save_table(row.id, change)
    await store.close()

Each transaction is written ONCE, as a generator that yields statements and is sent their rows
(`bot.store.sql`; the methods are `bot.store.methods.StoreMethods`), and both drivers run it:
`SQLiteDriver` steps through the whole body on its worker thread in one hop, inside a savepoint
of its group commit; `PgDriver` awaits each statement and runs the body again when PostgreSQL
aborted it. Why a generator: a body must stay synchronous for SQLite (one hop per transaction,
not one per statement) and awaitable for asyncpg; a generator is both without writing the body
twice, keeps the body a plain readable function (its `yield`s mark exactly where it talks to
the database), and makes retries trivially safe (a body has no I/O of its own to repeat). What
the two databases write differently lives in one `Dialect` (placeholders, row locks, JSON
membership); migrations stay SQL per dialect side by side (`schema.py`).

Why the SQLite driver is a small standard-library thread and not aiosqlite, the driver the
design names: aiosqlite's public API sends each statement to its thread separately (measured:
2-5x fewer committed transfers a second) and has no public way to run a whole transaction on
its thread, which the group commit needs. We would switch if it offered that (a public "run
this function on the connection's thread").
"""

from __future__ import annotations

from bot.store.contract import StoreContract
from bot.store.errors import (
    CooldownActive,
    DailyRefused,
    GiveRefused,
    InsufficientFunds,
    InvalidName,
    InvalidSetting,
    InvalidStakes,
    LeaseLost,
    StoreError,
    TableExists,
    TableNotFound,
    TournamentError,
    VersionConflict,
)
from bot.store.factory import open_store, parse_database
from bot.store.models import (
    LEADERBOARDS,
    TABLE_REASONS,
    TABLE_STATUSES,
    UNSET,
    DailyClaim,
    GiveResult,
    HandRecord,
    LeaderRow,
    Lease,
    Move,
    PlayerStats,
    RatingPoint,
    RatingRow,
    RatingUpdate,
    Season,
    ServerSettings,
    StoredRating,
    TableRow,
    TableSave,
    TournamentRow,
    TournamentSave,
    Unset,
)
from bot.store.schema import LATEST as SCHEMA_VERSION
from bot.store.stakes import CHOICES as STAKES_CHOICES
from bot.store.stakes import DEFAULT_STAKES, Stakes, StakesChange, small_points
from bot.store.store import SQLiteStore, Store

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
    "DailyRefused",
    "GiveRefused",
    "GiveResult",
    "HandRecord",
    "InsufficientFunds",
    "InvalidName",
    "InvalidSetting",
    "InvalidStakes",
    "LeaderRow",
    "Lease",
    "LeaseLost",
    "Move",
    "PlayerStats",
    "RatingPoint",
    "RatingRow",
    "RatingUpdate",
    "SQLiteStore",
    "Season",
    "ServerSettings",
    "Stakes",
    "StakesChange",
    "Store",
    "StoreContract",
    "StoreError",
    "StoredRating",
    "TableExists",
    "TableNotFound",
    "TableRow",
    "TableSave",
    "TournamentError",
    "TournamentRow",
    "TournamentSave",
    "Unset",
    "VersionConflict",
    "open_store",
    "parse_database",
    "small_points",
]
