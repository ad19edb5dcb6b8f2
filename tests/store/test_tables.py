"""Tables: rows, optimistic versions, chip moves through the escrow, closing with refunds,
hand history, statistics and leaderboards."""

from __future__ import annotations

import pytest

from bot.store import (
    DEFAULT_STAKES,
    HandRecord,
    InsufficientFunds,
    LeaderRow,
    Move,
    PlayerStats,
    Store,
    StoreError,
    TableExists,
    TableNotFound,
    VersionConflict,
)
from bot.store.models import TableSave

from .conftest import GUILD, OTHER_GUILD

ANTES = [Move(1, 60, "ante", 1), Move(2, 60, "ante", 1), Move(-1, 60, "ante", 1)]


async def test_create_and_find_tables(store: Store) -> None:
    row = await store.create_table(
        GUILD, 10, settings=DEFAULT_STAKES.to_dict(), seats=[1, 2], meta={"a": 1}
    )
    assert (row.status, row.version, row.seats, row.meta, row.escrow) == (
        "lobby",
        0,
        [1, 2],
        {"a": 1},
        0,
    )
    assert row.settings == DEFAULT_STAKES.to_dict()
    assert await store.get_table(row.id) == row
    assert await store.table_in_channel(10) == row
    assert await store.table_in_channel(11) is None
    assert await store.table_of_user(GUILD, 2) == row
    assert await store.table_of_user(GUILD, 3) is None
    assert await store.table_of_user(OTHER_GUILD, 2) is None
    with pytest.raises(TableExists) as info:
        await store.create_table(GUILD, 10, settings={})
    assert info.value.table_id == row.id
    with pytest.raises(TableNotFound):
        await store.get_table(row.id + 100)
    # once closed, the channel is free again and the closed table is no longer "open"
    await store.close_table(row.id, expected_version=0)
    assert await store.table_in_channel(10) is None
    assert await store.table_of_user(GUILD, 2) is None
    second = await store.create_table(GUILD, 10, settings={})
    assert second.id != row.id
    assert await store.load_open_tables() == [second]


async def test_save_changes_only_given_fields_and_bumps_version(store: Store) -> None:
    row = await store.create_table(GUILD, 10, settings={}, seats=[1, 2, 3])
    saved = await store.save_table(
        row.id,
        TableSave(0, status="playing", state='{"s":1}', deadline=99.5, dealer=2),
    )
    assert (saved.version, saved.status, saved.state, saved.deadline, saved.dealer) == (
        1, "playing", '{"s":1}', 99.5, 2,
    )  # fmt: skip
    assert (saved.seats, saved.meta, saved.message_id) == ([1, 2, 3], {}, None)
    saved = await store.save_table(row.id, TableSave(1, message_id=555, deadline=None))
    assert (saved.version, saved.message_id, saved.deadline, saved.state) == (
        2,
        555,
        None,
        '{"s":1}',
    )
    assert await store.get_table(row.id) == saved
    with pytest.raises(VersionConflict) as info:
        await store.save_table(row.id, TableSave(1, state="stale"))
    assert (info.value.expected, info.value.actual) == (1, 2)
    assert (await store.get_table(row.id)).state == '{"s":1}'
    with pytest.raises(TableNotFound):
        await store.save_table(row.id + 1, TableSave(0))


async def test_moves_go_through_the_escrow(store: Store) -> None:
    row = await store.create_table(GUILD, 10, settings={}, seats=[1, 2, -1])
    row = await store.save_table(row.id, TableSave(0, status="playing", moves=ANTES))
    assert row.escrow == await store.escrow(row.id) == 180
    assert await store.balances(GUILD, [1, 2, -1]) == {1: 940, 2: 940, -1: 940}
    assert await store.total_chips(GUILD) == (2820, 180, 3000)
    # a payout listed before the payment that funds it still works: the action is applied whole
    row = await store.save_table(
        row.id,
        TableSave(1, moves=[Move(1, -230, "pot", 1), Move(2, 50, "bet", 1)]),
    )
    assert row.escrow == 0
    assert await store.balances(GUILD, [1, 2]) == {1: 1170, 2: 890}
    rows = await store.query(
        "SELECT src_kind, src_id, dst_kind, dst_id, amount, reason, hand_no, table_id"
        " FROM ledger WHERE table_id = ? ORDER BY id",
        (row.id,),
    )
    assert [tuple(r) for r in rows][-2:] == [  # the ledger keeps the order given
        ("table", row.id, "user", 1, 230, "pot", 1, row.id),
        ("user", 2, "table", row.id, 50, "bet", 1, row.id),
    ]


