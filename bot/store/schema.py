"""The database schema as ordered migrations, tracked by `PRAGMA user_version`.

Version 1: servers, accounts, tables, the ledger and the stakes history.
Version 2: finished hands and per-player statistics (with leaderboard indexes).
A migration runs in its own `BEGIN IMMEDIATE` transaction together with the version bump, so a
failure leaves the file at the previous version.
"""

from __future__ import annotations

import aiosqlite

from bot.store.errors import StoreError

V1 = """
CREATE TABLE servers (
    guild_id         INTEGER PRIMARY KEY,
    starting_balance INTEGER NOT NULL DEFAULT 1000,
    daily_amount     INTEGER NOT NULL DEFAULT 200,
    daily_cooldown   REAL    NOT NULL DEFAULT 72000.0,
    language         TEXT,
    turn_timeout     REAL,
    stakes           TEXT,              -- JSON of the whole validated stakes, NULL = defaults
    updated_by       INTEGER,
    updated_at       REAL
);
CREATE TABLE accounts (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,         -- CPU players are negative
    balance    INTEGER NOT NULL CHECK (balance >= 0),
    daily_at   REAL,                     -- time of the last daily claim
    created_at REAL NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;
CREATE INDEX accounts_by_balance ON accounts (guild_id, balance DESC, user_id)
    WHERE user_id > 0;
CREATE TABLE tables (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    message_id  INTEGER,
    status      TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'closed')),
    seats       TEXT NOT NULL DEFAULT '[]',
    dealer      INTEGER,
    settings    TEXT NOT NULL DEFAULT '{}',
    state       TEXT,
    meta        TEXT NOT NULL DEFAULT '{}',
    version     INTEGER NOT NULL DEFAULT 0,
    deadline    REAL,
    escrow      INTEGER NOT NULL DEFAULT 0 CHECK (escrow >= 0),
    created_at  REAL NOT NULL,
    updated_at  REAL NOT NULL,
    CHECK (status != 'closed' OR escrow = 0)
);
CREATE UNIQUE INDEX tables_open_by_channel ON tables (channel_id) WHERE status != 'closed';
CREATE INDEX tables_by_guild ON tables (guild_id, status);
CREATE TABLE ledger (
    id        INTEGER PRIMARY KEY,
    at        REAL    NOT NULL,
    guild_id  INTEGER NOT NULL,
    table_id  INTEGER REFERENCES tables (id),
    hand_no   INTEGER,
    src_kind  TEXT    NOT NULL CHECK (src_kind IN ('user', 'table', 'mint')),
    src_id    INTEGER,                   -- user id, table id, or NULL for the mint
    dst_kind  TEXT    NOT NULL CHECK (dst_kind IN ('user', 'table', 'mint')),
    dst_id    INTEGER,
    amount    INTEGER NOT NULL CHECK (amount > 0),
    reason    TEXT    NOT NULL,
    note      TEXT,
    by        INTEGER,
    CHECK (src_kind != dst_kind OR src_id IS NOT dst_id)
);
CREATE INDEX ledger_by_table ON ledger (table_id) WHERE table_id IS NOT NULL;
CREATE TABLE stakes_changes (
    id       INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    at       REAL    NOT NULL,
    by       INTEGER NOT NULL,
    changes  TEXT    NOT NULL            -- JSON {key: [old, new]}
);
CREATE INDEX stakes_changes_by_guild ON stakes_changes (guild_id, id);
"""

V2 = """
CREATE TABLE hands (
    id          INTEGER PRIMARY KEY,
    table_id    INTEGER NOT NULL REFERENCES tables (id),
    guild_id    INTEGER NOT NULL,
    hand_no     INTEGER NOT NULL,
    seed        INTEGER,
    events      TEXT    NOT NULL,
    result      TEXT    NOT NULL,        -- JSON {user: net chips}
    pots_won    TEXT    NOT NULL,
    closes      TEXT    NOT NULL,
    biggest_pot TEXT    NOT NULL,
    at          REAL    NOT NULL,
    UNIQUE (table_id, hand_no)
);
CREATE TABLE player_stats (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    hands       INTEGER NOT NULL DEFAULT 0,
    pots_won    INTEGER NOT NULL DEFAULT 0,
    closes      INTEGER NOT NULL DEFAULT 0,
    net         INTEGER NOT NULL DEFAULT 0,
    biggest_pot INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;
CREATE INDEX player_stats_by_net ON player_stats (guild_id, net DESC, user_id)
    WHERE user_id > 0;
CREATE INDEX player_stats_by_closes ON player_stats (guild_id, closes DESC, user_id)
    WHERE user_id > 0;
"""

#: MIGRATIONS[i] brings the file from version i to version i + 1
MIGRATIONS: tuple[str, ...] = (V1, V2)
LATEST = len(MIGRATIONS)


async def schema_version(db: aiosqlite.Connection) -> int:
    """The file's `PRAGMA user_version`."""
    rows = await db.execute_fetchall("PRAGMA user_version")
    return int(next(iter(rows))[0])


async def migrate(db: aiosqlite.Connection, target: int = LATEST) -> list[int]:
    """Apply every migration above the file's version up to `target`; return those applied.

    Raises StoreError("schema_too_new") if the file was written by a newer version of the bot.
    """
    current = await schema_version(db)
    if current > LATEST:
        raise StoreError("schema_too_new", {"version": current, "latest": LATEST})
    applied: list[int] = []
    for version in range(current + 1, target + 1):
        script = MIGRATIONS[version - 1]
        # executescript commits any open transaction first, so the BEGIN/COMMIT live inside it
        try:
            await db.executescript(
                f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {version};\nCOMMIT;"
            )
        except BaseException:
            if db.in_transaction:
                await db.rollback()
            raise
        applied.append(version)
    return applied
