"""The typed seat view (``Hand.seat_view``), the one ``verify``/``can``/``act`` path, and the
game facts the engine exposes for the outer rings (R-1, R-2, R-7, R-8, R-12)."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    PRIMIERA,
    Bet,
    Call,
    Card,
    Hand,
    IllegalAction,
    Pass,
    Play,
    Raise,
    Rules,
    SeatView,
    best_point,
    next_live_rank,
    parse_cards,
)
from tests.engine.behaviour_hash import view as json_view

from .util import pass_all_betting, start

HANDS = {
    0: "7d 6d 1d 2c 3c 4c 5s 4s 3s 8b",
    1: "8c 9c 2s 6c 7c 1c 2b 3b 4b 9b",
}


def test_R1_R2_game_facts_are_public() -> None:
    assert PRIMIERA[7] == 21 and PRIMIERA[1] == 16 and PRIMIERA[10] == 10
    assert (MIN_PLAYERS, MAX_PLAYERS) == (3, 6)
    with pytest.raises(ValueError, match="3 to 6"):
        Rules(players=MAX_PLAYERS + 1)
    assert Card.parse("10c").rank == 10


def test_R12_next_live_rank_skips_exhausted_ranks_and_ends_at_the_closer() -> None:
    live = [0, 4, 4, 4, 4, 4, 0, 4, 4, 4, 0, 1]  # no 6 and no king left; index 11: sentinel
    assert next_live_rank(live, 5) == 7
    assert next_live_rank(live, 1) == 2
    assert next_live_rank(live, 9) is None  # the knight is the closer


def test_R7_seat_view_best_point_of_the_eligible_cards() -> None:
    h = start(Rules(), HANDS)
    v = h.seat_view(0)
    assert isinstance(v, SeatView)
    assert v.eligible == tuple(sorted(parse_cards("7d 6d 1d")))
    assert v.best_point is not None and v.best_point.total == 55
    pass_all_betting(h)
    v = h.seat_view(0)
    assert v.phase in ("stoppa", "over") and v.best_point is None and v.eligible == ()


def test_R7_seat_view_best_point_of_the_big_point_is_of_the_whole_hand() -> None:
    h = start(Rules(), HANDS)
    while h.deal_no is not None:
        assert h.to_act is not None
        h.act(h.to_act, Pass())
    assert h.phase == "big_point"
    v = h.seat_view(1)
    assert v.eligible == tuple(sorted(parse_cards(HANDS[1])))
    assert v.best_point == best_point(parse_cards(HANDS[1]))


def test_R8_seat_view_legal_actions_with_the_bet_range_on_the_seats_turn_only() -> None:
    h = start(Rules(), HANDS)
    mine, other, spectator = h.seat_view(0), h.seat_view(1), h.seat_view(None)
    assert mine.your_turn and mine.legal == (Pass(), Bet(10)) and mine.bet_range == (10, 200)
    assert not other.your_turn and other.legal == () and other.bet_range is None
    assert spectator.hand == () and spectator.best_point is None
    h.act(0, Bet(30))
    v = h.seat_view(1)
    assert v.legal == (Pass(), Call(), Raise(40)) and v.bet_range == (40, 200)
    assert v.betting is not None and v.betting.level == 30 and v.betting.to_call == 30
    assert v.seats[0].bet == 30 and v.pots.bets[0] == 30 and v.seats[0].status == "in"


def test_R8_seat_view_shows_who_passed_and_the_shown_points() -> None:
    h = start(Rules(), HANDS)
    h.act(0, Bet(10))
    h.act(1, Call())
    h.act(2, Pass())
    h.act(3, Pass())
    v = h.seat_view(2)
    assert v.showdown is not None and v.showdown.order == (0, 1)
    h.act(0, h.default_action(0))
    v = h.seat_view(2)
    assert v.seats[0].shown[0].cards == tuple(parse_cards("7d 6d 1d"))
    assert v.declared[0].value == 55 and v.declared[0].pot == "small"


def test_R12_seat_view_carries_the_open_sequence_and_the_needed_rank() -> None:
    h = start(Rules(), {0: "1c 2c 3c 4c 5c 6c 7c 8c 9c 2d"})
    pass_all_betting(h)
    assert h.phase == "stoppa" and h.to_act == 0
    h.act(0, Play(tuple(parse_cards("2c"))))  # 2-...-9, then others; then the sequence goes on
    v = h.seat_view(None)
    assert v.stoppa is not None
    stoppa = h.stoppa
    assert stoppa is not None
    assert v.stoppa.needed == stoppa.needed
    assert v.stoppa.table == tuple(tuple(p) for p in stoppa.table)
    seq = v.stoppa.sequence
    assert seq and seq == v.stoppa.table[len(v.stoppa.table) - len(seq) :]
    # a sequence climbs (aces join aces): every play above the one before
    ranks = [p[0].rank for p in seq]
    assert all(b > a or a == b == 1 for a, b in itertools.pairwise(ranks))


def _random_hand(seed: int) -> Hand:
    rng = random.Random(seed)
    rules = Rules(players=rng.choice((3, 4, 5, 6)), ranking=rng.choice(("count", "total")))
    chips = [rng.choice((60, 65, 200, 1000)) for _ in range(rules.players)]
    h = Hand.start(rules, chips, 0, seed=seed)
    for _ in range(rng.randrange(60)):
        if h.to_act is None:
            break
        seat = h.to_act
        h.act(seat, rng.choice(h.legal_actions()))
    return h


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000))
def test_seat_view_carries_what_the_dict_view_says(seed: int) -> None:
    h = _random_hand(seed)
    for seat in [None, *range(h.n)]:
        d, v = json_view(h, seat), h.seat_view(seat)
        assert v.phase == d["phase"] and v.to_act == d["to_act"] and v.deal_no == d["deal_no"]
        assert [c.code for c in v.hand] == d["hand"]
        assert [s.chips for s in v.seats] == d["chips"]
        assert [s.card_count for s in v.seats] == d["card_counts"]
        assert v.pots.small == tuple(d["pots"]["small"]) and v.pots.big == d["pots"]["big"]
        assert [str(a) for a in v.legal] == d["legal"]
        if d["betting"] is None:
            assert v.betting is None
        else:
            assert v.betting is not None and v.betting.level == d["betting"]["level"]
            assert list(v.betting.active) == d["betting"]["active"]
        if d["stoppa"] is None:
            assert v.stoppa is None
        else:
            assert v.stoppa is not None and v.stoppa.needed == d["stoppa"]["needed"]
            assert [[c.code for c in p] for p in v.stoppa.table] == d["stoppa"]["table"]
        if seat is not None and v.best_point is not None:
            assert v.best_point == h.best_point(seat)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 10_000))
def test_R15_verify_can_and_act_agree(seed: int, pick: int) -> None:
    """``can`` is ``verify`` not raising; ``act`` refuses with ``verify``'s reason and changes
    nothing, or accepts."""
    h = _random_hand(seed)
    if h.to_act is None:
        return
    rng = random.Random(pick)
    card = rng.choice(h.rules.deck())
    seat = rng.choice([h.to_act, (h.to_act + 1) % h.n])
    action = rng.choice(
        [Pass(), Call(), Bet(rng.choice((0, 10, 30))), Raise(rng.choice((20, 40, 500))),
         Play((card,)), *h.legal_actions()]
    )
    try:
        h.verify(seat, action)
        reason = None
    except IllegalAction as e:
        reason = e.code
    assert h.can(seat, action) is (reason is None)
    before = h.to_json()
    if reason is None:
        h.act(seat, action)
    else:
        with pytest.raises(IllegalAction) as err:
            h.act(seat, action)
        assert err.value.code == reason
        assert h.to_json() == before
