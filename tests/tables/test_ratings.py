"""Ratings after every finished hand (issue 21): written with the hand in one transaction,
humans rated among humans only, CPU pools rated without moving a human's rating."""

from __future__ import annotations

import pytest

from bot.ratings import Rating, Seat, rate_hand
from bot.store import HandRecord, Move
from bot.store.models import TableSave
from bot.tables.ratings import CPU_POOLS, cpu_label, hand_ratings
from tests.tables.helpers import CHANNEL, GUILD, USERS, Harness, TamePlayer, drive


async def replay(h: Harness, humans: tuple[int, ...]) -> dict[int, Rating]:
    """The humans' ratings recomputed from the stored hands, humans among themselves only."""
    hands = sorted(
        {
            hand.id: hand for u in humans for hand in await h.store.player_hands(GUILD, u, 500)
        }.values(),
        key=lambda hand: hand.id,
    )
    ratings: dict[int, Rating] = {}
    for hand in hands:
        seats = [
            Seat(str(u), True, ratings.get(u, Rating()), hand.result[u])
            for u in hand.seats
            if u in humans
        ]
        if len(seats) < 2:
            continue
        for key, rating in rate_hand([*seats, *pad(len(seats))]).items():
            if not key.startswith("pad"):
                ratings[int(key)] = rating
    return ratings


def pad(n: int) -> list[Seat]:
    """CPU seats to reach the three seats a hand has (they never enter a human's update)."""
    return [Seat(f"pad{i}", False, Rating(), 0) for i in range(max(0, 3 - n))]


async def test_two_who_always_win_rise_above_two_who_always_lose_over_100_hands(
    h: Harness,
) -> None:
    table = await h.store.create_table(GUILD, CHANNEL, settings={}, seats=list(USERS))
    winners, losers = USERS[:2], USERS[2:]
    version = table.version
    for hand_no in range(1, 101):
        nets = {u: (10 if u in winners else -10) for u in USERS}
        ratings = await hand_ratings(h.store, GUILD, nets, {})
        record = HandRecord(hand_no, hand_no, "[]", nets, ratings=ratings)
        moves = [Move(u, 10, "ante", hand_no) for u in losers]
        moves += [Move(u, -10, "pot", hand_no) for u in winners]
        version = (
            await h.store.save_table(table.id, TableSave(version, moves=moves, hand=record))
        ).version
    stored = await h.store.ratings(GUILD, USERS)
    got = {u: Rating(r.mu, r.sigma, r.hands) for u, r in stored.items()}
    assert all(got[u].hands == 100 and not got[u].provisional for u in USERS)
    assert min(got[u].points for u in winners) > max(got[u].points for u in losers)
    assert min(got[u].mu for u in winners) > Rating().mu > max(got[u].mu for u in losers)
    board = await h.store.rating_board(GUILD)
    assert {row.user_id for row in board[:2]} == set(winners)
    assert [row.winnings for row in board] == [1000, 1000, -1000, -1000]
    await h.store.close_table(table.id, expected_version=version)


async def test_hands_played_through_the_service_are_rated_with_the_hand(h: Harness) -> None:
    await h.seat_four()
    await h.svc.start_game(GUILD, CHANNEL, USERS[0])
    await drive(h, lambda s: s is not None and s.hand_no >= 5, {u: TamePlayer(u) for u in USERS})
    stored = await h.store.ratings(GUILD, USERS)
    played = (await h.store.stats(GUILD, USERS[0])).hands
    assert played >= 4
    assert all(stored[u].hands == played for u in USERS)
    expected = await replay(h, USERS)
    for u in USERS:
        assert stored[u].mu == pytest.approx(expected[u].mu)
        assert stored[u].sigma == pytest.approx(expected[u].sigma)
    hand_ids = sorted(hand.id for hand in await h.store.player_hands(GUILD, USERS[0], 50))
    assert [p.hand_id for p in await h.store.rating_history(GUILD, USERS[0])] == hand_ids
    net = (await h.store.stats(GUILD, USERS[1])).net
    assert stored[USERS[1]].winnings == net


async def test_cpu_results_never_move_a_human_rating(h: Harness) -> None:
    humans = USERS[:2]
    await h.svc.open_table(GUILD, CHANNEL, humans[0])
    await h.svc.join(GUILD, CHANNEL, humans[1])
    await h.svc.add_cpu(GUILD, CHANNEL, humans[0], "easy")
    await h.svc.add_cpu(GUILD, CHANNEL, humans[0], "hard")
    await h.svc.start_game(GUILD, CHANNEL, humans[0])
    await drive(h, lambda s: s is not None and s.hand_no >= 5, {u: TamePlayer(u) for u in humans})
    stored = await h.store.ratings(GUILD, humans)
    expected = await replay(h, humans)  # the CPUs' nets left out entirely
    assert set(stored) == set(humans)
    for u in humans:
        assert stored[u].mu == pytest.approx(expected[u].mu)
        assert stored[u].sigma == pytest.approx(expected[u].sigma)
    played = (await h.store.stats(GUILD, humans[0])).hands
    easy = await cpu_label(h.store, GUILD, "easy")
    assert easy is not None and easy.hands == played  # the pool is rated: the addbot label
    assert await cpu_label(h.store, GUILD, "random") is None
    assert all(row.user_id > 0 for row in await h.store.rating_board(GUILD))
    assert CPU_POOLS["easy"] not in await h.store.ratings(GUILD, humans)


async def test_a_hand_with_one_human_rates_no_human(h: Harness) -> None:
    human = USERS[0]
    await h.svc.open_table(GUILD, CHANNEL, human)
    for level in ("easy", "expert"):
        await h.svc.add_cpu(GUILD, CHANNEL, human, level)
    await h.svc.start_game(GUILD, CHANNEL, human)
    await drive(h, lambda s: s is not None and s.hand_no >= 3, {human: TamePlayer(1)})
    assert await h.store.ratings(GUILD, [human]) == {}
    expert = await cpu_label(h.store, GUILD, "expert")  # the expert's own pool (issue 37)
    assert expert is not None and expert.hands >= 2
    assert await cpu_label(h.store, GUILD, "hard") is None
