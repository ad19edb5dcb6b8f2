"""The expert CPU level: a search over its own moves in every phase, from its seat's view.

- Betting (R-8): the hidden cards are sampled as `hard` samples them (weighted by what each
  opponent's bets say, shown cards kept with their seat), then every move it may make (pass,
  call, bets and raises of five pot sizes and of a quarter and half the max bet) is played out
  to the end of the round on each sample against a model of the opponents' answers, with its
  own answer to a raise chosen per information set (`bet_search`).
- Declaring (R-9): each point it may declare (and conceding) is weighed by its chance to beat
  the contenders still to show, on sampled holdings of theirs, against the cards it would reveal
  for the big point and the stoppa; a lower point hides cards when it wins as surely.
- The stoppa (R-12): every opening is searched as `hard` searches it, with twice the budget, on
  deals of the hidden cards that keep what the plays told (a seat that said "senza X" holds no
  X; one that played an ace holds no ace: `evidence`).

Every budget is a count (samples, simulated card plays), never the clock, and `budget` scales
them all: a decision depends only on the seed and on what the seat saw. The table service runs
`choose` in a thread, as for every CPU level.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace

from bot.engine.actions import Action, Bet, Declare, Raise
from bot.engine.events import Event
from bot.engine.views import SeatView
from bot.players.base import action_kind, amount_range, with_amount
from bot.players.bet_search import Responder, Round, move_values
from bot.players.estimate import Opponent, Sample, sample_points, win_share
from bot.players.evidence import deal_hidden, read_lacks
from bot.players.knowledge import SUIT_INDEX, Knowledge, point_key
from bot.players.shedding import Counts
from bot.players.strategy import (
    BetSpot,
    DecisionFigures,
    Style,
    ThinkingPlayer,
    contenders_after,
    declare_choices,
    declared_key,
    shown_this_showdown,
)

EXPERT = Style(
    samples=400,
    model=True,
    sizes=(0.0, 0.5, 1.0, 2.0, 99.0),
    tightness=0.3,
    aggression=2.4,  # bets read as strength three times as much as hard does: measured best
    margin=0.0,
    hide=True,
    search=True,
    stoppa_samples=600,
    stoppa_nodes=60_000,
    safety=None,
)

#: chips a shown card is assumed to cost later (what it tells the others for the big point and
#: the stoppa); a card of the seat's big-point suit shown at a small point costs more
SHOWN_CARD_COST = 1.0
BIG_SUIT_CARD_COST = 3.0


def scaled(style: Style, budget: float) -> Style:
    """`style` with every count budget multiplied by `budget` (at least one sample)."""
    return replace(
        style,
        samples=max(1, round(style.samples * budget)),
        stoppa_samples=max(1, round(style.stoppa_samples * budget)),
        stoppa_nodes=max(1, round(style.stoppa_nodes * budget)),
    )


class ExpertPlayer(ThinkingPlayer):
    """Searches its moves at every phase (see the module docstring); `budget` scales its
    sample and node counts (the Hint uses a smaller one)."""

    style = EXPERT
    #: the answers it expects to its bets (an opponent raises from the top fifth of points)
    responder = Responder(raise_above=0.8)
    #: bet and raise levels weighed besides the style's, as fractions of the max bet
    max_bet_sizes: tuple[float, ...] = (0.25, 0.5)

    def __init__(
        self, seed: int | None = None, name: str = "expert", budget: float = 1.0
    ) -> None:
        super().__init__(seed, name, scaled(EXPERT, budget) if budget != 1.0 else None)
        #: the events the seat saw this hand (the stoppa's evidence is read from them)
        self.seen: Sequence[Event] = ()

    def choose(
        self, view: SeatView, legal: Sequence[Action], events: Sequence[Event] = ()
    ) -> Action:
        """As every thinking player; the events are kept for the stoppa's evidence."""
        self.seen = events
        return super().choose(view, legal, events)

    # --- the stoppa: hidden cards dealt as the plays allow ---------------------------------

    def stoppa_deal(self) -> Callable[[Knowledge, random.Random], list[Counts]] | None:
        lacks = read_lacks(self.seen, -1)

        def deal(know: Knowledge, rng: random.Random) -> list[Counts]:
            return deal_hidden(know, lacks, rng)

        return deal

    # --- R-8 betting: a search over its own moves ------------------------------------------

    def opponent_samples(
        self,
        know: Knowledge,
        my_cards: list[int],
        opponents: list[Opponent],
        big: bool,
        samples: int,
        deadline: float | None = None,
    ) -> list[Sample]:
        """The opponents' points as the seat may imagine them: the hidden cards dealt
        `samples` times, weighted by what their bets say (`estimate.sample_points`). One
        method, so that `bench_players.py ceiling` can measure what perfect reading would be
        worth by giving a clairvoyant copy the true cards here."""
        return sample_points(know, my_cards, opponents, big=big, samples=samples,
                             rng=self.rng, model=True, deadline=deadline)

    def bet_levels(
        self, view: SeatView, know: Knowledge, legal: Sequence[Action], spot: BetSpot
    ) -> list[tuple[int, Action]]:
        """The style's levels (fractions of the pot), and fractions of the stakes' max bet
        (`max_bet_sizes`): a small pot's fractions alone leave only 10, 20 and the max."""
        moves = super().bet_levels(view, know, legal, spot)
        seen = {level for level, _ in moves}
        cip = know.rules.cip
        for action in legal:
            if not isinstance(action, Bet | Raise):
                continue
            low, high = amount_range(view, action)
            for f in self.max_bet_sizes:
                level = min(high, max(low, round(know.rules.max_bet * f / cip) * cip))
                if level not in seen:
                    seen.add(level)
                    moves.append((level, with_amount(action, level)))
        return moves

    def _bet(
        self, view: SeatView, know: Knowledge, legal: Sequence[Action], deadline: float | None
    ) -> Action:
        spot = self.bet_spot(view, know)
        me, players = know.seat, know.players
        spot.opponents.sort(key=lambda o: (o.seat - me) % players)
        samples = self.opponent_samples(know, spot.my_cards, spot.opponents, spot.big,
                                         self.style.samples, deadline)
        moves = self.bet_levels(view, know, legal, spot)
        betting = view.betting
        state = Round(
            pot=spot.pot,
            my_bet=spot.my_bet,
            my_chips=know.chips[me],
            level=betting.level if betting is not None else 0,
            cip=know.rules.cip,
            max_bet=betting.max_bet if betting is not None else know.rules.max_bet,
            opponents=spot.opponents,
        )
        values = move_values(state, samples, [level for level, _ in moves], self.responder)
        passing = {action_kind(a): a for a in legal}.get("pass")
        scored = {str(act): values[level] for level, act in moves}
        if passing is not None:
            scored[str(passing)] = 0.0
        self.last = DecisionFigures(samples=len(samples), win=win_share(samples),
                                    cut=len(samples) < self.style.samples, values=scored)
        if not moves:
            return passing if passing is not None else legal[0]
        level, action = max(moves, key=lambda m: (values[m[0]], -m[0]))
        if values[level] > self.style.margin or passing is None:
            return action
        return passing

    # --- R-9 declaring: weigh each point it may show ----------------------------------------

    def _declare(self, view: SeatView, know: Knowledge, legal: Sequence[Action]) -> Action:
        declares, concede = declare_choices(legal)
        if not declares:
            return concede if concede is not None else legal[0]
        my_prio = know.priority(know.seat)
        to_beat = shown_this_showdown(view)
        key = declared_key(know.by_total)

        def beats(mine: tuple[int, int], other: tuple[int, int], prio: int) -> bool:
            return mine > other or (mine == other and my_prio < prio)

        winners = [
            a for a in declares
            if to_beat is None or beats(key(a), to_beat[0], know.priority(to_beat[1]))
        ]
        if not winners:
            return super()._declare(view, know, legal)  # concede, unless a side pot is open
        chances = self._declare_chances(view, know, winners, key, beats)
        stake = _stake(view)
        big_suit = _big_suit_of(know)
        small = view.deal_no is not None
        scored = {
            str(a): chances[i] * stake
            - sum(SHOWN_CARD_COST + (BIG_SUIT_CARD_COST if small and c.suit_index == big_suit
                                     else 0.0) for c in a.cards)
            for i, a in enumerate(winners)
        }
        if concede is not None:
            scored[str(concede)] = 0.0
        self.last = DecisionFigures(values=scored)
        best = max(range(len(winners)), key=lambda i: (scored[str(winners[i])], key(winners[i])))
        return winners[best]

    def _declare_chances(
        self,
        view: SeatView,
        know: Knowledge,
        winners: list[Declare],
        key: Callable[[Declare], tuple[int, int]],
        beats: Callable[[tuple[int, int], tuple[int, int], int], bool],
    ) -> list[float]:
        """Each declaration's weighted chance to beat every contender still to show (their
        best points sampled as in betting; 1.0 for all when nobody shows after the seat)."""
        if contenders_after(view) == 0:
            return [1.0] * len(winners)
        showdown = view.showdown
        assert showdown is not None  # contenders_after is 0 without one
        order = list(showdown.order)
        later = {s for s in order[order.index(know.seat) + 1 :] if s not in showdown.conceded}
        spot = self.bet_spot(view, know)
        opponents = [o for o in spot.opponents if o.seat in later]
        best_cards = [c.index for c in max(winners, key=key).cards]
        samples = self.opponent_samples(know, best_cards, opponents, spot.big,
                                         max(1, self.style.samples // 2))
        total = sum(s.weight for s in samples) or 1.0
        prios = [know.priority(o.seat) for o in opponents]
        chances = []
        for a in winners:
            mine = key(a)
            won = sum(
                s.weight for s in samples
                if all(beats(mine, k, p) for k, p in zip(s.keys, prios, strict=True))
            )
            chances.append(won / total)
        return chances


def _stake(view: SeatView) -> int:
    """The chips a showdown is for: its pot and every bet of its round."""
    pots = view.pots
    if view.deal_no is None:
        base = pots.big
    else:
        base = pots.small[view.deal_no] if view.deal_no < len(pots.small) else 0
    return base + sum(pots.bets)


def _big_suit_of(know: Knowledge) -> int:
    """The suit of the seat's best point over its whole hand."""
    return max(range(4), key=lambda s: point_key(
        [c for c in know.mine if SUIT_INDEX[c] == s], know.by_total))


__all__ = ["EXPERT", "ExpertPlayer", "scaled"]
