"""The database schema as ONE numbered history, written in each dialect where they differ.

Version 1: servers, accounts, tables, the ledger and the stakes history.
Version 2: finished hands and per-player statistics (with leaderboard indexes).
Version 3: table leases (which process runs which table, until when).
Version 4: each server's own economy (currency, cap, account age, gifts) and gifts' index.
Version 5: ratings per season, their history per hand, seasons and their frozen standings.
Version 6: tournaments and their entries; the ledger gains the `tournament` account kind
(SQLite cannot change a CHECK in place: the ledger is rebuilt, rows and ids unchanged).
Versions 7-9: turn-ping opt-outs, who may open tournaments, the command sync's digests.
Version 10: provably fair tables (issue 30): each table's secret, commitment and whether the
secret is revealed; the players' words recorded with each hand; each member's word
(`fair_words`).
Version 11: the tournament cog's registration message, table channel, results posted.

`MIGRATIONS[i]` brings a database from version i to i + 1; each `Migration` holds its SQLite
and its PostgreSQL text side by side, so a new version is written once for both (plain SQL:
the two differ only in types and identity columns, which a migration library would not hide).
SQLite tracks the version in `PRAGMA user_version` (`migrate` here); PostgreSQL in the table
`schema_version` (`bot.store.postgres.schema`). A migration runs in one transaction together
with the version bump, so a failure leaves the database at the previous version.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

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

PG_V1 = """
CREATE TABLE servers (
    guild_id         BIGINT PRIMARY KEY,
    starting_balance BIGINT NOT NULL DEFAULT 1000,
    daily_amount     BIGINT NOT NULL DEFAULT 200,
    daily_cooldown   DOUBLE PRECISION NOT NULL DEFAULT 72000.0,
    language         TEXT,
    turn_timeout     DOUBLE PRECISION,
    stakes           TEXT,
    updated_by       BIGINT,
    updated_at       DOUBLE PRECISION
);
CREATE TABLE accounts (
    guild_id   BIGINT NOT NULL,
    user_id    BIGINT NOT NULL,
    balance    BIGINT NOT NULL CHECK (balance >= 0),
    daily_at   DOUBLE PRECISION,
    created_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
CREATE INDEX accounts_by_balance ON accounts (guild_id, balance DESC, user_id)
    WHERE user_id > 0;
CREATE TABLE tables (
    id          BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    guild_id    BIGINT NOT NULL,
    channel_id  BIGINT NOT NULL,
    message_id  BIGINT,
    status      TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'closed')),
    seats       TEXT NOT NULL DEFAULT '[]',
    dealer      BIGINT,
    settings    TEXT NOT NULL DEFAULT '{}',
    state       TEXT,
    meta        TEXT NOT NULL DEFAULT '{}',
    version     BIGINT NOT NULL DEFAULT 0,
    deadline    DOUBLE PRECISION,
    escrow      BIGINT NOT NULL DEFAULT 0 CHECK (escrow >= 0),
    created_at  DOUBLE PRECISION NOT NULL,
    updated_at  DOUBLE PRECISION NOT NULL,
    CHECK (status != 'closed' OR escrow = 0)
);
CREATE UNIQUE INDEX tables_open_by_channel ON tables (channel_id) WHERE status != 'closed';
CREATE INDEX tables_by_guild ON tables (guild_id, status);
CREATE TABLE ledger (
    id        BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    at        DOUBLE PRECISION NOT NULL,
    guild_id  BIGINT NOT NULL,
    table_id  BIGINT REFERENCES tables (id),
    hand_no   BIGINT,
    src_kind  TEXT   NOT NULL CHECK (src_kind IN ('user', 'table', 'mint')),
    src_id    BIGINT,
    dst_kind  TEXT   NOT NULL CHECK (dst_kind IN ('user', 'table', 'mint')),
    dst_id    BIGINT,
    amount    BIGINT NOT NULL CHECK (amount > 0),
    reason    TEXT   NOT NULL,
    note      TEXT,
    "by"      BIGINT,
    CHECK (src_kind != dst_kind OR src_id IS DISTINCT FROM dst_id)
);
CREATE INDEX ledger_by_table ON ledger (table_id) WHERE table_id IS NOT NULL;
CREATE TABLE stakes_changes (
    id       BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    guild_id BIGINT NOT NULL,
    at       DOUBLE PRECISION NOT NULL,
    "by"     BIGINT NOT NULL,
    changes  TEXT   NOT NULL
);
CREATE INDEX stakes_changes_by_guild ON stakes_changes (guild_id, id);
"""

PG_V2 = """
CREATE TABLE hands (
    id          BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    table_id    BIGINT NOT NULL REFERENCES tables (id),
    guild_id    BIGINT NOT NULL,
    hand_no     BIGINT NOT NULL,
    seed        BIGINT,
    events      TEXT   NOT NULL,
    result      TEXT   NOT NULL,
    pots_won    TEXT   NOT NULL,
    closes      TEXT   NOT NULL,
    biggest_pot TEXT   NOT NULL,
    at          DOUBLE PRECISION NOT NULL,
    UNIQUE (table_id, hand_no)
);
CREATE TABLE player_stats (
    guild_id    BIGINT NOT NULL,
    user_id     BIGINT NOT NULL,
    hands       BIGINT NOT NULL DEFAULT 0,
    pots_won    BIGINT NOT NULL DEFAULT 0,
    closes      BIGINT NOT NULL DEFAULT 0,
    net         BIGINT NOT NULL DEFAULT 0,
    biggest_pot BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, user_id)
);
CREATE INDEX player_stats_by_net ON player_stats (guild_id, net DESC, user_id)
    WHERE user_id > 0;
