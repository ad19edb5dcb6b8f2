"""The one reading of a move (`bot.engine.moves`): each way of writing a move names one
action, or a typed refusal that says why."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.engine import Bet, Call, Card, Concede, Declare, Pass, Play, Raise, Rules
from bot.engine.hand import Hand
from bot.engine.moves import (
    MoveRefused,
    bet_or_raise,
    play_of_rank,
    read_cards,
    read_move,
    read_play,
    read_rank,
)
from bot.engine.views import SeatView

C = Card.parse


def test_an_amount_is_the_bet_or_the_raise_the_legal_actions_allow() -> None:
    assert bet_or_raise([Pass(), Bet(10)], 30) == Bet(30)
    assert bet_or_raise([Call(), Raise(20)], 60) == Raise(60)
    with pytest.raises(MoveRefused) as refused:
        bet_or_raise([Pass(), Call()], 60)  # a bet to call, none to raise
    assert refused.value.code == "no_bet_now"
    # the seat's view says whether there is a bet: the move of that kind, for the engine to
    # refuse with its own reason (a capped bet, another phase, another seat's turn)
    assert bet_or_raise([Pass(), Call()], 60, bet_made=True) == Raise(60)
    assert bet_or_raise([], 60, bet_made=False) == Bet(60)


def test_cards_are_read_with_spaces_or_commas_and_the_first_bad_word_is_named() -> None:
    assert read_cards("5c 6c") == (C("5c"), C("6c"))
    assert read_cards("1d,1s") == (C("1d"), C("1s"))
    with pytest.raises(MoveRefused) as refused:
        read_cards("5c 11x 6c")
    assert (refused.value.code, refused.value.params) == ("bad_cards", {"word": "11x"})
    with pytest.raises(MoveRefused) as empty:
        read_cards("  ")
    assert empty.value.params == {"word": ""}


@pytest.mark.parametrize(("text", "rank"), [("5", 5), (" 10 ", 10), ("0", None), ("11", None),
                                            ("5c", None), ("٥", None), ("9" * 30, None)])
def test_a_rank_alone(text: str, rank: int | None) -> None:
    assert read_rank(text) == rank


def test_a_rank_names_its_one_legal_play_else_the_plays_are_listed() -> None:
    fives, aces = Play((C("5c"),)), Play((C("1d"), C("1s")))
    legal = [fives, aces]
    assert play_of_rank(5, legal) == fives
    assert read_play("1", legal) == aces
    assert read_play("5c 6c", legal) == Play((C("5c"), C("6c")))
    assert read_play("7", []) == Play(())  # no play at all: the engine says why
    with pytest.raises(MoveRefused) as none:
        play_of_rank(7, legal)
    assert none.value.code == "rank_none" and none.value.params["plays"] == (fives, aces)
    other_five = Play((C("5d"),))
    with pytest.raises(MoveRefused) as two:
        play_of_rank(5, [fives, other_five])
    assert two.value.code == "rank_ambiguous"
    assert two.value.params["plays"] == (fives, other_five)


def betting_view() -> SeatView:
    """The view of the seat to act at the first bet of a real hand (nobody bet yet)."""
    hand = Hand.start(Rules(players=3), [1000] * 3, 0, seed=1)
    assert hand.to_act is not None
    view = hand.seat_view(hand.to_act)
    assert view.phase == "small_point" and view.betting is not None
    assert not view.betting.level and any(isinstance(a, Bet) for a in view.legal)
    return view


def test_bet_and_raise_are_one_move_read_by_the_betting_level() -> None:
    """Issue 35: "bet N after a bet = raise" was the terminal's own rule; it is the reader's."""
    view = betting_view()
    for typed in ("bet 30", "raise 30", "30", " Bet   30 "):
        assert read_move(typed, view) == Bet(30), typed
    betting = view.betting
    assert betting is not None
    raised = replace(view, legal=(Pass(), Call(), Raise(70)),
                     betting=replace(betting, level=50))
    for typed in ("bet 60", "raise 60", "60"):
        assert read_move(typed, raised) == Raise(60), typed
    capped = replace(raised, legal=(Pass(), Call()), bet_range=None,
                     betting=replace(betting, level=200, bet_range=None))
    assert read_move("raise 300", capped) == Raise(300)  # the engine says the cap
    assert read_move("raise", capped) == Raise(0)
    for verb, seen in (("bet", view), ("raise", raised)):
        with pytest.raises(MoveRefused) as need:
            read_move(verb, seen)
        assert (need.value.code, need.value.params) == ("need_amount", {"verb": verb})
    assert (read_move("pass", view), read_move("call", raised)) == (Pass(), Call())
    assert read_move("concede", view) == Concede()


@pytest.mark.parametrize("typed", ["", "bet 40 60", "bet ²", "bet 10.5", "pass 5", "Ω", "40x",
                                   "fold", "bet " + "9" * 5000])
def test_what_is_no_move_is_refused_with_a_code(typed: str) -> None:
    with pytest.raises(MoveRefused) as refused:
        read_move(typed, betting_view())
    assert refused.value.code == "not_a_move"


def test_the_stoppa_reads_cards_a_rank_or_a_card_of_a_play() -> None:
    view = betting_view()
    fives, aces = Play((C("5c"),)), Play((C("1d"), C("1s")))
    stoppa = replace(view, phase="stoppa", betting=None, bet_range=None, legal=(fives, aces))
    assert read_move("5c 6c", stoppa) == Play((C("5c"), C("6c")))
    assert read_move("play 5", stoppa) == read_move("5", stoppa) == fives
    assert read_move("1s", stoppa) == read_move("play 1d", stoppa) == aces  # aces together
    assert read_move("7d", stoppa) == Play((C("7d"),))  # not held: the engine names it
    with pytest.raises(MoveRefused) as what:
        read_move("play", stoppa)
    assert what.value.params == {"plays": (fives, aces)}
    for typed, code in (("play 11", "bad_cards"), ("11", "not_a_move"), ("7", "rank_none")):
        with pytest.raises(MoveRefused) as refused:
            read_move(typed, stoppa)
        assert refused.value.code == code, typed
    assert read_move("bet 20", stoppa) == Bet(20)  # the engine: not a betting round


def test_a_move_of_another_phase_is_read_without_its_cards() -> None:
    view = betting_view()
    assert read_move("play 5c", view) == Play(())
    assert read_move("declare 7d", view) == Declare(())
    showdown = replace(view, phase="showdown", betting=None, legal=())
    assert read_move("declare 7d 1d", showdown) == Declare((C("7d"), C("1d")))
    with pytest.raises(MoveRefused) as bad:
        read_move("declare 11c", showdown)
    assert bad.value.params == {"word": "11c"}
