"""What the lesson says at each step, in the learner's language, naming their real cards.

Every number and card in a text is read from the learner's own view of the hand (their cards,
their best point, the points shown, the cards left at the end), never written into the text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine import Hand
from bot.engine.actions import Action, Bet, Call, Concede, Declare, Pass, Play
from bot.engine.cards import Card
from bot.engine.events import Played, Senza
from bot.engine.views import SeatView
from bot.i18n import t
from bot.i18n.cards import card_in_sentence, cards_in_sentence
from bot.learn.lesson import Answer, LessonStep, choices
from bot.learn.script import LEARNER, STEPS
from bot.render.narration import Narrator

#: the three cards of 55 (R-7): 7, 6 and Ace of one suit
FIFTY_FIVE = (7, 6, 1)


@dataclass(frozen=True, slots=True)
class Screen:
    """One screen of the lesson: a title, what happened, the lesson's words, and the moves
    offered (each with its label)."""

    title: str
    happened: tuple[str, ...]
    text: str
    moves: tuple[tuple[Action, str], ...]


def names(lang: str, learner: str | None = None) -> list[str]:
    """The players' names: the learner (their own name, or "You") and the CPU players."""
    cpus = [n.strip() for n in t("learn.cpu_names", lang).split(",")]
    return [learner or t("learn.you", lang), *cpus]


def _cards(cards: Sequence[Card], lang: str) -> str:
    """Cards as a sentence names them ("il Tre di Coppe (3c) e il Re di Coppe (10c)")."""
    return cards_in_sentence([c.code for c in cards], lang)


def move_label(move: Action, lang: str) -> str:
    """A button's words for a move ("Bet 10", "Declare 55", "Play 6")."""
    if isinstance(move, Bet):
        return t("learn.move.bet", lang, amount=move.amount)
    if isinstance(move, Declare):
        return t("learn.move.declare", lang, value=sum(c.primiera for c in move.cards))
    if isinstance(move, Play):
        return t("learn.move.play", lang, rank=move.cards[0].rank)
    kind = {Pass: "pass", Call: "call", Concede: "concede"}[type(move)]
    return t(f"learn.move.{kind}", lang)


def _other(view: SeatView) -> int | None:
    """The CPU player who contends with the learner: at a showdown, or the last one shown."""
    if view.showdown is not None:
        return next((s for s in view.showdown.order if s != LEARNER), None)
    shown = [p.seat for p in view.declared if p.seat != LEARNER]
    return shown[-1] if shown else None


def _last_shown(view: SeatView, seat: int) -> int:
    values = [p.value for p in view.declared if p.seat == seat]
    return values[-1] if values else 0


def run_of(hand: Hand, move: Action) -> tuple[str, int | None]:
    """The learner's turn if they opened with `move`: the ranks played ("1-1-2-3-4") and the
    rank they would then miss (None: they go out or the turn ends otherwise)."""
    trial = Hand.from_json(hand.to_json())
    events = trial.act(LEARNER, move)
    ranks: list[str] = []
    for event in events:
        if event.seat != LEARNER:
            break
        if isinstance(event, Played):
            ranks.extend(str(int(code[:-1])) for code in event.cards)
        elif isinstance(event, Senza):
            return "-".join(ranks), event.needed
    return "-".join(ranks), None


def _fifty_five(view: SeatView, lang: str) -> dict[str, Any]:
    """The pair of 55's cards the learner holds in one suit, its value, the card missing."""
    by_suit = {
        s: [c for c in view.hand if c.suit == s and c.rank in FIFTY_FIVE] for s in "cdsb"
    }
    suit = max(by_suit, key=lambda s: (len(by_suit[s]), sum(c.primiera for c in by_suit[s])))
    held = by_suit[suit]
    missing = next((r for r in FIFTY_FIVE if r not in {c.rank for c in held}), None)
    if missing is None or len(held) < 2:
        return {}
    return {
        "pair": _cards(held, lang),
        "pair_value": sum(c.primiera for c in held),
        "missing": card_in_sentence(f"{missing}{suit}", lang),
    }