CREATE INDEX player_stats_by_closes ON player_stats (guild_id, closes DESC, user_id)
    WHERE user_id > 0;
"""


V3 = """
CREATE TABLE table_leases (
    table_id   INTEGER PRIMARY KEY REFERENCES tables (id),
    owner      TEXT    NOT NULL,         -- the process holding the table
    expires_at REAL    NOT NULL
);
CREATE INDEX table_leases_by_owner ON table_leases (owner, expires_at);
"""

PG_V3 = """
CREATE TABLE table_leases (
    table_id   BIGINT PRIMARY KEY REFERENCES tables (id),
    owner      TEXT   NOT NULL,
    expires_at DOUBLE PRECISION NOT NULL
);
CREATE INDEX table_leases_by_owner ON table_leases (owner, expires_at);
"""

V4 = """
ALTER TABLE servers ADD COLUMN currency_name TEXT;
ALTER TABLE servers ADD COLUMN currency_emoji TEXT;
ALTER TABLE servers ADD COLUMN balance_cap INTEGER;
ALTER TABLE servers ADD COLUMN daily_min_age REAL NOT NULL DEFAULT 0;
ALTER TABLE servers ADD COLUMN give_enabled INTEGER NOT NULL DEFAULT 0;
ALTER TABLE servers ADD COLUMN give_daily_limit INTEGER;
CREATE INDEX ledger_gives ON ledger (guild_id, src_id, at) WHERE reason = 'give';
"""

PG_V4 = """
ALTER TABLE servers ADD COLUMN currency_name TEXT;
ALTER TABLE servers ADD COLUMN currency_emoji TEXT;
ALTER TABLE servers ADD COLUMN balance_cap BIGINT;
ALTER TABLE servers ADD COLUMN daily_min_age DOUBLE PRECISION NOT NULL DEFAULT 0;
ALTER TABLE servers ADD COLUMN give_enabled INTEGER NOT NULL DEFAULT 0;
ALTER TABLE servers ADD COLUMN give_daily_limit BIGINT;
CREATE INDEX ledger_gives ON ledger (guild_id, src_id, at) WHERE reason = 'give';
"""

V5 = """
CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    season     INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,         -- CPU players (negative) are rated, never ranked
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    hands      INTEGER NOT NULL,
    winnings   INTEGER NOT NULL DEFAULT 0,  -- net chips won at tables this season
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, season, user_id)
) WITHOUT ROWID;
CREATE TABLE rating_history (
    id       INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    season   INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    hand_id  INTEGER REFERENCES hands (id),
    at       REAL    NOT NULL,
    mu       REAL    NOT NULL,
    sigma    REAL    NOT NULL
);
CREATE INDEX rating_history_by_user ON rating_history (guild_id, user_id, season, id);
CREATE TABLE seasons (
    guild_id   INTEGER NOT NULL,
    id         INTEGER NOT NULL,         -- 1, 2, ... on each server
    name       TEXT,
    started_at REAL,                     -- NULL: the first season, since the beginning
    ended_at   REAL,                     -- NULL: the season in progress
    PRIMARY KEY (guild_id, id)
) WITHOUT ROWID;
CREATE TABLE season_standings (
    guild_id INTEGER NOT NULL,
    season   INTEGER NOT NULL,
    rank     INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    mu       REAL    NOT NULL,
    sigma    REAL    NOT NULL,
    hands    INTEGER NOT NULL,
    winnings INTEGER NOT NULL,
    PRIMARY KEY (guild_id, season, rank)
) WITHOUT ROWID;
"""

PG_V5 = """
CREATE TABLE ratings (
    guild_id   BIGINT NOT NULL,
    season     BIGINT NOT NULL,
    user_id    BIGINT NOT NULL,
    mu         DOUBLE PRECISION NOT NULL,
    sigma      DOUBLE PRECISION NOT NULL,
    hands      BIGINT NOT NULL,
    winnings   BIGINT NOT NULL DEFAULT 0,
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, season, user_id)
);
CREATE TABLE rating_history (
    id       BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    guild_id BIGINT NOT NULL,
    season   BIGINT NOT NULL,
    user_id  BIGINT NOT NULL,
    hand_id  BIGINT REFERENCES hands (id),
    at       DOUBLE PRECISION NOT NULL,
    mu       DOUBLE PRECISION NOT NULL,
    sigma    DOUBLE PRECISION NOT NULL
);
CREATE INDEX rating_history_by_user ON rating_history (guild_id, user_id, season, id);
CREATE TABLE seasons (
    guild_id   BIGINT NOT NULL,
    id         BIGINT NOT NULL,
    name       TEXT,
    started_at DOUBLE PRECISION,
    ended_at   DOUBLE PRECISION,
    PRIMARY KEY (guild_id, id)
);
CREATE TABLE season_standings (
    guild_id BIGINT NOT NULL,
    season   BIGINT NOT NULL,
    rank     BIGINT NOT NULL,
    user_id  BIGINT NOT NULL,
    mu       DOUBLE PRECISION NOT NULL,
    sigma    DOUBLE PRECISION NOT NULL,
    hands    BIGINT NOT NULL,
    winnings BIGINT NOT NULL,
    PRIMARY KEY (guild_id, season, rank)
);
"""

_TOURNAMENTS = """
CREATE TABLE tournaments (
    id          {identity},
    guild_id    {int} NOT NULL,
    channel_id  {int} NOT NULL,
    table_id    {int} REFERENCES tables (id),
    state       TEXT,                    -- the tournament's own JSON (rounds, seats...)
    status      TEXT NOT NULL CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
    buy_in      {int} NOT NULL CHECK (buy_in >= 0),
    max_players {int} NOT NULL CHECK (max_players >= 2),
    entrants    {int} NOT NULL DEFAULT 0 CHECK (entrants >= 0 AND entrants <= max_players),
    pool        {int} NOT NULL DEFAULT 0 CHECK (pool >= 0),
    version     {int} NOT NULL DEFAULT 0,
    created_at  {real} NOT NULL,
    updated_at  {real} NOT NULL,
    CHECK (status IN ('open', 'running') OR pool = 0)
);
CREATE INDEX tournaments_by_guild ON tournaments (guild_id, status);
CREATE TABLE tournament_entries (
    tournament_id {int} NOT NULL REFERENCES tournaments (id),
    user_id       {int} NOT NULL,
    paid          {int} NOT NULL CHECK (paid >= 0),
    at            {real} NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
);
"""
_KINDS = "('user', 'table', 'mint', 'tournament')"

V6 = (
    _TOURNAMENTS.format(identity="INTEGER PRIMARY KEY", int="INTEGER", real="REAL")
    + f"""
