"""The Hint button of a practice table: what the expert CPU player would do in the member's
seat, at a fixed count budget (`HINT_BUDGET` of the expert's samples and nodes), and one line why.

The hint is computed exactly as a CPU player's move is: from the seat's own view (its cards,
what the table saw), never from the hand itself, so it cannot know a card the member cannot
see. Its reason names only numbers and the member's own or already shown cards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.engine.actions import Action, Bet, Call, Concede, Declare, Pass, Play, Raise
from bot.engine.events import Event
from bot.engine.views import SeatView
from bot.i18n import t
from bot.players.expert import ExpertPlayer

#: a fixed seed: the same seat view always gets the same hint
HINT_SEED = 55
#: the share of the expert's count budget a hint gets (sized for a p95 under 200 ms here:
#: bench/bench_hint.py); the hint-quality figure compares it with ten times as much
HINT_BUDGET = 0.5
#: a bet with less than this chance (in %) of the best point is a bluff
BLUFF_BELOW = 40


@dataclass(frozen=True, slots=True)
class Hint:
    """The suggested `action`, and the reason as a catalogue key (`hint.<reason>`) with its
    parameters (numbers and card codes the seat may see)."""

    action: Action
    reason: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def text(self, lang: str) -> str:
        """The hint in `lang`: the move, then why."""
        return t(f"hint.{self.reason}", lang, move=move_words(self.action, lang), **self.params)


def move_words(action: Action, lang: str) -> str:
    """The move in words: "bet 40", "declare 7d 6d", "play 5"."""
    if isinstance(action, Bet):
        return t("hint.move.bet", lang, amount=action.amount)
    if isinstance(action, Raise):
        return t("hint.move.raise", lang, amount=action.to)
    if isinstance(action, Declare):
        return t("hint.move.declare", lang, cards=" ".join(c.code for c in action.cards))
    if isinstance(action, Play):
        return t("hint.move.play", lang, rank=action.cards[0].rank)
    kind = {Pass: "pass", Call: "call", Concede: "concede"}[type(action)]
    return t(f"hint.move.{kind}", lang)


def hint(
    view: SeatView, legal: Sequence[Action], events: Sequence[Event] = (),
    budget: float = HINT_BUDGET,
) -> Hint:
    """What the expert CPU would do in `view`'s seat, among `legal`, and why (`budget`: the
    share of the expert's counts it may spend; the same view and budget give the same hint)."""
    player = ExpertPlayer(seed=HINT_SEED, name="hint", budget=budget)
    action = player.choose(view, legal, events)
    figures = player.last
    if isinstance(action, Play):
        gain = figures.gains.get(action.cards[0].rank)
        if gain is None:
            return Hint(action, "stoppa_plain")
        return Hint(action, "stoppa", {"gain": round(gain)})
    if isinstance(action, Declare | Concede):
        return _showdown_hint(view, action)
    point = view.best_point
    params = {
        "win": round(100 * figures.win),
        "value": point.total if point else 0,
        "count": point.count if point else 0,
    }
    if isinstance(action, Pass):
        return Hint(action, "pass", params)
    return Hint(action, "bluff" if params["win"] < BLUFF_BELOW else "bet", params)


def _showdown_hint(view: SeatView, action: Declare | Concede) -> Hint:
    best = view.best_point
    shown = [p for p in view.declared if p.pot == ("big" if view.deal_no is None else "small")
             and p.deal == view.deal_no and p.seat != view.seat]
    if isinstance(action, Concede):
        top = max((p.value for p in shown), default=0)
        return Hint(action, "concede", {"shown": top})
    value = sum(c.primiera for c in action.cards)
    if best is not None and value < best.total:
        hidden = [c.code for c in best.cards if c not in action.cards]
        return Hint(action, "declare_lower",
                    {"value": value, "best": best.total, "hidden": " ".join(hidden)})
    return Hint(action, "declare_best", {"value": value})
