"""Property: one random sequence of operations (grants and refused removals, gifts, table saves
with moves and hand records, refused debits, closes, tournament buy-ins, payouts and
cancellations) run on SQLite and on PostgreSQL gives the same outcome for every operation and
the same end state: balances, ledger, tables, hands, statistics, tournaments, audit.

The transaction bodies are written once (`bot.store.sql`); this checks that the two drivers
and the dialect's differences really make the same store of them."""

from __future__ import annotations

import asyncio
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from bot.store import HandRecord, Move, Store, StoreContract, StoreError, TableSave
from bot.store.contract import CopyableStore

from .conftest import postgres_schema, postgres_url

GUILDS = (1, 2)
USERS = (1, 2, 3, -1)
MEMBERS = (1, 2, 3)
NOW = 1_000_000.0

grant = st.tuples(
    st.just("grant"),
    st.sampled_from(GUILDS),
    st.sampled_from(USERS),
    st.integers(1, 500) | st.integers(-3000, -1),  # a removal may be refused
)
give = st.tuples(
    st.just("give"),
    st.sampled_from(GUILDS),
    st.sampled_from(MEMBERS),
    st.sampled_from(USERS),
    st.integers(1, 2500),
)
#: mostly bets a balance can pay, some payouts from the escrow, now and then a refused debit
move_amounts = st.one_of(
    *[st.integers(1, 200)] * 5, *[st.integers(-150, -1)] * 4, st.integers(1500, 4000)
)
save = st.tuples(
    st.just("save"),
    st.sampled_from(GUILDS),
    st.lists(st.tuples(st.sampled_from(USERS), move_amounts), min_size=1, max_size=4),
    st.booleans(),  # with a hand record
)
close = st.tuples(st.just("close"), st.sampled_from(GUILDS))
tourney = st.tuples(
    st.just("tourney"),
    st.sampled_from(GUILDS),
    st.integers(0, 1500),
    st.lists(st.sampled_from(MEMBERS), min_size=1, max_size=3),
    st.sampled_from(["pay", "cancel", "open"]),
)
op = st.one_of(grant, give, save, save, save, close, tourney)

#: the end state compared, without the wall-clock columns (grants take no `now`)
STATE = {
    "accounts": "SELECT guild_id, user_id, balance FROM accounts ORDER BY guild_id, user_id",
    "ledger": "SELECT guild_id, table_id, hand_no, src_kind, src_id, dst_kind, dst_id, amount,"
    ' reason, note, "by" FROM ledger ORDER BY id',
    "tables": "SELECT id, guild_id, channel_id, status, seats, dealer, state, meta, version,"
    " escrow FROM tables ORDER BY id",
    "hands": "SELECT id, table_id, guild_id, hand_no, seed, events, result, pots_won, closes,"
    " biggest_pot FROM hands ORDER BY id",
    "player_stats": "SELECT guild_id, user_id, hands, pots_won, closes, net, biggest_pot"
    " FROM player_stats ORDER BY guild_id, user_id",
    "tournaments": "SELECT id, guild_id, table_id, status, buy_in, max_players, pool, version"
    " FROM tournaments ORDER BY id",
    "entries": "SELECT tournament_id, user_id, paid FROM tournament_entries"
    " ORDER BY tournament_id, user_id",
}


async def _step(store: StoreContract, step: tuple[Any, ...], tables: dict[int, int]) -> object:
    """Apply one operation; what it returned or the code of the error it raised."""
    kind, guild = step[0], step[1]
    try:
        if kind == "grant":
            return await store.grant(guild, step[2], step[3], reason="test", by=9)
        if kind == "give":
            return await store.give(guild, step[2], step[3], step[4], now=NOW)
        if kind == "save":
            return await _save(store, guild, step[2], step[3], tables)
        if kind == "close":
            return await _close(store, guild, tables)
        return await _tourney(store, guild, step[2], step[3], step[4])
    except StoreError as error:
        event(f"{kind} refused: {error.code}")
        return ("refused", error.code)