CREATE TABLE ledger_v6 (
    id        INTEGER PRIMARY KEY,
    at        REAL    NOT NULL,
    guild_id  INTEGER NOT NULL,
    table_id  INTEGER REFERENCES tables (id),
    hand_no   INTEGER,
    src_kind  TEXT    NOT NULL CHECK (src_kind IN {_KINDS}),
    src_id    INTEGER,                   -- user, table or tournament id; NULL for the mint
    dst_kind  TEXT    NOT NULL CHECK (dst_kind IN {_KINDS}),
    dst_id    INTEGER,
    amount    INTEGER NOT NULL CHECK (amount > 0),
    reason    TEXT    NOT NULL,
    note      TEXT,
    by        INTEGER,
    CHECK (src_kind != dst_kind OR src_id IS NOT dst_id)
);
INSERT INTO ledger_v6 SELECT * FROM ledger;
DROP TABLE ledger;
ALTER TABLE ledger_v6 RENAME TO ledger;
CREATE INDEX ledger_by_table ON ledger (table_id) WHERE table_id IS NOT NULL;
CREATE INDEX ledger_gives ON ledger (guild_id, src_id, at) WHERE reason = 'give';
"""
)

PG_V6 = _TOURNAMENTS.format(
    identity="BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
    int="BIGINT",
    real="DOUBLE PRECISION",
) + f"""
ALTER TABLE ledger DROP CONSTRAINT ledger_src_kind_check,
    DROP CONSTRAINT ledger_dst_kind_check,
    ADD CONSTRAINT ledger_src_kind_check CHECK (src_kind IN {_KINDS}),
    ADD CONSTRAINT ledger_dst_kind_check CHECK (dst_kind IN {_KINDS});