async def test_failed_move_rolls_back_the_whole_action(store: Store) -> None:
    row = await store.create_table(GUILD, 10, settings={}, seats=[1, 2])
    await store.grant(GUILD, 2, -990, reason="poor", by=0)
    with pytest.raises(InsufficientFunds):
        await store.save_table(
            row.id,
            TableSave(0, state="after", moves=[Move(1, 60, "ante", 1), Move(2, 60, "ante", 1)]),
        )
    after = await store.get_table(row.id)
    assert (after.version, after.state, after.escrow) == (0, None, 0)
    assert await store.balances(GUILD, [1, 2]) == {1: 1000, 2: 10}
    with pytest.raises(StoreError) as info:  # paying out more than the escrow holds
        await store.save_table(row.id, TableSave(0, moves=[Move(1, -1, "pot")]))
    assert info.value.code == "escrow_insufficient"
    assert await store.balance(GUILD, 1) == 1000


async def test_close_needs_an_empty_escrow_and_applies_refunds(store: Store) -> None:
    row = await store.create_table(GUILD, 10, settings={}, seats=[1, 2, -1])
    row = await store.save_table(row.id, TableSave(0, moves=ANTES))
    with pytest.raises(StoreError) as info:
        await store.close_table(row.id, expected_version=1, refunds=[Move(1, -60, "refund")])
    assert (info.value.code, info.value.params["escrow"]) == ("escrow_not_empty", 120)
    assert (await store.get_table(row.id)).status == "lobby"
    assert await store.balance(GUILD, 1) == 940
    with pytest.raises(StoreError) as info:
        await store.save_table(row.id, TableSave(1, status="closed"))
    assert info.value.code == "escrow_not_empty"
    refunds = [Move(u, -60, "refund", 1) for u in (1, 2)] + [Move(-1, -60, "carry", 1)]
    closed = await store.close_table(row.id, expected_version=1, refunds=refunds, meta={"why": "x"})
    assert (closed.status, closed.escrow, closed.meta, closed.deadline) == (
        "closed",
        0,
        {"why": "x"},
        None,
    )
    assert await store.balances(GUILD, [1, 2, -1]) == {1: 1000, 2: 1000, -1: 1000}
    with pytest.raises(StoreError) as info:
        await store.save_table(row.id, TableSave(2, state="zombie"))
    assert info.value.code == "table_closed"


async def test_bad_arguments_are_refused_before_any_write(store: Store) -> None:
    row = await store.create_table(GUILD, 10, settings={})
    with pytest.raises(ValueError):
        await store.save_table(row.id, TableSave(0, status="finished"))
    with pytest.raises(ValueError):
        await store.save_table(row.id, TableSave(0, moves=[Move(1, 5, "Bet!")]))
    with pytest.raises(ValueError):
        await store.save_table(row.id, TableSave(0, seats=["alice"]))  # type: ignore[list-item]
    assert (await store.get_table(row.id)).version == 0


def _hand(no: int, result: dict[int, int], winner: int, pot: int, closer: int) -> HandRecord:
    return HandRecord(
        hand_no=no,
        seed=1000 + no,
        events=f'[{{"kind":"hand","no":{no}}}]',
        result=result,
        pots_won={winner: 2},
        closes={closer: 1},
        biggest_pot={winner: pot},
    )


async def test_hand_history_stats_and_leaderboards(store: Store) -> None:
    row = await store.create_table(GUILD, 10, settings={}, seats=[1, 2, -1])
    hands = [
        _hand(1, {1: 120, 2: -60, -1: -60}, winner=1, pot=150, closer=-1),
        _hand(2, {1: -60, 2: -60, -1: 120}, winner=-1, pot=300, closer=2),
        _hand(3, {1: 10, 2: 40, -1: -50}, winner=2, pot=90, closer=2),
    ]
    version = 0
    for hand in hands:
        version = (await store.save_table(row.id, TableSave(version, hand=hand))).version
    history = await store.hand_history(row.id)
    assert [h.hand_no for h in history] == [3, 2, 1]
    assert history[-1].result == {1: 120, 2: -60, -1: -60}
    assert history[-1].seed == 1001 and history[-1].events == hands[0].events
    assert len(await store.hand_history(row.id, limit=2)) == 2
    assert await store.stats(GUILD, 1) == PlayerStats(3, 2, 0, 70, 150, 1000)
    assert await store.stats(GUILD, 2) == PlayerStats(3, 2, 2, -80, 90, 1000)
    assert await store.stats(GUILD, -1) == PlayerStats(3, 2, 1, 10, 300, 1000)
    assert await store.stats(GUILD, 9) == PlayerStats(0, 0, 0, 0, 0, 1000)
    await store.grant(GUILD, 2, 5, reason="tie-break", by=0)
    # CPU players (negative ids) never appear on leaderboards
    assert await store.leaderboard(GUILD, "balance") == [
        LeaderRow(1, 2, 1005, 1005), LeaderRow(2, 1, 1000, 1000), LeaderRow(3, 9, 1000, 1000),
    ]  # fmt: skip
    assert await store.leaderboard(GUILD, "net") == [
        LeaderRow(1, 1, 70, 1000), LeaderRow(2, 2, -80, 1005),
    ]  # fmt: skip
    assert await store.leaderboard(GUILD, "closes", limit=1, offset=0) == [LeaderRow(1, 2, 2, 1005)]
    assert await store.leaderboard(GUILD, "closes", limit=5, offset=1) == [LeaderRow(2, 1, 0, 1000)]
    assert [await store.count_ranked(GUILD, by) for by in ("balance", "net", "closes")] == [3, 2, 2]
    assert await store.leaderboard(OTHER_GUILD, "net") == []
    with pytest.raises(ValueError):
        await store.leaderboard(GUILD, "wins")


