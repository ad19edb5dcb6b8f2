"""The tournament state machine: presets, registration, eliminations, places and payouts."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.engine import MAX_PLAYERS, MIN_PLAYERS, Rules
from bot.i18n import SUPPORTED, t
from bot.ratings import RankedError
from bot.tournaments import (
    PAYOUTS,
    SCHEDULES,
    Level,
    Phase,
    Placement,
    TournamentConfig,
    TournamentState,
    after_hand,
    cancel,
    new_tournament,
    next_hand,
    payouts,
    register,
    stakes_for,
    start,
    unregister,
)


def _running(
    seats: int = 4, *, stack: int = 1500, schedule: str = "regular", payout: str = "65_35",
    buy_in: int = 100, dealer_seed: int = 0,
) -> TournamentState:
    config = TournamentConfig.create(
        buy_in=buy_in, seats=seats, starting_stack=stack, schedule=schedule, payout=payout
    )
    state = new_tournament(config)
    for i in range(seats):
        state = register(state, f"p{i}")
    return start(state, seed=dealer_seed)


def _with(state: TournamentState, **changes: object) -> TournamentState:
    d = state.to_dict()
    d.update(changes)
    return TournamentState.from_dict(d)


@pytest.mark.parametrize("name", list(SCHEDULES))
@pytest.mark.parametrize("players", range(MIN_PLAYERS, MAX_PLAYERS + 1))
def test_R4_every_level_of_every_schedule_is_valid_stakes(name: str, players: int) -> None:
    schedule = SCHEDULES[name]
    for index in range(len(schedule.levels) + 3):  # and the doubled levels past the end
        level = schedule.level(index)
        for three in ("king", "suit"):
            rules = level.rules(Rules(three_players=three), players)  # validates R-4
            assert rules.players * rules.ante > len(rules.deals) * rules.small_point
        if index:
            assert level.ante > schedule.level(index - 1).ante


def test_schedules_rise_every_k_hands() -> None:
    state = _running(schedule="turbo")
    k = SCHEDULES["turbo"].hands_per_level
    assert stakes_for(state) == SCHEDULES["turbo"].levels[0]
    assert stakes_for(_with(state, hands_played=k - 1)) == SCHEDULES["turbo"].levels[0]
    assert stakes_for(_with(state, hands_played=k)) == SCHEDULES["turbo"].levels[1]
    last = SCHEDULES["turbo"].levels[-1]
    past = stakes_for(_with(state, hands_played=k * len(SCHEDULES["turbo"].levels)))
    assert past == Level(*(2 * v for v in last.to_list()))


@pytest.mark.parametrize(
    ("changes", "key"),
    [
        ({"buy_in": -1}, "ranked.tournament_bad_buy_in"),
        ({"buy_in": True}, "ranked.tournament_bad_buy_in"),
        ({"seats": 2}, "ranked.tournament_bad_seats"),
        ({"seats": 7}, "ranked.tournament_bad_seats"),
        ({"starting_stack": 599}, "ranked.tournament_bad_stack"),
        ({"schedule": "blitz"}, "ranked.tournament_bad_schedule"),
        ({"payout": "all_to_me"}, "ranked.tournament_bad_payout"),
        ({"hands_per_level": 0}, "ranked.tournament_bad_level_hands"),
        ({"seats": 3, "payout": "50_30_20"}, "ranked.tournament_payout_seats"),
    ],
)
def test_bad_settings_are_refused_politely(changes: dict[str, object], key: str) -> None:
    settings: dict[str, object] = {"buy_in": 100, "seats": 4} | changes
    with pytest.raises(RankedError) as err:
        TournamentConfig.create(**settings)  # type: ignore[arg-type]
    assert err.value.key == key
    for lang in SUPPORTED:
        text = t(err.value.key, lang, **err.value.params)
        assert text != key and "{" not in text


def test_registration_unregistration_and_refunds_before_the_start() -> None:
    state = new_tournament(TournamentConfig.create(buy_in=50, seats=3))
    state = register(register(state, "ada"), "bruno")
    with pytest.raises(RankedError, match="already_registered"):
        register(state, "ada")
    with pytest.raises(RankedError, match="not_full"):
        start(state)
    state = unregister(state, "ada")
    assert state.players == ("bruno",)
    with pytest.raises(RankedError, match="not_registered"):
        unregister(state, "ada")
    state = register(register(state, "carla"), "dario")
    with pytest.raises(RankedError, match="full"):
        register(state, "ada")
    gone, refunds = cancel(state)
    assert gone.phase is Phase.CANCELLED
    assert refunds == {"bruno": 50, "carla": 50, "dario": 50}
    with pytest.raises(RankedError, match="not_registering"):
        register(gone, "ada")
    running = start(state, seed=3)
    assert running.stacks == (1500, 1500, 1500)
    assert running.prize_pool == 150
    with pytest.raises(RankedError, match="not_registering"):
        cancel(running)
    with pytest.raises(RankedError, match="not_finished"):
        payouts(running)


def test_R5_a_player_who_cannot_pay_the_next_ante_is_out_and_places_count_down() -> None:
    state = _with(_running(5), dealer=0)
    hand = next_hand(state)
    assert hand.players == ("p0", "p1", "p2", "p3", "p4") and hand.dealer == 0
    outcome = after_hand(state, {"p0": 1500, "p1": 59, "p2": 2941, "p3": 1500, "p4": 1500})
    assert outcome.eliminated == (Placement("p1", 5, 1),)
    assert outcome.state.alive == ("p0", "p2", "p3", "p4")
    assert outcome.state.dealer == 2  # the deal passes to the next seat still in
    assert next_hand(outcome.state).dealer == 1  # p2 is engine seat 1 of the next hand
    assert outcome.level_up is None and not outcome.finished


def test_simultaneous_eliminations_rank_by_stack_at_the_start_then_priority() -> None:
    state = _with(_running(6), dealer=3, stacks=[1000, 1000, 1000, 2000, 1000, 3000])
    # p3 (2000 at the start) places above p0 and p4 (1000 each) though p3 dealt (the lowest
    # priority); between p4 and p0 seat priority decides: p4 is the eldest hand, then p5, p0
    after = {"p0": 0, "p1": 1000, "p2": 1000, "p3": 10, "p4": 0, "p5": 6990}
    outcome = after_hand(state, after)
    assert outcome.eliminated == (
        Placement("p3", 4, 1), Placement("p4", 5, 1), Placement("p0", 6, 1),
    )
    assert [p.place for p in outcome.state.places] == [6, 5, 4]


def test_fewer_than_three_left_ends_it_with_the_stack_leaders_first() -> None:
    state = _with(_running(4), dealer=3, stacks=[1500, 1500, 1500, 1500])
    outcome = after_hand(state, {"p0": 30, "p1": 2965, "p2": 2965, "p3": 40})
    assert outcome.finished and outcome.state.alive == ()
    # the two left can pay the ante but a hand needs three: they take places 1 and 2 by
    # stack; p1 and p2 tie on 2965 and so do p0 and p3 on their 1500 at the start: dealer p3,
    # so p0 is the eldest hand, then p1, p2, p3
    assert outcome.eliminated == (
        Placement("p1", 1, 1), Placement("p2", 2, 1), Placement("p0", 3, 1),
        Placement("p3", 4, 1),
    )
    assert payouts(outcome.state) == {"p1": 260, "p2": 140}
    with pytest.raises(RankedError, match="not_running"):
        next_hand(outcome.state)


def test_a_level_up_is_announced_with_the_new_stakes() -> None:
    k = SCHEDULES["regular"].hands_per_level
    state = _with(_running(3), hands_played=k - 1)
    outcome = after_hand(state, {"p0": 1500, "p1": 1500, "p2": 1500})
    assert outcome.level_up is not None
    assert outcome.level_up.level == 1 and outcome.level_up.stakes == SCHEDULES["regular"].levels[1]
    assert after_hand(outcome.state, {"p0": 1500, "p1": 1500, "p2": 1500}).level_up is None


def test_the_level_up_ante_is_the_one_that_eliminates() -> None:
    k = SCHEDULES["regular"].hands_per_level
    state = _with(_running(4), hands_played=k - 1)  # the next hand is at level 2: ante 90
    outcome = after_hand(state, {"p0": 80, "p1": 1500, "p2": 2920, "p3": 1500})
    assert [p.player for p in outcome.eliminated] == ["p0"]


@pytest.mark.parametrize(
    "stacks",
    [
        {"p0": 1500, "p1": 1500, "p2": 1500},
        {"p0": 1500, "p1": 1500, "p2": 1500, "p3": 1501},
        {"p0": 1500, "p1": 1500, "p2": 3000, "p3": -1500},
        {"p0": 1500, "p1": 1500, "p2": 1500, "p3": 1500, "p9": 0},
    ],
    ids=["missing", "created", "negative", "stranger"],
)
def test_after_hand_refuses_stacks_that_break_chip_conservation(stacks: dict[str, int]) -> None:
    with pytest.raises(ValueError):
        after_hand(_running(4), stacks)


@given(
    buy_in=st.integers(min_value=0, max_value=10**9),
    seats=st.integers(min_value=MIN_PLAYERS, max_value=MAX_PLAYERS),
    payout=st.sampled_from(sorted(PAYOUTS)),
    losses=st.lists(st.integers(min_value=0, max_value=5), min_size=6, max_size=6),
)
def test_payouts_pay_exactly_the_pool_by_place(
    buy_in: int, seats: int, payout: str, losses: list[int]
) -> None:
    """Whatever the buy-in, seats and preset, the prizes sum to the pool (no chip created or
    lost), better places never get less, and only the top places are paid."""
    if len(PAYOUTS[payout].percents) >= seats:
        return
    state = _running(seats, buy_in=buy_in, payout=payout)
    stacks = dict(zip(state.players, state.stacks, strict=True))
    # move chips so that some players drop below the ante, until the tournament ends
    while state.phase is Phase.RUNNING:
        alive = list(state.alive)
        taker = alive[losses[state.hands_played % 6] % len(alive)]
        loser = alive[(alive.index(taker) + 1) % len(alive)]
        stacks[taker] += stacks[loser]
        stacks[loser] = 0
        state = after_hand(state, {p: stacks[p] for p in alive}).state
    prizes = payouts(state)
    assert sum(prizes.values()) == state.prize_pool == buy_in * seats
    by_place = sorted((state.place_of(p) or 0, amount) for p, amount in prizes.items())
    assert [place for place, _ in by_place] == list(range(1, len(prizes) + 1))
    amounts = [amount for _, amount in by_place]
    assert amounts == sorted(amounts, reverse=True)
    # the remainder rule: each place its share rounded down, the odd chips to the winner
    floors = [buy_in * seats * pct // 100 for pct in PAYOUTS[payout].percents]
    assert amounts[1:] == floors[1:]
    assert 0 <= amounts[0] - floors[0] < len(floors)


@given(
    seats=st.integers(min_value=MIN_PLAYERS, max_value=MAX_PLAYERS),
    hands=st.integers(min_value=0, max_value=40),
    dealer_seed=st.integers(min_value=0, max_value=1000),
)
def test_state_round_trips_through_json(seats: int, hands: int, dealer_seed: int) -> None:
    state = _with(_running(seats, dealer_seed=dealer_seed, payout="winner_takes_all"),
                  hands_played=hands)
    first = state.players[0]
    stacks = dict(zip(state.players, state.stacks, strict=True))
    stacks[state.players[1]] += stacks[first]
    stacks[first] = 0
    state = after_hand(state, stacks).state
    again = TournamentState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert again == state
    assert again.level == state.level and again.alive == state.alive


def test_each_schedule_suggests_its_starting_stack_and_the_opener_may_choose() -> None:
    assert [TournamentConfig.create(buy_in=1, seats=3, schedule=name).starting_stack
            for name in ("turbo", "regular", "slow")] == [1000, 1500, 3000]
    assert TournamentConfig.create(buy_in=1, seats=3, starting_stack=2000).starting_stack == 2000
    for schedule in SCHEDULES.values():  # every suggestion passes the config's own check
        assert schedule.stack >= 10 * schedule.level(0).ante
