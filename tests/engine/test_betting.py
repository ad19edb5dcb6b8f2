"""R-8 betting rounds (and R-10's carry), using 4 players with seat 3 dealing."""

from __future__ import annotations

import pytest

from bot.engine import Bet, Call, Concede, Declare, Hand, IllegalAction, Pass, Raise, Rules
from bot.engine.events import Won
from tests.engine.behaviour_hash import view as json_view

from .util import start

# seat 0 (eldest) gets the 55 in the first deal; seat 1 a low point
HANDS = {
    0: "7d 6d 1d 2c 3c 4c 5s 4s 3s 8b",
    1: "8c 9c 2s 6c 7c 1c 2b 3b 4b 9b",
}


def fresh(**kw: object) -> Hand:
    chips = kw.pop("chips", None)
    return start(Rules(**kw), HANDS, chips=chips)  # type: ignore[arg-type]


def test_R8_order_and_representative_actions() -> None:
    h = fresh()
    assert h.phase == "small_point" and h.deal_no == 0
    assert h.to_act == 0
    assert h.legal_actions() == [Pass(), Bet(10)]
    assert h.bet_range(0) == (10, 200)
    assert h.bet_range(1) is None


def test_R8_dealer_takes_the_pot_without_acting_when_nobody_bets() -> None:
    h = fresh()
    h.act(0, Pass())
    h.act(1, Pass())
    events = h.act(2, Pass())
    win = next(e for e in events if e.kind == "win")
    assert win.seat == 3 and win.data()["amount"] == 10 and win.data()["shown"] is False
    assert h.deal_no == 1 and h.to_act == 0  # the dealer never acted
    assert h.chips[3] == 1000 - 60 + 10


def test_R8_lone_bettor_takes_pot_and_bets_without_showing() -> None:
    h = fresh()
    h.act(0, Pass())
    h.act(1, Bet(30))
    h.act(2, Pass())
    h.act(3, Pass())
    # seat 0 passed before the bet: out; seat 1 alone
    assert h.deal_no == 1
    assert h.chips[1] == 940 + 10
    assert not any(e.kind == "declare" for e in h.events)


def test_R8_raise_and_reraise_then_showdown() -> None:
    h = fresh()
    h.act(0, Bet(20))
    assert h.legal_actions() == [Pass(), Call(), Raise(30)]
    assert h.bet_range(1) == (30, 200)
    h.act(1, Raise(50))
    h.act(2, Pass())
    h.act(3, Call())
    assert h.to_act == 0  # must answer the raise
    h.act(0, Raise(100))
    h.act(1, Call())
    assert h.to_act == 3
    h.act(3, Pass())
    assert h.phase == "showdown"
    # showing starts with the last raiser (seat 0), then seat order
    assert json_view(h, 0)["showdown"]["order"] == [0, 1]
    assert h.to_act == 0
    h.act(0, h.default_action(0))
    h.act(1, h.default_action(1))
    win = [e for e in h.events if e.kind == "win"][-1]
    assert win.seat == 0
    assert win.data()["amount"] == 10 + 100 + 100 + 50
    assert h.chips[0] == 940 - 100 + 260


def test_R8_cip_and_max_bet_bounds() -> None:
    h = fresh(cip=20, max_bet=100)
    for bad, code in ((Bet(19), "bet_too_small"), (Bet(101), "bet_too_large")):
        with pytest.raises(IllegalAction) as err:
            h.act(0, bad)
        assert err.value.code == code
    h.act(0, Bet(70))
    with pytest.raises(IllegalAction) as err:
        h.act(1, Raise(80))
    assert err.value.code == "raise_too_small"
    assert err.value.params == {"min": 90}
    assert str(err.value) == "The minimum raise is to 90."
    assert h.bet_range(1) == (90, 100)
    with pytest.raises(IllegalAction) as err:
        h.act(1, Raise(110))
    assert err.value.code == "raise_too_large"
    h.act(1, Raise(100))
    assert h.bet_range(2) is None  # 100 + 20 > max_bet: no raise possible
    assert h.legal_actions() == [Pass(), Call()]
    with pytest.raises(IllegalAction) as err:
        h.act(2, Raise(120))
    assert err.value.code == "cannot_raise"
    with pytest.raises(IllegalAction) as err:
        h.act(2, Bet(20))
    assert err.value.code == "bet_not_allowed"


def test_R8_bets_above_chips_refused() -> None:
    h = fresh(chips=[100, 1000, 1000, 1000])  # seat 0 has 40 after the ante
    assert h.bet_range(0) == (10, 40)
    with pytest.raises(IllegalAction) as err:
        h.act(0, Bet(50))
    assert err.value.code == "bet_too_large"
    h.act(0, Bet(40))
    assert h.chips[0] == 0
    assert any(e.kind == "allin" for e in h.events)