"""

_PINGS_OFF = """
CREATE TABLE pings_off (                 -- a row: the member asked for no turn pings there
    guild_id {int} NOT NULL,
    user_id  {int} NOT NULL,
    PRIMARY KEY (guild_id, user_id)
){suffix};
"""
V7 = _PINGS_OFF.format(int="INTEGER", suffix=" WITHOUT ROWID")
PG_V7 = _PINGS_OFF.format(int="BIGINT", suffix="")

#: who may open a tournament on a server (0: managers only, 1: any member)
_V8 = """
ALTER TABLE servers ADD COLUMN tournaments_open INTEGER NOT NULL DEFAULT 0;
"""
V8 = _V8
PG_V8 = _V8

#: the hash of the commands' JSON last synced to each target ("global", "guild:<id>"), so
#: that every process of every backend knows what Discord holds (`bot.store.command_sync`)
_V9 = """
CREATE TABLE command_sync (
    target    TEXT PRIMARY KEY,
    digest    TEXT NOT NULL,
    synced_at {real} NOT NULL
);
"""
V9 = _V9.format(real="REAL")
PG_V9 = _V9.format(real="DOUBLE PRECISION")

#: provably fair tables (docs/fairness.md): the secret (hex; NULL for tables opened before
#: version 10) is shown only once `revealed` = 1 (the close); `hands.words` is the JSON
#: [[user, word], ...] of the seats dealt in, in seat order
_V10 = """
ALTER TABLE tables ADD COLUMN secret TEXT;
ALTER TABLE tables ADD COLUMN commitment TEXT;
ALTER TABLE tables ADD COLUMN revealed {int} NOT NULL DEFAULT 0;
ALTER TABLE hands ADD COLUMN words TEXT NOT NULL DEFAULT '[]';
CREATE TABLE fair_words (
    guild_id {int} NOT NULL,
    user_id  {int} NOT NULL,
    word     TEXT NOT NULL,
    set_at   {real} NOT NULL,
    PRIMARY KEY (guild_id, user_id)
){suffix};
"""
V10 = _V10.format(int="INTEGER", real="REAL", suffix=" WITHOUT ROWID")
PG_V10 = _V10.format(int="BIGINT", real="DOUBLE PRECISION", suffix="")

#: what the tournament cog posted, so that nothing of a tournament lives only in memory
#: (issue 28): the registration message (channel and id), the channel or thread its table
#: plays in, and whether the results were posted there (rows already over count as posted)
_V11 = """
ALTER TABLE tournaments ADD COLUMN message_channel_id {int};
ALTER TABLE tournaments ADD COLUMN message_id {int};
ALTER TABLE tournaments ADD COLUMN table_channel_id {int};
ALTER TABLE tournaments ADD COLUMN results_posted INTEGER NOT NULL DEFAULT 0;
UPDATE tournaments SET results_posted = 1 WHERE status IN ('finished', 'cancelled');
"""
V11 = _V11.format(int="INTEGER")
PG_V11 = _V11.format(int="BIGINT")

#: the pause between the end of a hand and the next deal (seconds; NULL: the bot's default,
#: `bot.tables.limits.DEFAULT_HAND_PAUSE`), a manager's `/settings pause`; the language
#: ("it"/"en") an entrant registered in, which their tournament table speaks (issue 36)
_V12 = """
ALTER TABLE servers ADD COLUMN hand_pause {real};
ALTER TABLE tournament_entries ADD COLUMN lang TEXT;
"""
V12 = _V12.format(real="REAL")
PG_V12 = _V12.format(real="DOUBLE PRECISION")


@dataclass(frozen=True, slots=True)
class Migration:
    """One step of the schema history, in both dialects."""

    sqlite: str
    postgres: str


#: MIGRATIONS[i] brings a database from version i to version i + 1
MIGRATIONS: tuple[Migration, ...] = (
    Migration(V1, PG_V1),
    Migration(V2, PG_V2),
    Migration(V3, PG_V3),
    Migration(V4, PG_V4),
    Migration(V5, PG_V5),
    Migration(V6, PG_V6),
    Migration(V7, PG_V7),
    Migration(V8, PG_V8),
    Migration(V9, PG_V9),
    Migration(V10, PG_V10),
    Migration(V11, PG_V11),
    Migration(V12, PG_V12),
)
LATEST = len(MIGRATIONS)

#: tables in an order that respects their foreign keys (copying, emptiness checks)
TABLES: tuple[str, ...] = (
    "servers",
    "accounts",
    "tables",
    "ledger",
    "stakes_changes",
    "hands",
    "player_stats",
    "table_leases",
    "ratings",
    "rating_history",
    "seasons",
    "season_standings",
    "tournaments",
    "tournament_entries",
    "pings_off",
    "fair_words",
)


def too_new(version: int) -> StoreError:
    """The error for a database written by a newer version of the bot."""
    return StoreError("schema_too_new", {"version": version, "latest": LATEST})


def schema_version(db: sqlite3.Connection) -> int:
    """The file's `PRAGMA user_version`."""
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def migrate(db: sqlite3.Connection, target: int = LATEST) -> list[int]:
    """Apply every migration above the file's version up to `target`; return those applied.

    Raises StoreError("schema_too_new") if the file was written by a newer version of the bot.
    """
    current = schema_version(db)
    if current > LATEST:
        raise too_new(current)
    applied: list[int] = []
    for version in range(current + 1, target + 1):
        script = MIGRATIONS[version - 1].sqlite
        # executescript commits any open transaction first, so the BEGIN/COMMIT live inside it
        try:
            db.executescript(
                f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {version};\nCOMMIT;"
            )
        except BaseException:
            if db.in_transaction:
                db.rollback()
            raise
        applied.append(version)
    return applied
