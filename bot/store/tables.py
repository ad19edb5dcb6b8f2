"""Tables: one row per table, saved together with the chip movements of each action.

The save (`save_table`, `close_table`) is ONE transaction body for both databases: the lease
fence, one conditional UPDATE of the table row (version, status, escrow), then every account
in user-id order (the one lock order: two saves never wait on each other in a circle on
PostgreSQL), the ledger rows, the hand record and the tournament's state.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from bot.fairness.secret import Commitment, TableSecret
from bot.store.driver import Driver
from bot.store.errors import LeaseLost, StoreError, TableExists, TableNotFound, VersionConflict
from bot.store.jsontext import dumps
from bot.store.ledger import TABLE, USER, Account, Tx
from bot.store.models import (
    REASON_RE,
    TABLE_STATUSES,
    UNSET,
    HandRecord,
    Move,
    TableRow,
    TableSave,
    TournamentRow,
    TournamentSave,
)
from bot.store.ratings import check_updates, write_ratings
from bot.store.sql import Body, Columns, Statement
from bot.store.tournaments import (
    ENTRY_LANGUAGE,
    GET,
    SAVE_RUNNING,
    SET_TABLE,
    START,
    read_tournament,
    refused,
    refused_start,
)

COLUMNS = (
    "id, guild_id, channel_id, message_id, status, seats, dealer, settings, state, meta,"
    " version, deadline, created_at, updated_at, escrow, secret, commitment, revealed"
)


#: the lease fence of a table write: matches (and locks, until the commit) the writer's lease
#: row only while it is unexpired at the transaction's `now`; no row: the write is refused
FENCE = (
    "UPDATE table_leases SET owner = owner"
    " WHERE table_id = ? AND owner = ? AND expires_at > ? RETURNING table_id"
)


def table_row(r: Any) -> TableRow:
    """A `TableRow` from a database row (any mapping of the table's columns)."""
    return TableRow(
        id=r["id"],
        guild_id=r["guild_id"],
        channel_id=r["channel_id"],
        message_id=r["message_id"],
        status=r["status"],
        seats=json.loads(r["seats"]),
        dealer=r["dealer"],
        settings=json.loads(r["settings"]),
        state=r["state"],
        meta=json.loads(r["meta"]),
        version=r["version"],
        deadline=r["deadline"],
        created_at=r["created_at"],
        updated_at=r["updated_at"],
        escrow=r["escrow"],
        secret=TableSecret.from_hex(r["secret"]) if r["secret"] else None,
        commitment=Commitment.from_hex(r["commitment"]) if r["commitment"] else None,
        revealed=bool(r["revealed"]),
    )


def check_ids(name: str, values: Sequence[int]) -> list[int]:
    out = list(values)
    for v in out:
        if isinstance(v, bool) or not isinstance(v, int):
            raise ValueError(f"{name} must hold integer user ids, not {v!r}")
    return out


def check_moves(moves: Sequence[Move]) -> list[Move]:
    """Validated moves in the order given, zero amounts dropped."""
    for m in moves:
        if isinstance(m.amount, bool) or not isinstance(m.amount, int):
            raise ValueError(f"a move amount must be an integer: {m!r}")
        if isinstance(m.user, bool) or not isinstance(m.user, int):
            raise ValueError(f"a move user must be an integer id: {m!r}")
        if not REASON_RE.fullmatch(m.reason):
            raise ValueError(f"a move reason must be a short lowercase identifier: {m!r}")
    return [m for m in moves if m.amount]


def check_hand(hand: HandRecord) -> None:
    if not isinstance(hand.hand_no, int) or not isinstance(hand.events, str):
        raise ValueError(f"bad hand record: hand_no {hand.hand_no!r}, events must be JSON text")
    for name in ("result", "pots_won", "closes", "biggest_pot"):
        for user, value in getattr(hand, name).items():
            if not isinstance(user, int) or not isinstance(value, int):
                raise ValueError(f"HandRecord.{name} must map int user ids to ints")
    check_updates(hand.ratings)


def table_changes(change: TableSave) -> Columns:
    """The columns a `save_table` changes, checked and encoded for the database."""
    if change.status is not UNSET and change.status not in TABLE_STATUSES:
        raise ValueError(f"unknown table status {change.status!r}")
    changes: Columns = {}
    if change.status is not UNSET:
        changes["status"] = change.status
    if change.seats is not UNSET:
        changes["seats"] = dumps(check_ids("seats", change.seats))
    if change.dealer is not UNSET:
        changes["dealer"] = change.dealer
    if change.state is not UNSET:
        changes["state"] = change.state
    if change.meta is not UNSET:
        changes["meta"] = dumps(dict(change.meta))
    if change.deadline is not UNSET:
        changes["deadline"] = change.deadline
    if change.message_id is not UNSET:
        changes["message_id"] = change.message_id
    return changes


GET_TABLE = f"SELECT {COLUMNS} FROM tables WHERE id = ?"
INSERT_HAND = (
    "INSERT INTO hands (table_id, guild_id, hand_no, seed, events, result, pots_won,"
    " closes, biggest_pot, at, words) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (table_id, hand_no) DO NOTHING RETURNING id"
)
ADD_STATS = (
    "INSERT INTO player_stats (guild_id, user_id, hands, pots_won, closes, net, biggest_pot)"
    " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET"
    " hands = player_stats.hands + excluded.hands,"
    " pots_won = player_stats.pots_won + excluded.pots_won,"
    " closes = player_stats.closes + excluded.closes,"
    " net = player_stats.net + excluded.net,"
    " biggest_pot = CASE WHEN excluded.biggest_pot > player_stats.biggest_pot"
    " THEN excluded.biggest_pot ELSE player_stats.biggest_pot END"
)
INSERT_TABLE = (
    "INSERT INTO tables (guild_id, channel_id, status, seats, settings, meta,"
    " created_at, updated_at) VALUES (?, ?, 'lobby', ?, ?, ?, ?, ?)"
    " ON CONFLICT (channel_id) WHERE status != 'closed' DO NOTHING"
    f" RETURNING {COLUMNS}"
)
OPEN_IN_CHANNEL = "SELECT id FROM tables WHERE channel_id = ? AND status != 'closed'"
#: the fair-deal secret and commitment of a new table (docs/fairness.md)
SET_SECRET = f"UPDATE tables SET secret = ?, commitment = ? WHERE id = ? RETURNING {COLUMNS}"


def fair_columns(secret: TableSecret | None, table_id: int) -> tuple[str, str]:
    """The `secret` and `commitment` columns of table `table_id` (a new secret if None)."""
    drawn = secret or TableSecret.draw()
    return drawn.hex(), Commitment.of(drawn, table_id).hex()


def _apply_moves(tx: Tx, row: TableRow, moves: Sequence[Move]) -> Body[None]:
    """Every move between a user and the table's escrow, with its ledger row (the escrow
    column is updated by the caller, with the table row, by the moves' total).

    The moves of one action are applied as a whole: each user's balance changes once, by the
    net of that user's moves (a debit checked with `balance >= ?`), in user-id order (a fixed
    lock order), so the order of the moves does not matter (a seat that wins a pot and pays
    cards in one action needs no chips it lacks), while the ledger keeps one row per move, in
    the order given.
    """
    table = Account(TABLE, row.id)
    net: dict[int, int] = {}
    for m in moves:
        net[m.user] = net.get(m.user, 0) + m.amount
    for user_id in sorted(net):
        if net[user_id]:
            yield from tx.add_to_user(row.guild_id, user_id, -net[user_id])
    for m in moves:
        user = Account(USER, m.user)
        src, dst = (user, table) if m.amount > 0 else (table, user)
        tx.record(
            row.guild_id, src, dst, abs(m.amount), m.reason, table_id=row.id, hand_no=m.hand_no
        )


def _record_hand(tx: Tx, row: TableRow, hand: HandRecord) -> Body[None]:
    """Insert the finished hand and add it to every player's statistics (users in id
    order)."""
    inserted = yield Statement(
        INSERT_HAND,
        (
            row.id,
            row.guild_id,
            hand.hand_no,
            hand.seed,
            hand.events,
            dumps(hand.result),
            dumps(hand.pots_won),
            dumps(hand.closes),
            dumps(hand.biggest_pot),
            tx.now,
            dumps([list(w) for w in hand.words]),
        ),
    )
    if not inserted:
        raise StoreError("hand_exists", {"table_id": row.id, "hand_no": hand.hand_no})
    users = sorted(dict.fromkeys([*hand.result, *hand.pots_won, *hand.closes, *hand.biggest_pot]))
    for user in users:
        yield from tx.ensure_account(row.guild_id, user)
    yield Statement(
        ADD_STATS,
        [
            (
                row.guild_id,
                user,
                1 if user in hand.result else 0,
                hand.pots_won.get(user, 0),
                hand.closes.get(user, 0),
                hand.result.get(user, 0) if hand.counts_net else 0,
                hand.biggest_pot.get(user, 0),
            )
            for user in users
        ],
        many=True,
    )
    if hand.ratings:
        updates = check_updates(hand.ratings)
        hand_id = int(inserted[0][0])
        yield from write_ratings(tx, row.guild_id, updates, hand_id, hand.ratings_season)


def insert_table(
    tx: Tx,
    guild: int,
    channel: int,
    settings: Mapping[str, Any],
    seats: list[int],
    meta: Mapping[str, Any] | None,
    secret: TableSecret | None = None,
) -> Body[TableRow]:
    """Insert a new table in the lobby (TableExists if the channel has an open table), with
    its fair-deal secret (`secret`, else a new one) and commitment in the same transaction."""
    rows = yield Statement(
        INSERT_TABLE,
        (guild, channel, dumps(seats), dumps(dict(settings)), dumps(dict(meta or {})), tx.now,
         tx.now),
    )
    if rows:
        table_id = int(rows[0]["id"])
        fair = yield Statement(SET_SECRET, (*fair_columns(secret, table_id), table_id))
        return table_row(fair[0])
    existing = yield Statement(OPEN_IN_CHANNEL, (channel,))
    raise TableExists(channel=channel, table_id=existing[0][0] if existing else 0)


class TablesMixin(Driver):
    """Create, read, save and close tables; each save is one transaction with its moves."""

    async def create_table(
        self,
        guild: int,
        channel: int,
        *,
        settings: Mapping[str, Any],
        seats: Sequence[int] = (),
        meta: Mapping[str, Any] | None = None,
        secret: TableSecret | None = None,
    ) -> TableRow:
        """A new table in the lobby; TableExists if the channel has an open table."""
        seat_ids = check_ids("seats", seats)

        return await self._transaction(
            lambda tx: insert_table(tx, guild, channel, settings, seat_ids, meta, secret)
        )

    async def get_table(self, table_id: int) -> TableRow:
        """The table with this id; TableNotFound."""
        rows = await self.query(GET_TABLE, (table_id,))
        if not rows:
            raise TableNotFound(table_id)
        return table_row(rows[0])

    async def table_in_channel(self, channel: int) -> TableRow | None:
        """The open (not closed) table of the channel, if any."""
        rows = await self.query(
            f"SELECT {COLUMNS} FROM tables WHERE channel_id = ? AND status != 'closed'",
            (channel,),
        )
        return table_row(rows[0]) if rows else None

    async def table_of_user(self, guild: int, user: int) -> TableRow | None:
        """The open table of this server where the user is seated (the newest if several)."""
        rows = await self.query(
            f"SELECT {COLUMNS} FROM tables WHERE guild_id = ? AND status != 'closed'"
            f" AND {self.dialect.json_array_has.format(column='tables.seats')}"
            " ORDER BY id DESC LIMIT 1",
            (guild, user),
        )
        return table_row(rows[0]) if rows else None

    async def escrow(self, table_id: int) -> int:
        """The chips the table holds for hands in progress (or a carried pot)."""
        return (await self.get_table(table_id)).escrow

    async def save_table(
        self,
        table_id: int,
        change: TableSave,
        *,
        lease_owner: str | None = None,
        now: float | None = None,
    ) -> TableRow:
        """Save an action in ONE transaction: version check, row update (version + 1), every
        move (user <-> escrow, with ledger rows), the hand record and statistics, and the
        state of the running tournament the table plays (`tournament`; TournamentError
        tournament_not_open when it is no longer running).

        Only the fields given change. With `lease_owner` the write is fenced: it applies only
        while that owner holds the table's unexpired lease at `now` (default: the wall clock),
        else `LeaseLost`. Raises VersionConflict, TableNotFound, InsufficientFunds,
        StoreError("table_closed" / "escrow_insufficient" / "escrow_not_empty"); any failure
        rolls the whole action back.
        """
        changes = table_changes(change)
        ordered = check_moves(change.moves)
        hand, tournament = change.hand, change.tournament
        expected_version = change.expected_version
        if hand is not None:
            check_hand(hand)
        return await self._transaction(
            lambda tx: _save(
                tx, table_id, expected_version, changes, ordered, hand, lease_owner, tournament
            ),
            now,
        )

    async def start_tournament(
        self,
        tournament_id: int,
        *,
        expected_version: int,
        state: str,
        channel: int,
        settings: Mapping[str, Any],
        seats: Sequence[int],
        meta: Mapping[str, Any],
        now: float | None = None,
        secret: TableSecret | None = None,
    ) -> tuple[TournamentRow, TableRow]:
        """Start a full open tournament (still at `expected_version`): its state, status
        running, and its new table in `channel` (in the lobby, `seats` seated), in ONE
        transaction (TournamentError; TableExists when the channel has an open table)."""
        seat_ids = check_ids("seats", seats)

        def begin(tx: Tx) -> Body[tuple[TournamentRow, TableRow]]:
            locked = yield Statement(START, (state, tx.now, tournament_id, expected_version))
            if not locked:
                raise refused_start((yield Statement(GET, (tournament_id,))), expected_version)
            table = yield from insert_table(
                tx, int(locked[0][0]), channel, settings, seat_ids, meta, secret
            )
            yield Statement(SET_TABLE, (table.id, tournament_id))
            return (yield from read_tournament(tournament_id)), table

        return await self._transaction(begin, now)

    async def close_table(
        self,
        table_id: int,
        *,
        expected_version: int,
        refunds: Sequence[Move] = (),
        meta: Mapping[str, Any] | None = None,
        lease_owner: str | None = None,
        now: float | None = None,
    ) -> TableRow:
        """Close the table and apply `refunds` in one transaction; the escrow must end at 0
        (else StoreError("escrow_not_empty") and nothing changes). Fenced by `lease_owner`
        as `save_table` is."""
        changes: Columns = {"status": "closed", "deadline": None, "revealed": 1}
        if meta is not None:
            changes["meta"] = dumps(dict(meta))
        ordered = check_moves(refunds)
        return await self._transaction(
            lambda tx: _save(tx, table_id, expected_version, changes, ordered, None, lease_owner),
            now,
        )


def _save(
    tx: Tx,
    table_id: int,
    expected_version: int,
    changes: Columns,
    moves: list[Move],
    hand: HandRecord | None,
    lease_owner: str | None = None,
    tournament: TournamentSave | None = None,
) -> Body[TableRow]:
    """The whole save (or close) of one table, in one transaction.

    The lease fence first (when `lease_owner` is given: on PostgreSQL the lease row stays
    locked until the commit, so no steal can slip in), then one UPDATE does the optimistic
    check, the escrow change (by the moves' total: only the end value matters, nothing sees
    the transaction half-way) and the version bump; then the accounts in user-id order.
    """
    if lease_owner is not None and not (yield Statement(FENCE, (table_id, lease_owner, tx.now))):
        raise LeaseLost(table_id=table_id, owner=lease_owner)
    delta = sum(m.amount for m in moves)
    closing = changes.get("status") == "closed"
    assignments = "".join(f"{column} = ?, " for column in changes)
    rows = yield Statement(
        f"UPDATE tables SET {assignments}escrow = escrow + ?, version = version + 1,"
        " updated_at = ? WHERE id = ? AND version = ? AND status != 'closed'"
        f" AND escrow + ? >= 0 {'AND escrow + ? = 0' if closing else ''}"
        f" RETURNING {COLUMNS}",
        (
            *changes.values(),
            delta,
            tx.now,
            table_id,
            expected_version,
            delta,
            *((delta,) if closing else ()),
        ),
    )
    if not rows:
        current = yield Statement(GET_TABLE, (table_id,))
        if not current:
            raise TableNotFound(table_id)
        raise refusal(table_row(current[0]), expected_version, moves, closing)
    row = table_row(rows[0])
    yield from _apply_moves(tx, row, moves)
    if hand is not None:
        yield from _record_hand(tx, row, hand)
    if tournament is not None:
        if not (yield Statement(SAVE_RUNNING, (tournament.state, tx.now, tournament.id))):
            raise refused((yield Statement(GET, (tournament.id,))))
        for user, lang in sorted(tournament.languages.items()):
            yield Statement(ENTRY_LANGUAGE, (lang, tournament.id, user))
    return row


def refusal(row: TableRow, expected_version: int, moves: list[Move], closing: bool) -> StoreError:
    """Why a conditional table update matched no row, given the row as it is now."""
    table_id = row.id
    if row.status == "closed":
        return StoreError("table_closed", {"table_id": table_id})
    if row.version != expected_version:
        return VersionConflict(table_id=table_id, expected=expected_version, actual=row.version)
    paid_in = row.escrow + sum(m.amount for m in moves if m.amount > 0)
    paid_out = -sum(m.amount for m in moves if m.amount < 0)
    if paid_out > paid_in:
        return StoreError(
            "escrow_insufficient", {"table_id": table_id, "needed": paid_out, "escrow": paid_in}
        )
    if closing:
        return StoreError("escrow_not_empty", {"table_id": table_id, "escrow": paid_in - paid_out})
    return StoreError()  # pragma: no cover - every failing condition is covered above
