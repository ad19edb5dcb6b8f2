"""docs/rules-spec.md's worked examples played out in whole hands, and the clauses the other engine
tests left to the rules' settings alone (R-5, R-7, R-10, R-11).

The R-7 examples are also checked on ``Point`` values (``test_points.py``); here they are
decided by the hand's own showdown, so a showdown that compared points differently from R-7
would fail them.
"""

from __future__ import annotations

import pytest

from bot.engine import Bet, Call, Hand, Pass, Rules, holds_special, parse_cards

from .util import start


def _contend(h: Hand, contenders: tuple[int, ...]) -> None:
    """The first contender to act bets the cip, the other contenders call, everyone else
    passes; then each contender declares its best point (R-9's default)."""
    phase = h.phase
    opened = False
    while h.phase == phase:
        seat = h.to_act
        assert seat is not None
        if seat not in contenders:
            h.act(seat, Pass())
        elif not opened:
            h.act(seat, Bet(h.rules.cip))
            opened = True
        else:
            h.act(seat, Call())
    assert h.phase == "showdown"
    while h.phase == "showdown":
        seat = h.to_act
        assert seat is not None
        h.act(seat, h.default_action(seat))


def _winner(h: Hand, pot: str) -> int | None:
    wins = [e for e in h.events if e.kind == "win" and e.data()["pot"] == pot]
    return wins[-1].seat if wins else None


# Seat 0 and seat 1 are dealt these three cards first (the small point of deal 0); the rest
# of their hands only keeps the cards apart.
WIKIPEDIA_HANDS = {
    0: "10c 8c 3c 2d 3d 4d 5d 6d 7d 1d",
    1: "1s 7b 5b 2b 3b 4b 9c 9d 9s 9b",
}


@pytest.mark.parametrize("dealer", [0, 1, 3])
def test_R7_three_cards_beat_two_at_a_showdown_whoever_has_priority(dealer: int) -> None:
    """Wikipedia: A (10c 8c 3c, 33) beats B (1s 7b 5b, 36 with two cards): more cards first."""
    h = start(Rules(), WIKIPEDIA_HANDS, dealer=dealer)
    _contend(h, (0, 1))
    declared = {e.seat: e.data()["value"] for e in h.events if e.kind == "declare"}
    assert declared == {0: 33, 1: 36}
    assert _winner(h, "small") == 0


@pytest.mark.parametrize("dealer", [0, 1, 3])
def test_R7_ranking_total_lets_the_higher_sum_win_that_showdown(dealer: int) -> None:
    """Variant ``ranking=total``: the same two points, and the sum alone decides (36 > 33)."""
    h = start(Rules(ranking="total"), WIKIPEDIA_HANDS, dealer=dealer)
    _contend(h, (0, 1))
    assert _winner(h, "small") == 1


@pytest.mark.parametrize("dealer", [0, 1, 3])
def test_R7_higher_sum_wins_a_showdown_of_equal_counts(dealer: int) -> None:
    """Wikipedia: B (8c 7s 6s: 7s 6s, 39) beats A (7d 5d 6c: 7d 5d, 36)."""
    hands = {
        0: "7d 5d 6c 2d 3d 4d 1d 10d 9d 8d",
        1: "8c 7s 6s 2s 3s 4s 1s 10s 9s 8s",
    }
    h = start(Rules(), hands, dealer=dealer)
    _contend(h, (0, 1))
    declared = {e.seat: e.data()["value"] for e in h.events if e.kind == "declare"}
    assert declared == {0: 36, 1: 39}
    assert _winner(h, "small") == 1


def test_R7_R10_big_point_five_players_example_in_a_hand() -> None:
    """Five players: A holds 6d 7s 1b | 5d 4d 7c | 1c 10c (47 either way), B holds
    7d 5b 8b | 3d 6c 2c | 1d 4c (7d 3d 1d = 50). B wins the big point though A is eldest:
    the big point uses all of a player's cards (R-10), the small points only their deal's."""
    rules = Rules(players=5)
    h = start(
        rules,
        {0: "6d 7s 1b 5d 4d 7c 1c 10c", 1: "7d 5b 8b 3d 6c 2c 1d 4c"},
        dealer=4,
    )
    assert h.eldest == 0
    while h.phase == "small_point":
        seat = h.to_act
        assert seat is not None
        h.act(seat, Pass())
    assert h.phase == "big_point"
    assert h.best_point(0).total == 47
    assert h.best_point(1).total == 50
    _contend(h, (0, 1))
    declared = {e.seat: e.data()["value"] for e in h.events if e.kind == "declare"}
    assert declared == {0: 47, 1: 50}
    assert _winner(h, "big") == 1


def test_R5_a_hand_needs_three_players() -> None:
    with pytest.raises(ValueError, match="players must be 3 to 6"):
        Rules(players=2)
    with pytest.raises(ValueError, match="3 players need 3 chip counts"):
        Hand.start(Rules(players=3), [100, 100], 0)


def test_R11_no_ricchezza_with_six_players_who_play_without_kings() -> None:
    """Six players play without kings (R-2), so nobody can hold "every king": the four
    knights (the closer there) are no ricchezza, and the stoppa is played."""
    rules = Rules(players=6, stoppa_povera="off")
    knights = parse_cards("9c 9d 9s 9b 8c 2c")
    assert not holds_special("ricchezza", rules, knights)
    h = start(rules, {0: "9c 9d 9s 9b 8c 2c", 1: "8d 8s 8b 3c 4c 5c"})
    while h.phase in ("small_point", "big_point"):
        seat = h.to_act
        assert seat is not None
        h.act(seat, Pass())
    assert h.special is None
    assert h.stoppa is not None