def test_R8_all_in_call_with_side_pot() -> None:
    """Seat 0 (best point) calls all-in for 20: it wins the pot and 20 from each caller;
    the rest goes to the best of the others."""
    h = fresh(chips=[80, 1000, 1000, 1000])
    h.act(0, Bet(10))
    h.act(1, Raise(100))
    h.act(2, Call())
    h.act(3, Pass())
    assert h.legal_actions()[:2] == [Pass(), Call()]
    h.act(0, Call())  # only 10 more chips: all-in at 20
    assert h.chips[0] == 0
    assert json_view(h, 0)["betting"] is None
    assert h.phase == "showdown"
    order = json_view(h, 0)["showdown"]["order"]
    assert order == [1, 2, 0]
    for seat in order:
        h.act(seat, h.default_action(seat))
    wins = {e.seat: e.amount for e in h.events if isinstance(e, Won) and e.deal == 0}
    # seat 0: pot 10 + 20 from each of seats 0, 1, 2 = 70; seat 1 or 2 gets 80 + 80
    assert wins[0] == 70
    assert sum(wins.values()) == 10 + 20 + 100 + 100
    assert h.chips[0] == 70


def test_R8_zero_chip_player_is_passed_when_nobody_has_bet() -> None:
    h = fresh(chips=[60, 1000, 1000, 1000])  # all-in for the ante
    assert h.to_act == 1
    assert h.events[-1].kind == "pass" and h.events[-1].data()["forced"] is True


def test_R8_zero_chip_player_cannot_call_for_free_after_a_bet() -> None:
    """docs/rules-spec.md R-8 (updated): a player with no chips takes no part in the round."""
    h = fresh(chips=[1000, 60, 1000, 1000])
    h.act(0, Bet(30))
    assert h.to_act == 2
    assert not h.can(1, Call())
    assert not any(e.kind == "allin" for e in h.events)


def test_R8_timeout_passes() -> None:
    h = fresh()
    assert h.default_action(0) == Pass()
    h.act(0, Bet(10))
    assert h.default_action(1) == Pass()


def test_R8_wrong_seat_and_wrong_phase() -> None:
    h = fresh()
    with pytest.raises(IllegalAction) as err:
        h.act(2, Pass())
    assert err.value.code == "not_your_turn" and "seat 0" in str(err.value)
    with pytest.raises(IllegalAction) as err:
        h.act(0, Call())
    assert err.value.code == "nothing_to_call"
    with pytest.raises(IllegalAction) as err:
        h.act(0, Raise(50))
    assert err.value.code == "nothing_to_raise"
    with pytest.raises(IllegalAction) as err:
        h.act(0, Concede())
    assert err.value.code == "wrong_phase"
    with pytest.raises(IllegalAction) as err:
        h.act(0, Declare(()))
    assert err.value.code == "wrong_phase"
    with pytest.raises(IllegalAction) as err:
        h.act(9, Pass())
    assert err.value.code == "not_in_hand"


def _to_big_point(h: Hand) -> None:
    while h.phase == "small_point":
        h.act(h.to_act, Pass())  # type: ignore[arg-type]


def test_R10_nobody_bets_big_pot_to_dealer() -> None:
    h = fresh()
    _to_big_point(h)
    assert h.phase == "big_point" and h.deal_no is None
    before = h.chips[3]
    h.act(0, Pass())
    h.act(1, Pass())
    h.act(2, Pass())
    assert h.chips[3] >= before + 200 or h.phase == "over"
    win = next(e for e in h.events if e.kind == "win" and e.data()["pot"] == "big")
    assert win.seat == 3 and win.data()["amount"] == 200


def test_R10_carry_variant_keeps_the_big_pot() -> None:
    h = start(Rules(unclaimed_big_pot="carry"), HANDS, carry=30)
    assert h.pots.big == 230
    _to_big_point(h)
    for _ in range(3):
        h.act(h.to_act, Pass())  # type: ignore[arg-type]
    assert h.carry_out == 230
    assert h.pots.big == 0
    while h.to_act is not None:
        h.act(h.to_act, h.default_action(h.to_act))
    assert h.result is not None and sum(h.result) == 30 - 230


def test_R8_R9_side_pot_layers_when_contenders_concede() -> None:
    """Seat 0 all-in for 20; seats 1 and 2 go to 100 and both concede: seat 0 wins the pot
    and the part it matched; the rest (only 1 and 2 matched it) goes to the one of them with
    priority (seat 1), a decision of the engine where docs/rules-spec.md is silent."""
    h = fresh(chips=[80, 1000, 1000, 1000])
    h.act(0, Bet(20))
    assert h.chips[0] == 0
    h.act(1, Raise(100))
    h.act(2, Call())
    h.act(3, Pass())
    assert h.phase == "showdown"
    assert json_view(h, None)["showdown"]["order"] == [1, 2, 0]
    h.act(1, Concede())
    h.act(2, Concede())
    wins = {e.seat: e.data() for e in h.events if isinstance(e, Won) and e.deal == 0}
    assert wins[0]["amount"] == 10 + 3 * 20 and wins[0]["shown"] is False
    assert wins[1]["amount"] == 2 * 80
    assert 2 not in wins
    assert h.chips[:3] == [70, 940 - 100 + 160, 940 - 100]