async def test_a_players_hands_for_history_and_replays(store: Store) -> None:
    """`player_hands`, `count_player_hands` and `stored_hand` (issue 19) on both backends:
    only the hands the user sat in, of this server, newest first, with seats in order."""
    row = await store.create_table(GUILD, 10, settings={}, seats=[1, 2, -1])
    other = await store.create_table(OTHER_GUILD, 11, settings={}, seats=[1, 3, 4])
    version = 0
    for hand in (
        _hand(1, {1: 120, 2: -60, -1: -60}, winner=1, pot=150, closer=-1),
        _hand(2, {2: 30, -1: -15, 5: -15}, winner=2, pot=60, closer=2),
        _hand(3, {1: 10, 2: 40, -1: -50}, winner=2, pot=90, closer=2),
    ):
        version = (await store.save_table(row.id, TableSave(version, hand=hand))).version
    await store.save_table(
        other.id,
        TableSave(0, hand=_hand(1, {1: 5, 3: -5, 4: 0}, winner=1, pot=5, closer=1)),
    )
    mine = await store.player_hands(GUILD, 1)
    assert [h.hand_no for h in mine] == [3, 1]
    assert mine[0].seats == (1, 2, -1) and mine[0].seat_of(2) == 1 and mine[0].seat_of(7) is None
    assert mine[1].result == {1: 120, 2: -60, -1: -60} and mine[1].channel_id == 10
    assert [h.hand_no for h in await store.player_hands(GUILD, 1, limit=1, offset=1)] == [1]
    assert await store.count_player_hands(GUILD, 1) == 2
    assert await store.count_player_hands(GUILD, 2) == 3
    assert await store.count_player_hands(OTHER_GUILD, 1) == 1
    assert await store.count_player_hands(GUILD, 9) == 0
    found = await store.stored_hand(GUILD, mine[0].id)
    assert found == mine[0]
    assert await store.stored_hand(OTHER_GUILD, mine[0].id) is None  # another server's hand


async def test_same_hand_twice_is_refused_and_rolled_back(store: Store) -> None:
    row = await store.create_table(GUILD, 10, settings={}, seats=[1, 2, 3])
    hand = _hand(1, {1: 10, 2: -5, 3: -5}, winner=1, pot=10, closer=1)
    row = await store.save_table(row.id, TableSave(0, moves=ANTES[:2], hand=hand))
    with pytest.raises(StoreError) as info:
        await store.save_table(row.id, TableSave(1, moves=[Move(3, 60, "ante")], hand=hand))
    assert (info.value.code, info.value.params) == (
        "hand_exists",
        {"table_id": row.id, "hand_no": 1},
    )
    assert (await store.get_table(row.id)).version == 1
    assert await store.balance(GUILD, 3) == 1000
    assert (await store.stats(GUILD, 1)).hands == 1


async def test_leaderboard_pages_cover_everyone_once(store: Store) -> None:
    for user in range(1, 26):
        await store.grant(GUILD, user, user % 7 + 1, reason="seed", by=0)
    total = await store.count_ranked(GUILD, "balance")
    pages = [
        await store.leaderboard(GUILD, "balance", limit=10, offset=o) for o in range(0, total, 10)
    ]
    rows = [r for page in pages for r in page]
    assert [r.rank for r in rows] == list(range(1, 26))
    assert sorted(r.user_id for r in rows) == list(range(1, 26))
    assert [(r.value, -r.user_id) for r in rows] == sorted(
        ((r.value, -r.user_id) for r in rows), reverse=True
    )