async def _table(store: StoreContract, guild: int, tables: dict[int, int]) -> int:
    if guild not in tables:
        row = await store.create_table(guild, 100 * guild + len(tables), settings={},
                                       seats=list(USERS))
        tables[guild] = row.id
    return tables[guild]


async def _save(
    store: StoreContract,
    guild: int,
    moves: list[tuple[int, int]],
    with_hand: bool,
    tables: dict[int, int],
) -> object:
    table_id = await _table(store, guild, tables)
    row = await store.get_table(table_id)
    hand = None
    if with_hand:
        result = {user: -amount for user, amount in moves}
        hand = HandRecord(
            hand_no=row.version + 1,
            seed=row.version,
            events=json.dumps([{"kind": "test", "n": row.version}]),
            result=result,
            pots_won={moves[0][0]: 1},
            biggest_pot={moves[0][0]: abs(moves[0][1])},
        )
    change = TableSave(
        row.version,
        status="playing",
        state=f"state {row.version}",
        moves=[Move(user, amount, "bet", row.version) for user, amount in moves],
        hand=hand,
    )
    saved = await store.save_table(table_id, change, now=NOW)
    return (saved.version, saved.escrow)


async def _close(store: StoreContract, guild: int, tables: dict[int, int]) -> object:
    if guild not in tables:
        return None
    row = await store.get_table(tables.pop(guild))
    refunds = [Move(USERS[0], -row.escrow, "refund")] if row.escrow else []
    closed = await store.close_table(
        row.id, expected_version=row.version, refunds=refunds, now=NOW
    )
    return (closed.status, closed.escrow)


async def _tourney(
    store: StoreContract, guild: int, buy_in: int, users: list[int], end: str
) -> object:
    entrants = list(dict.fromkeys(users))
    row = await store.create_tournament(
        guild, 900 + guild, buy_in=buy_in, max_players=max(2, len(entrants)), now=NOW
    )
    outcomes: list[object] = []
    for user in entrants:
        try:
            row = await store.register(row.id, user, now=NOW)
            outcomes.append(row.pool)
        except StoreError as error:
            outcomes.append(error.code)
    if end == "pay" and row.entrants and row.pool:
        first, *rest = row.entrants
        share = row.pool // len(row.entrants)
        payouts = {user: share for user in rest if share}
        payouts[first] = row.pool - sum(payouts.values())
        row = await store.pay_tournament(row.id, payouts, now=NOW)
    elif end == "cancel":
        row = await store.cancel_tournament(row.id, now=NOW)
    return (outcomes, row.status, row.pool, row.entrants)


async def _run(store: CopyableStore, steps: list[tuple[Any, ...]]) -> tuple[list[object], dict]:
    for guild in GUILDS:
        await store.update_server_settings(guild, by=0, give_enabled=True)
    tables: dict[int, int] = {}
    outcomes = [await _step(store, step, tables) for step in steps]
    state: dict[str, Any] = {
        name: [tuple(r) for r in await store.query(sql)] for name, sql in STATE.items()
    }
    state["audit"] = await store.audit()
    state["totals"] = [await store.total_chips(guild) for guild in GUILDS]
    return outcomes, state


async def _both(steps: list[tuple[Any, ...]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        sqlite = await Store.open(str(Path(tmp) / "same.db"))
        try:
            on_sqlite = await _run(sqlite, steps)
        finally:
            await sqlite.close()
    async with postgres_schema() as open_store:
        on_postgres = await _run(await open_store(), steps)
    assert on_sqlite[0] == on_postgres[0]  # every operation: the same value or refusal
    for name, rows in on_sqlite[1].items():
        assert rows == on_postgres[1][name], name
    assert on_sqlite[1]["audit"] == []


@settings(max_examples=12, deadline=None)
@given(st.lists(op, min_size=5, max_size=25))
def _same_on_both(steps: list[tuple[Any, ...]]) -> None:
    asyncio.run(_both(steps))


@pytest.mark.slow
def test_one_sequence_gives_the_same_end_state_on_sqlite_and_postgresql() -> None:
    postgres_url()  # skips (or fails under STOPPA_REQUIRE_POSTGRES=1) without a server
    _same_on_both()
