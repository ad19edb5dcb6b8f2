"""Ratings and seasons (issue 21) on both backends: a hand's ratings in one transaction with
a history point each, boards by mu - 3 sigma without CPU players, a new season freezes the
standings and starts empty without touching balances."""

from __future__ import annotations

import pytest

from bot.store import HandRecord, InvalidName, Move, RatingUpdate, StoreContract, StoreError
from bot.store.models import TableSave

from .conftest import GUILD, OTHER_GUILD

T0 = 3_000_000.0


async def test_record_and_read_ratings_with_history(store: StoreContract) -> None:
    assert await store.record_ratings(
        GUILD, [RatingUpdate(1, 27.0, 7.0, 1, 40), RatingUpdate(2, 23.0, 7.5, 1, -40)], now=T0
    ) == 1
    await store.record_ratings(GUILD, [RatingUpdate(1, 28.5, 6.0, 2, 15)], now=T0 + 60)
    got = await store.ratings(GUILD, [1, 2, 3])
    assert set(got) == {1, 2}  # never rated: left out
    assert (got[1].mu, got[1].sigma, got[1].hands, got[1].winnings) == (28.5, 6.0, 2, 55)
    assert await store.ratings(OTHER_GUILD, [1]) == {}
    trend = await store.rating_history(GUILD, 1)
    assert [(p.at, p.mu, p.sigma) for p in trend] == [(T0, 27.0, 7.0), (T0 + 60, 28.5, 6.0)]
    assert [p.mu for p in await store.rating_history(GUILD, 1, limit=1)] == [28.5]


async def test_history_points_name_the_hand(store: StoreContract) -> None:
    table = await store.create_table(GUILD, 1, settings={}, seats=[1, 2])
    await store.save_table(
        table.id,
        TableSave(
            0,
            hand=HandRecord(1, 7, "[]", {1: 5, 2: -5}),
            moves=[Move(1, 5, "ante", 1), Move(1, -5, "pot", 1)],
        ),
    )
    hand = (await store.player_hands(GUILD, 1))[0]
    await store.record_ratings(GUILD, [RatingUpdate(1, 26.0, 8.0, 1)], hand_id=hand.id)
    assert [p.hand_id for p in await store.rating_history(GUILD, 1)] == [hand.id]


async def test_bad_updates_refused_and_nothing_stored(store: StoreContract) -> None:
    for bad in (
        [RatingUpdate(1, float("nan"), 1.0, 1)],
        [RatingUpdate(1, 25.0, 0.0, 1)],
        [RatingUpdate(1, 25.0, 1.0, -1)],
        [RatingUpdate(1, 25.0, 1.0, 1), RatingUpdate(1, 24.0, 1.0, 1)],
    ):
        with pytest.raises(ValueError):
            await store.record_ratings(GUILD, bad)
    assert await store.ratings(GUILD, [1]) == {}


async def test_board_ranks_by_conservative_rating_without_cpu(store: StoreContract) -> None:
    await store.record_ratings(
        GUILD,
        [
            RatingUpdate(1, 30.0, 8.0, 3),  # 6.0
            RatingUpdate(2, 25.0, 2.0, 40),  # 19.0
            RatingUpdate(3, 20.0, 1.0, 90),  # 17.0
            RatingUpdate(-1, 50.0, 1.0, 99),  # a CPU: stored, never ranked
        ],
    )
    board = await store.rating_board(GUILD)
    assert [(r.rank, r.user_id) for r in board] == [(1, 2), (2, 3), (3, 1)]
    page = await store.rating_board(GUILD, limit=1, offset=1)
    assert [(r.rank, r.user_id, r.hands) for r in page] == [(2, 3, 90)]
    assert await store.count_rated(GUILD) == 3
    assert set(await store.ratings(GUILD, [-1])) == {-1}


