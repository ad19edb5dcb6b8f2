"""The guided hand (bot/learn): every step is reached, each shows the point it names (checked
by playing the hand, not by trusting the script), a wrong move is explained and changes
nothing, and every text names the learner's own cards."""

from __future__ import annotations

import pytest

from bot.engine.actions import Bet, Concede, Declare, Pass, Play
from bot.i18n.cards import cards_in_sentence
from bot.learn import STEPS, Lesson
from bot.learn.lesson import choices, lesson_step, same_move
from bot.learn.script import DEALER, LEARNER
from bot.learn.texts import screen

LANGS = ("en", "it")


def _declared(index: int, deal: int | None) -> dict[int, int]:
    view = lesson_step(index).view
    return {p.seat: p.value for p in view.declared if p.deal == deal}


def test_every_step_is_reached_by_the_asked_moves_and_the_hand_ends() -> None:
    lesson = Lesson()
    step = lesson.at(0)
    for index, asked in enumerate(STEPS):
        assert step.index == index and step.step == asked
        assert step.view.your_turn
        answer = lesson.answer(index, asked.asked)
        assert answer.verdict == "right"
        step = answer.next
    assert step.over and step.view.phase == "over"


def test_small_point_1_three_cards_beat_a_higher_two_card_sum() -> None:
    shown = lesson_step(2).view.declared
    mine = next(p for p in shown if p.seat == LEARNER)
    theirs = next(p for p in shown if p.seat != LEARNER)
    assert (len(mine.cards), len(theirs.cards)) == (3, 2)
    assert mine.value < theirs.value  # a lower sum, and still the winner
    assert lesson_step(2).view.seats[LEARNER].chips > 1000 - 60


def test_small_point_2_is_a_tie_won_on_priority() -> None:
    values = _declared(4, 1)
    assert len(values) == 2 and len(set(values.values())) == 1
    eldest = lesson_step(4).view.eldest
    assert eldest == LEARNER and lesson_step(4).view.dealer == DEALER


def test_the_bluff_makes_everyone_pass_and_a_hand_without_bets_goes_to_the_dealer() -> None:
    bluff = lesson_step(4)
    assert bluff.view.best_point is not None and bluff.view.best_point.count == 1
    after = lesson_step(5)
    assert [e.kind for e in after.events if e.kind in ("pass", "bet")].count("pass") == 3
    dealer_chips_before = lesson_step(5).view.seats[DEALER].chips
    assert lesson_step(6).view.seats[DEALER].chips == dealer_chips_before + 10


def test_the_big_point_is_55_with_seven_six_and_ace() -> None:
    point = lesson_step(6).view.best_point
    assert point is not None and point.total == 55
    assert sorted(c.rank for c in point.cards) == [1, 6, 7]
    assert len({c.suit for c in point.cards}) == 1


def test_the_stoppa_shows_a_senza_and_the_learner_closes_and_is_paid_per_card() -> None:
    aces = lesson_step(9)
    senza = next(e for e in aces.events if e.kind == "senza")
    assert senza.seat == LEARNER and senza.data()["needed"] == 5
    end = lesson_step(len(STEPS))
    assert end.view.special is None
    assert end.view.stoppa is not None and end.view.stoppa.winner == LEARNER
    assert end.view.result is not None and sum(end.view.result) == 0  # no chip made or lost
    left = {s.seat: s.card_count for s in end.view.seats if s.seat != LEARNER}
    assert all(n > 0 for n in left.values())
    for lang in LANGS:
        text = screen(end, lang, "Anna").text
        for cards in left.values():
            assert str(10 * cards) in text


@pytest.mark.parametrize("lang", LANGS)
def test_each_step_names_the_learners_own_cards(lang: str) -> None:
    for index in range(len(STEPS)):
        step = lesson_step(index)
        text = screen(step, lang, "Anna").text
        shown = step.view.hand if step.view.phase == "stoppa" else step.view.eligible
        if step.view.phase in ("showdown", "big_point"):
            assert step.view.best_point is not None
            shown = step.view.best_point.cards
        assert cards_in_sentence([c.code for c in shown], lang) in text, (lang, step.step)


@pytest.mark.parametrize("lang", LANGS)
def test_a_wrong_legal_move_is_explained_and_asked_again(lang: str) -> None:
    lesson = Lesson()
    wrong_seen = 0
    for index, step in enumerate(STEPS):
        current = lesson.at(index)
        for move in choices(current):
            if same_move(move, step.asked):
                continue
            answer = lesson.answer(index, move)
            assert answer.verdict == "wrong" and answer.next is current
            text = screen(current, lang, "Anna", answer).text
            assert text != screen(current, lang, "Anna").text
            wrong_seen += 1
    assert wrong_seen >= len(STEPS)


def test_a_move_not_offered_is_stale_and_changes_nothing() -> None:
    lesson = Lesson()
    assert lesson.answer(0, Play((lesson.at(8).view.hand[0],))).verdict == "stale"
    assert lesson.answer(1, Bet(10)).verdict == "stale"
    assert lesson.answer(len(STEPS), Pass()).verdict == "stale"


def test_the_offered_moves_are_the_real_tables_kinds() -> None:
    kinds = {type(m) for i in range(len(STEPS)) for m in choices(lesson_step(i))}
    assert kinds == {Pass, Bet, Declare, Concede, Play}
