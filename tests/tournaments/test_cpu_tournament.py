"""A whole sit-and-go of 4 CPU players with the real engine, and a restart mid-level."""

from __future__ import annotations

import json

import pytest

from bot.players import CpuPlayer, make_player
from bot.tournaments import (
    Phase,
    TournamentConfig,
    TournamentState,
    new_tournament,
    next_hand,
    payouts,
    register,
    start,
)
from bot.tournaments.offline import play_one, play_to_the_end

NAMES = ("ada", "bruno", "carla", "dario")


def _started(schedule: str, payout: str, buy_in: int = 250) -> TournamentState:
    state = new_tournament(
        TournamentConfig.create(buy_in=buy_in, seats=4, schedule=schedule, payout=payout)
    )
    for name in NAMES:
        state = register(state, name)
    return start(state, seed=21)


def _cpus(seed: int) -> dict[str, CpuPlayer]:
    return {name: make_player("easy", seed=seed + i) for i, name in enumerate(NAMES)}


@pytest.mark.slow
def test_four_cpus_play_to_the_end_and_the_pool_is_paid_exactly() -> None:
    state = _started("turbo", "65_35", buy_in=333)
    total = sum(state.stacks)
    final, outcomes = play_to_the_end(state, _cpus(5), seed=100)
    assert final.phase is Phase.FINISHED
    for outcome in outcomes:  # tournament chips are only moved, never created or lost
        assert sum(outcome.state.stacks) == total
    assert sorted(p.place for p in final.places) == [1, 2, 3, 4]
    prizes = payouts(final)
    assert sum(prizes.values()) == final.prize_pool == 4 * 333
    # 65% of 1332 is 865.8 and 35% is 466.2: rounded down, the odd chip goes to the winner
    winner = next(p.player for p in final.places if p.place == 1)
    second = next(p.player for p in final.places if p.place == 2)
    assert prizes == {winner: 866, second: 466}


@pytest.mark.slow
def test_a_json_round_trip_mid_level_resumes_identically() -> None:
    state = _started("regular", "winner_takes_all")
    players = _cpus(9)
    k = state.config.schedule.hands_per_level
    while not (state.level >= 1 and state.hands_played % k):
        state = play_one(state, players, seed=state.hands_played).state
    assert state.phase is Phase.RUNNING and state.hands_played % k  # mid-level
    restored = TournamentState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert restored == state
    assert next_hand(restored) == next_hand(state)
    # the same CPUs (fresh, same seeds) continue from each copy: the same tournament follows
    first, _ = play_to_the_end(state, _cpus(50), seed=700)
    second, _ = play_to_the_end(restored, _cpus(50), seed=700)
    assert first == second
    assert sum(payouts(first).values()) == first.prize_pool
