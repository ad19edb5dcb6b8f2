"""The one reading of a move (`bot.engine.moves`): each way of writing a move names one
action, or a typed refusal that says why."""

from __future__ import annotations

import pytest

from bot.engine import Bet, Call, Card, Pass, Play, Raise
from bot.engine.moves import (
    MoveRefused,
    bet_or_raise,
    play_of_rank,
    read_cards,
    read_play,
    read_rank,
)

C = Card.parse


def test_an_amount_is_the_bet_or_the_raise_the_legal_actions_allow() -> None:
    assert bet_or_raise([Pass(), Bet(10)], 30) == Bet(30)
    assert bet_or_raise([Call(), Raise(20)], 60) == Raise(60)
    with pytest.raises(MoveRefused) as refused:
        bet_or_raise([Pass(), Call()], 60)  # a bet to call, none to raise
    assert refused.value.code == "no_bet_now"


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
