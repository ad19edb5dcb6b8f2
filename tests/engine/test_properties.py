"""Property tests over random complete hands (R-2, R-8..R-13, R-15)."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import (
    Bet,
    Call,
    Card,
    Concede,
    Declare,
    Hand,
    IllegalAction,
    Pass,
    Play,
    Raise,
    Rules,
)
from bot.engine.events import Event
from bot.engine.rules import VARIANTS
from tests.engine.behaviour_hash import view as json_view

rules_strategy = st.builds(
    Rules,
    players=st.sampled_from([3, 4, 5, 6]),
    ante=st.sampled_from([60, 100]),
    small_point=st.sampled_from([5, 10]),
    cip=st.sampled_from([5, 10, 25]),
    max_bet=st.sampled_from([50, 200]),
    card_rate=st.sampled_from([5, 10]),
    cards_per_payment=st.sampled_from([1, 2, 3]),
    three_players=st.sampled_from(VARIANTS["three_players"]),
    ranking=st.sampled_from(VARIANTS["ranking"]),
    unclaimed_big_pot=st.sampled_from(VARIANTS["unclaimed_big_pot"]),
    blocked_stoppa=st.sampled_from(VARIANTS["blocked_stoppa"]),
    special_payout=st.sampled_from(VARIANTS["special_payout"]),
    three_aces_jump=st.booleans(),
    removed_suit=st.sampled_from(VARIANTS["removed_suit"]),
)

MAX_ACTIONS = 400  # bounded: a hand always ends well before this


def random_action(h: Hand, rng: random.Random) -> tuple[int, object]:
    seat = h.to_act
    assert seat is not None
    acts = h.legal_actions()
    assert acts, "a seat to act always has a choice"
    a = rng.choice(acts)
    if isinstance(a, Bet | Raise):
        rng_ = h.bet_range(seat)
        assert rng_ is not None
        v = rng.randint(*rng_)
        a = Bet(v) if isinstance(a, Bet) else Raise(v)
    return seat, a


def illegal_candidates(h: Hand, rng: random.Random) -> list[tuple[int, object]]:
    seat = h.to_act
    assert seat is not None
    other = (seat + 1 + rng.randrange(h.n - 1)) % h.n
    out: list[tuple[int, object]] = [(other, h.legal_actions()[0])]
    not_held = [c for c in h.rules.deck() if c not in h.cards(seat)]
    if h.phase in ("small_point", "big_point"):
        rng_ = h.bet_range(seat)
        if rng_ is not None:
            out += [(seat, Bet(rng_[1] + 1)), (seat, Raise(rng_[1] + 1))]
            out += [(seat, Bet(rng_[0] - 1)), (seat, Raise(rng_[0] - 1))]
        else:
            out += [(seat, Raise(10_000)), (seat, Bet(10_000))]
        out += [(seat, Play((h.cards(seat)[0],))), (seat, Concede())]
    elif h.phase == "showdown":
        out += [(seat, Declare((not_held[0],))), (seat, Call()), (seat, Bet(10))]
    else:
        out += [(seat, Play((not_held[0],))), (seat, Pass()), (seat, Declare(()))]
    return out


def play_hand(rules: Rules, seed: int, *, check_illegal: bool, round_trip: bool) -> Hand:
    rng = random.Random(seed)
    n = rules.players
    chips = [rng.choice([rules.ante, rules.ante + 7, 150, 400, 2000]) for _ in range(n)]
    carry = rng.choice([0, 0, 35])
    h = Hand.start(rules, chips, rng.randrange(n), seed=seed, carry=carry)
    total = sum(chips) + carry
    deck_size = len(rules.deck())
    steps = 0
    while h.to_act is not None:
        assert sum(h.chips) + h.pot_total() + h.carry_out == total
        assert all(c >= 0 for c in h.chips)
        assert h.phase in ("small_point", "big_point", "showdown", "stoppa")
        for a in h.legal_actions():
            assert h.can(h.to_act, a), a
        rng_ = h.bet_range(h.to_act)
        if rng_ is not None:
            lo, hi = rng_
            assert lo <= hi
        if check_illegal:
            before = h.to_json()
            for seat, bad in illegal_candidates(h, rng):
                assert not h.can(seat, bad), (seat, bad)  # type: ignore[arg-type]
                try:
                    h.act(seat, bad)  # type: ignore[arg-type]
                except IllegalAction as err:
                    assert err.code and str(err)
                else:
                    raise AssertionError(f"accepted illegal {bad} by {seat}")
                assert h.to_json() == before
        seat, action = random_action(h, rng)
        h.act(seat, action)  # type: ignore[arg-type]
        steps += 1
        assert steps < MAX_ACTIONS
        if round_trip:
            copy = Hand.from_json(h.to_json())
            assert copy.to_json() == h.to_json()
            assert json_view(copy, seat) == json_view(h, seat)
    assert h.phase == "over"
    assert h.result is not None
    assert sum(h.chips) + h.carry_out == total
    assert h.pot_total() == 0
    assert sum(h.result) == carry - h.carry_out
    assert all(r == h.chips[s] - chips[s] for s, r in enumerate(h.result))
    # cards conserved: in hands or on the stoppa table, each exactly once
    held = [c for s in range(n) for c in h.cards(s)]
    table = [c for play in (h.stoppa.table if h.stoppa else []) for c in play]
    assert len(held) + len(table) == deck_size
    assert sorted(held + table) == sorted(rules.deck())
    return h


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rules_strategy, seed=st.integers(0, 2**32))
def test_R15_random_hands_conserve_chips_and_cards_and_end(rules: Rules, seed: int) -> None:
    play_hand(rules, seed, check_illegal=False, round_trip=False)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rules_strategy, seed=st.integers(0, 2**32))
def test_R15_illegal_actions_refused_and_change_nothing(rules: Rules, seed: int) -> None:
    play_hand(rules, seed, check_illegal=True, round_trip=False)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rules_strategy, seed=st.integers(0, 2**32))
def test_json_round_trip_at_every_step(rules: Rules, seed: int) -> None:
    play_hand(rules, seed, check_illegal=False, round_trip=True)


def test_R15_thousands_of_default_hands() -> None:
    """2,000 hands with the default rules and 3-6 players, random legal play."""
    for i in range(2000):
        play_hand(Rules(players=3 + i % 4), i, check_illegal=False, round_trip=False)


@settings(max_examples=60, deadline=None)
@given(rules=rules_strategy, seed=st.integers(0, 2**32))
def test_every_event_survives_its_json_form(rules: Rules, seed: int) -> None:
    """Typed events read back from their stored JSON equal, and write the same JSON again
    (old hand records, replays and fairness proofs stay readable)."""
    rng = random.Random(seed)
    h = Hand.start(rules, [1000] * rules.players, rng.randrange(rules.players), seed=seed)
    while h.to_act is not None:
        seat, action = random_action(h, rng)
        h.act(seat, action)  # type: ignore[arg-type]
    stored = json.loads(json.dumps([e.to_dict() for e in h.events]))
    read = [Event.from_dict(d) for d in stored]
    assert read == h.events
    assert [e.to_dict() for e in read] == stored
    assert all(set(d) == {"kind", "seat", "data"} for d in stored)


@settings(max_examples=60, deadline=None)
@given(rules=rules_strategy, seed=st.integers(0, 2**32))
def test_views_are_private_and_json_able(rules: Rules, seed: int) -> None:
    rng = random.Random(seed)
    h = Hand.start(rules, [1000] * rules.players, rng.randrange(rules.players), seed=seed)
    while h.to_act is not None:
        for seat in range(h.n):
            v = json.loads(json.dumps(json_view(h, seat)))
            assert v["hand"] == [c.code for c in h.cards(seat)]
            assert v["card_counts"] == [h.card_count(s) for s in range(h.n)]
            for e in v["events"]:
                assert e["kind"] != "deal" or e["seat"] == seat
            assert (v["legal"] != []) == (seat == h.to_act)
        seat, action = random_action(h, rng)
        h.act(seat, action)  # type: ignore[arg-type]
    assert all(not e.private for e in h.public_events())


def test_replaying_the_actions_rebuilds_the_hand() -> None:
    h = play_hand(Rules(players=5), 7, check_illegal=False, round_trip=False)
    again = Hand.replay(h.rules, h.start_chips, h.dealer, h.deck, h.actions, carry=h.carry_in)
    assert again.events == h.events
    assert again.result == h.result


def test_corrupt_record_refused() -> None:
    h = Hand.start(Rules(), [1000] * 4, 0, seed=3)
    d = json.loads(h.to_json())
    d["state"]["chips"][0] += 1
    try:
        Hand.from_json(json.dumps(d))
    except ValueError as err:
        assert "does not match" in str(err)
    else:
        raise AssertionError("corrupt record accepted")
    assert Card.parse("7d") in Hand.from_json(h.to_json()).deck
