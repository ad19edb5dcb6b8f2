"""Snapshots from a typed `SeatView` written by hand (bot/render/from_view.py): the renderer
draws what the view says and never the viewer's own cards. (These were the tests of the
dict-reading `from_state`; the engine's own tests check how the view is derived: the open
sequence of R-12 in tests/engine/test_views.py and tests/engine/test_stoppa.py.)"""

from __future__ import annotations

from dataclasses import asdict, replace

from bot.engine import Card, Hand, Rules, best_point
from bot.engine.views import BettingView, Pots, SeatPublic, SeatView, ShownPoint, StoppaView
from bot.render.from_view import hand_snapshot, lobby_snapshot, table_snapshot


def _cards(codes: str) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in codes.split())


def _seat(seat: int, chips: int, status: str = "in", bet: int = 0) -> SeatPublic:
    return SeatPublic(seat=seat, chips=chips, card_count=6, bet=bet, status=status,
                      dealer=seat == 0, shown=())


def _view(**changes: object) -> SeatView:
    hand = _cards("7d 6d 1c 5b 10b 2s")
    new = _cards("5b 10b 2s")
    rules = Rules(players=4)
    view = SeatView(
        seat=1, players=4, dealer=0, eldest=1, phase="small_point", point="small",
        deal_no=1, to_act=1, your_turn=True, hand=hand, eligible=new,
        best_point=best_point(new, 3, rules.ranking), legal=(), bet_range=(50, 200),
        seats=(_seat(0, 500, bet=20), _seat(1, 480), _seat(2, 300, "passed"),
               _seat(3, 0, "allin", bet=40)),
        pots=Pots(small=(10, 10, 10, 10), big=200, bets=(20, 0, 0, 40), carry=30,
                  carry_out=0),
        betting=BettingView(level=40, to_call=40, min_raise=50, max_bet=200,
                            active=(True, True, False, True),
                            allin=(False, False, False, True), bet_range=(50, 200)),
        showdown=None, declared=(), stoppa=None, special=None, result=None, rules=rules,
    )
    return replace(view, **changes)  # type: ignore[arg-type]


def test_R8_table_snapshot_reads_seats_pots_and_statuses() -> None:
    snap = table_snapshot(_view(), ["Ann", "Ben", "Cat", "Dan"], lang="it", hand_no=3,
                          cpu=[False, False, True, True])
    assert [s.status for s in snap.seats] == ["in", "in", "passed", "allin"]
    assert [s.dealer for s in snap.seats] == [True, False, False, False]
    assert [s.to_act for s in snap.seats] == [False, True, False, False]
    assert [s.bet for s in snap.seats] == [20, 0, 0, 40]
    assert [s.cpu for s in snap.seats] == [False, False, True, True]
    assert (snap.deal_no, snap.deals, snap.small_pots) == (1, 4, (10, 10, 10, 10))
    assert (snap.big_pot, snap.carry, snap.level, snap.hand_no) == (200, 30, 40, 3)
    assert snap.lang == "it" and snap.phase == "small_point"


def test_table_snapshot_never_holds_the_viewers_cards() -> None:
    view = _view()
    snap = table_snapshot(view, ["Ann", "Ben", "Cat", "Dan"], lang="en")
    text = repr(asdict(snap))
    for card in view.hand:
        assert f"'{card.code}'" not in text


def test_R9_declared_cards_are_shown() -> None:
    point = ShownPoint(seat=2, cards=_cards("7c 5c"), value=36, pot="small", deal=1)
    view = _view(phase="showdown", declared=(point,))
    snap = table_snapshot(view, ["A", "B", "C", "D"], lang="en")
    assert snap.seats[2].shown == ("7c", "5c") and snap.seats[0].shown == ()
    assert snap.seats[2].shown_value == 36


