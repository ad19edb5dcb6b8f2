"""Snapshots from the engine's typed SeatView (bot/render/from_view.py): public info only,
every fact read from the view of real hands."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import asdict

from bot.engine import Bet, Call, Declare, Hand, Pass, Rules, best_point
from bot.render.from_view import hand_snapshot, table_snapshot
from bot.render.points import point_info

NAMES = ["Ann", "Ben", "Cat", "Dan"]


def _eager(hand: Hand) -> None:
    """One action of the player to move: bet, call or declare when it may, else the first."""
    seat = hand.to_act
    assert seat is not None
    legal = hand.legal_actions()
    wanted = [a for a in legal if isinstance(a, Bet | Call | Declare)]
    hand.act(seat, (wanted or legal)[0])


def _until(hand: Hand, done: Callable[[Hand], bool]) -> Hand:
    for _ in range(500):
        if done(hand):
            return hand
        _eager(hand)
    raise AssertionError("the hand never got there")


def test_R8_table_snapshot_reads_seats_pots_and_statuses() -> None:
    hand = Hand.start(Rules(players=4), [500, 480, 300, 900], dealer=0, seed=3)
    first = hand.to_act
    assert first is not None
    hand.act(first, next(a for a in hand.legal_actions() if isinstance(a, Bet)))
    passer = hand.to_act
    assert passer is not None
    hand.act(passer, Pass())
    snap = table_snapshot(hand.seat_view(first), NAMES, lang="it", hand_no=3,
                          cpu=[False, False, True, True])
    view = hand.seat_view(None)
    assert [s.status for s in snap.seats] == [
        "passed" if s == passer else "in" for s in range(4)
    ]
    assert snap.seats[passer].status == "passed" and snap.seats[first].bet > 0
    assert [s.dealer for s in snap.seats] == [True, False, False, False]
    assert [s.to_act for s in snap.seats] == [s == hand.to_act for s in range(4)]
    assert [s.bet for s in snap.seats] == list(hand.bets)
    assert [s.chips for s in snap.seats] == list(hand.chips)
    assert [s.cpu for s in snap.seats] == [False, False, True, True]
    assert (snap.deal_no, snap.deals, snap.small_pots) == (0, 4, view.pots.small)
    assert (snap.big_pot, snap.level, snap.hand_no) == (view.pots.big, hand.bets[first], 3)
    assert snap.lang == "it" and snap.phase == "small_point"


def test_table_snapshot_never_holds_the_viewers_cards() -> None:
    hand = Hand.start(Rules(players=4), [1000] * 4, dealer=1, seed=8)
    seat = hand.to_act
    assert seat is not None
    snap = table_snapshot(hand.seat_view(seat), NAMES, lang="en")
    text = repr(asdict(snap))
    for card in hand.cards(seat):
        assert f"'{card.code}'" not in text


def test_R9_declared_cards_are_shown() -> None:
    hand = _until(Hand.start(Rules(players=4), [1000] * 4, 0, seed=2), lambda h: bool(h.shown))
    shown = hand.shown[0]
    snap = table_snapshot(hand.seat_view(None), NAMES, lang="en")
    assert snap.seats[shown.seat].shown == tuple(c.code for c in shown.cards)
    assert snap.seats[shown.seat].shown_value == shown.value
    assert sum(1 for s in snap.seats if s.shown) == 1


def test_R12_stoppa_sequence_and_needed_rank_are_the_engines() -> None:
    checked = 0
    for seed in range(20):
        rng = random.Random(seed)
        hand = Hand.start(Rules(players=3 + seed % 4), [2000] * (3 + seed % 4), 0, seed=seed)
        while hand.to_act is not None:
            if hand.phase == "stoppa":
                view = hand.seat_view(None)
                assert view.stoppa is not None
                snap = table_snapshot(view, [*NAMES, "Eva", "Fil"], lang="en")
                assert snap.stoppa_table == tuple(
                    tuple(c.code for c in play) for play in view.stoppa.sequence
                )
                assert snap.needed == view.stoppa.needed
                assert snap.seats[hand.to_act].to_act
                assert all(s.status == "in" for s in snap.seats)
                checked += 1
            hand.act(hand.to_act, rng.choice(hand.legal_actions()))
    assert checked > 20


def test_a_spectators_view_has_no_cards() -> None:
    hand = Hand.start(Rules(players=3), [1000] * 3, 0, seed=1)
    snap = table_snapshot(hand.seat_view(None), NAMES[:3], lang="en")
    assert len(snap.seats) == 3 and snap.deal_no == 0
    assert all(s.cards == len(hand.cards(i)) for i, s in enumerate(snap.seats))
    mine = hand_snapshot(hand.seat_view(None), lang="en")
    assert mine.cards == () and mine.best is None and not mine.your_turn


def test_out_and_sitting_out_seats() -> None:
    hand = Hand.start(Rules(players=4), [1000] * 4, 0, seed=1)
    snap = table_snapshot(hand.seat_view(None), NAMES, lang="en", out=[3], sitting_out=[2])
    assert [s.status for s in snap.seats] == ["in", "in", "sitting_out", "out"]


def test_R6_small_point_best_is_of_the_new_cards() -> None:
    hand = Hand.start(Rules(players=4), [1000] * 4, 0, seed=6)
    seat = hand.to_act
    assert seat is not None
    snap = hand_snapshot(hand.seat_view(seat), lang="en", player="Ben")
    new = hand.eligible(seat)
    assert sorted(snap.new_cards) == sorted(c.code for c in new)
    assert snap.best == point_info(best_point(new))
    assert snap.your_turn and snap.player == "Ben"


def test_R10_big_point_best_is_of_the_whole_hand() -> None:
    for ranking in ("count", "total"):
        hand = Hand.start(Rules(players=4, ranking=ranking), [1000] * 4, 0, seed=4)
        _until(hand, lambda h: h.phase == "big_point")
        seat = hand.to_act
        assert seat is not None
        snap = hand_snapshot(hand.seat_view(seat), lang="en")
        assert snap.new_cards == () and len(snap.cards) == len(hand.cards(seat))
        assert snap.best == point_info(best_point(hand.cards(seat), ranking=ranking))


def test_R12_no_point_in_the_stoppa() -> None:
    hand = _until(Hand.start(Rules(players=4), [1000] * 4, 0, seed=4),
                  lambda h: h.phase == "stoppa")
    other = next(s for s in range(4) if s != hand.to_act)
    snap = hand_snapshot(hand.seat_view(other), lang="it")
    assert snap.best is None and not snap.your_turn and snap.cards
