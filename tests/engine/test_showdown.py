"""R-9 showdown and declaring a lower point; views show declared cards."""

from __future__ import annotations

import pytest

from bot.engine import (
    Bet,
    Call,
    Card,
    Concede,
    Declare,
    Hand,
    IllegalAction,
    Pass,
    Raise,
    Rules,
    parse_cards,
)
from tests.engine.behaviour_hash import view as json_view

from .util import start


def to_showdown(h: Hand, bettor: int = 0) -> None:
    """seat ``bettor`` bets 10, everyone else calls."""
    h.act(bettor, Bet(10))
    while h.phase != "showdown":
        h.act(h.to_act, Call())  # type: ignore[arg-type]


def decl(text: str) -> Declare:
    return Declare(tuple(parse_cards(text)))


def test_R9_best_point_by_default_and_lower_on_request() -> None:
    h = start(Rules(), {0: "7d 6d 1d 2c 3c 4c 5s 4s 3s 8b", 1: "7c 6c 2b 8c 9c 1c 2s 3b 4b 9b"})
    h.act(0, Bet(10))
    h.act(1, Call())
    h.act(2, Pass())
    h.act(3, Pass())
    assert h.phase == "showdown" and h.to_act == 0
    assert h.default_action(0) == decl("7d 6d 1d")
    legal = h.legal_actions()
    assert legal[0] == decl("7d 6d 1d") and legal[-1] == Concede()
    assert decl("7d 6d") in legal and decl("6d 1d") in legal
    h.act(0, decl("7d 6d"))  # hides the ace: 39 only
    assert json_view(h, 2)["declared"][0] == {
        "seat": 0,
        "cards": ["7d", "6d"],
        "value": 39,
        "pot": "small",
        "deal": 0,
    }
    h.act(1, decl("7c 6c"))  # 39 too: seat 0 has priority
    win = next(e for e in h.events if e.kind == "win")
    assert win.seat == 0 and win.data()["amount"] == 30


def test_R9_lower_point_can_lose() -> None:
    h = start(Rules(), {0: "7d 6d 1d 2c 3c 4c 5s 4s 3s 8b", 1: "7c 5c 2b 8c 9c 1c 2s 3b 4b 9b"})
    h.act(0, Bet(10))
    h.act(1, Call())
    h.act(2, Pass())
    h.act(3, Pass())
    assert h.phase == "showdown"
    h.act(0, decl("6d"))  # 18 only
    h.act(1, decl("7c 5c"))  # 36
    win = next(e for e in h.events if e.kind == "win")
    assert win.seat == 1 and win.data()["shown"] is True


@pytest.mark.parametrize(("dealer", "winner"), [(3, 0), (0, 1)])
def test_R7_R9_equal_points_priority_decides(dealer: int, winner: int) -> None:
    """A (10d 1c 6c, 34) vs B (7b 3b 8c, 34): the player with priority wins."""
    h = start(
        Rules(),
        {0: "10d 1c 6c 2d 3d 4d 5s 4s 3s 8s", 1: "7b 3b 8c 2b 4b 5b 9s 10s 1s 7s"},
        dealer=dealer,
    )
    eldest = (dealer + 1) % 4
    h.act(eldest, Bet(10))
    while h.phase != "showdown":
        seat = h.to_act
        assert seat is not None
        h.act(seat, Call() if seat in (0, 1) else Pass())
    for _ in range(2):
        seat = h.to_act
        assert seat is not None
        h.act(seat, h.default_action(seat))
    win = next(e for e in h.events if e.kind == "win")
    assert win.seat == winner


def test_R9_order_of_showing_starts_with_last_raiser() -> None:
    h = start(Rules(), {})
    h.act(0, Bet(10))
    h.act(1, Call())
    h.act(2, Raise(20))
    h.act(3, Call())
    h.act(0, Call())
    h.act(1, Call())
    assert json_view(h, None)["showdown"]["order"] == [2, 3, 0, 1]
    assert h.to_act == 2


def test_R9_concede_last_one_wins_without_declaring() -> None:
    h = start(Rules(), {})
    to_showdown(h)
    h.act(0, Concede())
    h.act(1, Concede())
    events = h.act(2, Concede())
    win = next(e for e in events if e.kind == "win")
    assert win.seat == 3 and win.data()["shown"] is False
    assert not any(e.kind == "declare" for e in h.events)


def test_R9_declare_must_use_eligible_held_same_suit_cards() -> None:
    h = start(Rules(), {0: "7d 6d 1d 2c 3c 4c 5s 4s 3s 8b"})
    for _ in range(3):
        h.act(h.to_act, Pass())  # type: ignore[arg-type]
    assert h.deal_no == 1
    to_showdown(h)
    for cards, code in (
        ("7c", "card_not_held"),
        ("7d", "card_not_eligible"),  # held, but dealt in the first deal
        ("2c 3c 4c 4c", "bad_point"),
        ("4c 4s", "card_not_held"),
    ):
        with pytest.raises(IllegalAction) as err:
            h.act(0, decl(cards))
        assert err.value.code == code, cards
    with pytest.raises(IllegalAction) as err:
        h.act(0, Declare(()))
    assert err.value.code == "bad_point"
    before = h.to_json()
    with pytest.raises(IllegalAction):
        h.act(0, Declare((Card.parse("3c"), Card.parse("2c"), Card.parse("10b"))))
    assert h.to_json() == before


def test_R9_shown_cards_in_events_and_every_view() -> None:
    h = start(Rules(), {0: "7d 6d 1d 2c 3c 4c 5s 4s 3s 8b"})
    to_showdown(h)
    h.act(0, decl("7d 6d 1d"))
    ev = [e for e in h.public_events() if e.kind == "declare"]
    assert ev[0].data() == {"cards": ["7d", "6d", "1d"], "value": 55, "count": 3}
    for seat in (1, 2, 3, None):
        v = json_view(h, seat)
        assert v["declared"][0]["cards"] == ["7d", "6d", "1d"]
        assert "7d" not in v["hand"]