def test_only_the_points_of_the_round_being_played_are_drawn() -> None:
    """Issue 25: a seat showed its last declared point whatever the round, so a point of the
    small point 1 stood beside those of the small point 2, and the stoppa showed points of
    different rounds."""
    earlier = ShownPoint(seat=0, cards=_cards("7d 6d"), value=39, pot="small", deal=0)
    now = ShownPoint(seat=2, cards=_cards("7c 5c"), value=36, pot="small", deal=1)
    big = ShownPoint(seat=3, cards=_cards("1s"), value=16, pot="big", deal=None)
    names = ["A", "B", "C", "D"]
    snap = table_snapshot(_view(phase="showdown", declared=(earlier, now)), names, lang="en")
    assert [s.shown_value for s in snap.seats] == [None, None, 36, None]
    big_view = _view(phase="big_point", deal_no=None, declared=(earlier, now, big))
    snap = table_snapshot(big_view, names, lang="en")
    assert [s.shown_value for s in snap.seats] == [None, None, None, 16]
    for phase in ("stoppa", "over"):
        view = _view(phase=phase, deal_no=None, to_act=None, declared=(earlier, now, big))
        assert all(not s.shown for s in table_snapshot(view, names, lang="en").seats)


def test_R12_stoppa_sequence_and_needed_rank() -> None:
    table = tuple((c,) for c in _cards("5c 6d 7s 8b 9b 10c 3d 4c"))
    stoppa = StoppaView(table=table, sequence=table[-2:], needed=5, closer=10,
                        last=table[-1], to_act=2, winner=None)
    seats = tuple(replace(s, status="in") for s in _view().seats)
    view = _view(phase="stoppa", betting=None, stoppa=stoppa, to_act=None, deal_no=None,
                 seats=seats)
    snap = table_snapshot(view, ["A", "B", "C", "D"], lang="en")
    assert snap.stoppa_table == (("3d",), ("4c",))
    assert snap.needed == 5 and snap.seats[2].to_act
    assert all(s.status == "in" for s in snap.seats)


def test_a_lobby_has_empty_values() -> None:
    snap = lobby_snapshot(["A", "B", "C"], [100, 200, 300], lang="en")
    assert len(snap.seats) == 3 and snap.big_pot == 0 and snap.deal_no is None
    assert all(s.cards == 0 and s.status == "in" for s in snap.seats)
    assert [s.chips for s in snap.seats] == [100, 200, 300] and snap.phase == "lobby"


def test_out_sitting_out_and_away_seats() -> None:
    snap = table_snapshot(_view(), ["A", "B", "C", "D"], lang="en", out=[3], sitting_out=[2],
                          away=[1])
    assert [s.status for s in snap.seats] == ["in", "in", "sitting_out", "out"]
    assert [s.away for s in snap.seats] == [False, True, False, False]


def test_R6_small_point_best_is_of_the_new_cards() -> None:
    hand = hand_snapshot(_view(), lang="en", player="Ben")
    assert hand.best is not None and hand.best.value == 25 and hand.best.suit == "b"
    assert hand.your_turn and hand.player == "Ben"
    assert sorted(hand.new_cards) == sorted(("5b", "10b", "2s"))


def test_R12_no_point_in_the_stoppa() -> None:
    view = _view(phase="stoppa", to_act=0, your_turn=False, best_point=None, eligible=(),
                 deal_no=None)
    hand = hand_snapshot(view, lang="it")
    assert hand.best is None and not hand.your_turn


def test_R7_the_best_point_follows_the_rules_ranking() -> None:
    for ranking in ("count", "total"):
        hand = Hand.start(Rules(players=4, ranking=ranking), [1000] * 4, dealer=0, seed=11)
        seat = hand.to_act
        assert seat is not None
        view = hand.seat_view(seat)
        best = hand_snapshot(view, lang="en").best
        expected = best_point(hand.eligible(seat), 3, ranking)
        assert best is not None and (best.value, best.suit) == (expected.total, expected.suit)