async def test_new_season_freezes_standings_and_starts_empty(store: StoreContract) -> None:
    await store.grant(GUILD, 1, 500, reason="prize", by=0)
    await store.record_ratings(
        GUILD, [RatingUpdate(1, 30.0, 2.0, 5, 300), RatingUpdate(2, 26.0, 2.0, 5, -300)], now=T0
    )
    season = await store.new_season(GUILD, "  Spring  ", now=T0 + 100)
    assert (season.id, season.name, season.started_at, season.ended_at) == (
        2,
        "Spring",
        T0 + 100,
        None,
    )
    assert await store.current_season(GUILD) == 2
    assert await store.rating_board(GUILD) == [] and await store.ratings(GUILD, [1, 2]) == {}
    frozen = await store.rating_board(GUILD, season=1)
    assert [(r.rank, r.user_id, r.winnings) for r in frozen] == [(1, 1, 300), (2, 2, -300)]
    assert await store.count_rated(GUILD, season=1) == 2
    assert await store.balance(GUILD, 1) == 1500  # balances untouched
    await store.record_ratings(GUILD, [RatingUpdate(2, 25.0, 8.0, 1, 10)], now=T0 + 200)
    assert [r.user_id for r in await store.rating_board(GUILD)] == [2]
    assert [r.user_id for r in await store.rating_board(GUILD, season=1)] == [1, 2]  # frozen
    seasons = await store.seasons(GUILD)
    assert [(s.id, s.name, s.started_at, s.ended_at) for s in seasons] == [
        (1, None, T0, T0 + 100),
        (2, "Spring", T0 + 100, None),
    ]
    other = await store.seasons(OTHER_GUILD)
    assert [(s.id, s.ended_at) for s in other] == [(1, None)]


async def test_season_name_validated(store: StoreContract) -> None:
    for bad in ("", "   ", "x" * 65, "a\nb"):
        with pytest.raises(InvalidName) as refused:
            await store.new_season(GUILD, bad)
        assert refused.value.message("it")
    assert await store.current_season(GUILD) == 1


async def test_hand_record_carries_its_ratings_in_one_transaction(store: StoreContract) -> None:
    table = await store.create_table(GUILD, 1, settings={}, seats=[1, 2])
    hand = HandRecord(
        1, 7, "[]", {1: 5, 2: -5},
        ratings=(RatingUpdate(1, 26.0, 8.0, 1, 5), RatingUpdate(2, 24.0, 8.0, 1, -5)),
    )
    await store.save_table(
        table.id,
        TableSave(0, hand=hand, moves=[Move(1, 5, "ante", 1), Move(1, -5, "pot", 1)]),
    )
    stored = (await store.player_hands(GUILD, 1))[0]
    got = await store.ratings(GUILD, [1, 2])
    assert (got[1].mu, got[1].winnings, got[2].mu, got[2].winnings) == (26.0, 5, 24.0, -5)
    assert [p.hand_id for p in await store.rating_history(GUILD, 2)] == [stored.id]
    # the same hand again is refused as a whole: its ratings are not counted twice
    with pytest.raises(StoreError):  # "hand_exists": the whole save rolls back
        await store.save_table(table.id, TableSave(1, hand=hand))
    assert (await store.ratings(GUILD, [1]))[1].winnings == 5
    assert len(await store.rating_history(GUILD, 1)) == 1
    # a bad rating refuses the whole save: no hand, no move
    bad = HandRecord(2, 8, "[]", {1: 1}, ratings=(RatingUpdate(1, 25.0, 0.0, 2),))
    with pytest.raises(ValueError):
        await store.save_table(table.id, TableSave(1, hand=bad))
    assert len(await store.player_hands(GUILD, 1)) == 1


async def test_ratings_of_a_hand_that_straddles_a_new_season_are_dropped(
    store: StoreContract,
) -> None:
    table = await store.create_table(GUILD, 1, settings={}, seats=[1, 2])
    rated_in = await store.current_season(GUILD)
    await store.new_season(GUILD, "Spring")  # starts while the hand is being saved
    hand = HandRecord(
        1, 7, "[]", {1: 5, 2: -5},
        ratings=(RatingUpdate(1, 40.0, 2.0, 90, 5), RatingUpdate(2, 10.0, 2.0, 90, -5)),
        ratings_season=rated_in,
    )
    await store.save_table(
        table.id,
        TableSave(0, hand=hand, moves=[Move(1, 5, "ante", 1), Move(1, -5, "pot", 1)]),
    )
    assert len(await store.player_hands(GUILD, 1)) == 1  # the hand itself is kept
    assert await store.ratings(GUILD, [1, 2]) == {}  # the new season starts clean
    again = HandRecord(
        2, 8, "[]", {1: 5, 2: -5}, ratings=hand.ratings,
        ratings_season=await store.current_season(GUILD),
    )
    await store.save_table(table.id, TableSave(1, hand=again))
    assert set(await store.ratings(GUILD, [1, 2])) == {1, 2}