def step_params(step: LessonStep, lang: str, who: Sequence[str]) -> dict[str, Any]:
    """Every fact a step's text may name, read from the learner's view."""
    view = step.view
    params: dict[str, Any] = {"dealer": who[view.dealer], "cards": _cards(view.eligible, lang)}
    if step.step is not None and isinstance(step.step.asked, Bet):
        params["amount"] = step.step.asked.amount
    point = view.best_point
    if point is not None:
        params.update(point=_cards(point.cards, lang), value=point.total, count=point.count)
    other = _other(view)
    if other is not None:
        params.update(caller=who[other], their_value=_last_shown(view, other))
    params["prev_value"] = _last_shown(view, LEARNER)
    if view.phase == "small_point" and len(view.hand) >= 2:
        params.update(_fifty_five(view, lang))
    if view.phase == "stoppa" and step.step is not None:
        params["cards"] = _cards(view.hand, lang)
        run, missing = run_of(step.hand, step_move(step))
        params.update(run=run, missing=missing if missing is not None else "")
    return params


def step_move(step: LessonStep) -> Action:
    """The asked move as the engine lists it (an opening names one card of its rank)."""
    assert step.step is not None
    asked = step.step.asked
    if isinstance(asked, Play):
        ranks = {c.rank for c in asked.cards}
        return next(a for a in step.view.legal if isinstance(a, Play) and a.cards[0].rank in ranks)
    return asked


def happened(step: LessonStep, lang: str, who: Sequence[str]) -> tuple[str, ...]:
    """What happened since the learner's last move, as the demo tells it."""
    narrator = Narrator(list(who), lang, show_deals=LEARNER)
    narrator.eldest = step.view.eldest
    return tuple(narrator.lines(step.events) + narrator.flush())


def _end_text(step: LessonStep, lang: str, who: Sequence[str]) -> str:
    view, rules = step.view, step.view.rules
    lines = []
    for seat in view.seats:
        if seat.seat != LEARNER and seat.card_count:
            amount = rules.card_rate * (seat.card_count // rules.cards_per_payment)
            lines.append("- " + t("learn.end.payment", lang, player=who[seat.seat],
                                  amount=amount, cards=seat.card_count))
    result = (view.result or (0,))[LEARNER]
    return t("learn.end.text", lang, rate=rules.card_rate, payments="\n".join(lines),
             result=f"{result:+d}")


def screen(step: LessonStep, lang: str, learner: str | None = None,
           answer: Answer | None = None) -> Screen:
    """The screen of `step`; after a wrong or stale `answer`, what that move would do first."""
    who = names(lang, learner)
    if step.step is None:
        return Screen(t("learn.title_end", lang), happened(step, lang, who),
                      _end_text(step, lang, who), ())
    params = step_params(step, lang, who)
    text = t(f"learn.step.{step.step.name}.text", lang, **params)
    if answer is not None and answer.verdict == "wrong" and answer.move is not None:
        text = f"**{t('learn.not_quite', lang)}.** " + wrong_text(step, answer.move, lang, who) \
            + "\n\n" + text
    elif answer is not None and answer.verdict == "stale":
        text = t("learn.stale", lang) + "\n\n" + text
    title = t("learn.title", lang, step=step.index + 1, total=len(STEPS))
    moves = tuple((m, move_label(m, lang)) for m in choices(step))
    return Screen(title, happened(step, lang, who), text, moves)


def wrong_text(step: LessonStep, move: Action, lang: str, who: Sequence[str]) -> str:
    """What `move` would do at this step, and why the lesson asks for the other."""
    assert step.step is not None
    params = step_params(step, lang, who)
    kind = {Pass: "pass", Bet: "bet", Concede: "concede", Play: "play"}.get(type(move), "pass")
    if isinstance(move, Play):
        run, missing = run_of(step.hand, move)
        params.update(rank=move.cards[0].rank,
                      run_other=run + (f" senza {missing}" if missing is not None else ""))
    return t(f"learn.step.{step.step.name}.wrong_{kind}", lang, **params)
