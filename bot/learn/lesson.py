"""Play the guided hand up to a step, and judge the learner's answer.

A step's state is rebuilt by replaying the script (the asked moves, the CPU players' scripted
moves): a few hundred microseconds, and nothing to store or lose.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from bot.engine import Hand
from bot.engine.actions import Action, Bet, Call, Concede, Declare, Pass, Play
from bot.engine.events import Event
from bot.engine.views import SeatView
from bot.learn.script import CALLERS, DEALER, DECK, LEARNER, PLAYERS, RULES, STACK, STEPS, Step


@dataclass(frozen=True, slots=True)
class LessonStep:
    """The hand where step `index` asks its move (`step` None: the lesson is over), the
    learner's view of it, and what happened since the learner's previous move (`events`:
    what the learner may see, their own deals included)."""

    index: int
    step: Step | None
    hand: Hand
    view: SeatView
    events: tuple[Event, ...]

    @property
    def over(self) -> bool:
        return self.step is None


@dataclass(frozen=True, slots=True)
class Answer:
    """The lesson's verdict on a move: `right` (then `next` is the following step), or a
    legal move the lesson does not ask for (`wrong`, the same step asks again), or a move that
    is not possible here at all (`stale`: a button of an older message)."""

    verdict: str
    move: Action | None
    next: LessonStep

    @staticmethod
    def stale(step: LessonStep) -> Answer:
        """A click that names no move of this step: the step is shown again."""
        return Answer("stale", None, step)


def cpu_move(hand: Hand, seat: int) -> Action:
    """The scripted CPU move: call where the script says this seat calls, else pass; show the
    best point; open the stoppa with the lowest rank."""
    view = hand.seat_view(seat)
    if view.phase in ("small_point", "big_point"):
        round_no = 0 if view.phase == "big_point" else (view.deal_no or 0) + 1
        facing = view.betting is not None and bool(view.betting.to_call)
        return Call() if facing and CALLERS.get(round_no) == seat else Pass()
    if view.phase == "showdown":
        assert view.best_point is not None
        return Declare(view.best_point.cards)
    return hand.legal_actions()[0]


def same_move(move: Action, asked: Action) -> bool:
    """Whether `move` is the asked one (a point or an opening by its cards' set and ranks)."""
    if isinstance(asked, Declare) and isinstance(move, Declare):
        return set(move.cards) == set(asked.cards)
    if isinstance(asked, Play) and isinstance(move, Play):
        return {c.rank for c in move.cards} == {c.rank for c in asked.cards}
    return move == asked


def _visible(events: list[Event]) -> tuple[Event, ...]:
    return tuple(e for e in events if not e.private or e.seat == LEARNER)


def _run_cpus(hand: Hand) -> None:
    while hand.to_act is not None and hand.to_act != LEARNER:
        hand.act(hand.to_act, cpu_move(hand, hand.to_act))


@lru_cache(maxsize=len(STEPS) + 1)
def lesson_step(index: int) -> LessonStep:
    """Step `index` (0 .. len(STEPS); the last is the end of the lesson)."""
    if not 0 <= index <= len(STEPS):
        raise ValueError(f"no lesson step {index}")
    hand = Hand.start(RULES, [STACK] * PLAYERS, DEALER, deck=DECK)
    _run_cpus(hand)
    start = 0
    for done in STEPS[:index]:
        start = len(hand.events)
        hand.act(LEARNER, _legal_form(hand, done.asked))
        _run_cpus(hand)
    step = STEPS[index] if index < len(STEPS) else None
    if step is not None and hand.to_act != LEARNER:
        raise AssertionError(f"the script does not reach step {step.name}")
    return LessonStep(index, step, hand, hand.seat_view(LEARNER), _visible(hand.events[start:]))


def _legal_form(hand: Hand, move: Action) -> Action:
    """`move` as the engine takes it (an opening names the card the engine lists)."""
    if isinstance(move, Play):
        for legal in hand.legal_actions():
            if same_move(legal, move):
                return legal
    return move


def choices(step: LessonStep) -> tuple[Action, ...]:
    """The moves offered at a step, as a real table offers them: pass, the bet (of the
    amount the lesson asks, or the smallest), call; declare the best point or concede; each
    possible opening of the stoppa."""
    if step.step is None:
        return ()
    view, asked = step.view, step.step.asked
    if view.phase == "stoppa":
        return tuple(view.legal)
    if view.phase == "showdown":
        assert view.best_point is not None
        return (Declare(view.best_point.cards), Concede())
    out: list[Action] = [Pass()]
    if view.bet_range is not None:
        out.append(asked if isinstance(asked, Bet) else Bet(view.bet_range[0]))
    if any(isinstance(a, Call) for a in view.legal):
        out.append(Call())
    return tuple(out)


class Lesson:
    """The guided hand: `at(index)` and `answer(index, move)`."""

    steps: tuple[Step, ...] = STEPS

    def at(self, index: int) -> LessonStep:
        return lesson_step(index)

    def answer(self, index: int, move: Action) -> Answer:
        current = lesson_step(index)
        if current.step is None or not any(same_move(move, c) for c in choices(current)):
            return Answer("stale", move, current)
        if same_move(move, current.step.asked):
            return Answer("right", move, lesson_step(index + 1))
        return Answer("wrong", move, current)
