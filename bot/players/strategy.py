"""The thinking CPU player: betting, declaring and opening the stoppa from its view alone.

One class, `ThinkingPlayer`, tuned by a `Style`; `easy.py` and `hard.py` hold the two styles.

- Betting (R-8): a Monte Carlo estimate of the point's chances (`estimate.py`), turned into
  the expected chips of passing, calling and a few bet or raise levels (pot odds). The hard
  style reads strength into the opponents' bets, as much as the showdowns it has seen say bets
  mean at this table (`reading.py`), expects weak points to fold to a bet (so a late position
  with nobody in yet is worth a steal), bluffs now and then and sometimes slow-plays a very
  strong point.
- Declaring (R-9): the best point by default; the hard style, when nobody shows after it, shows
  the fewest cards that still beat everything already shown (the rest stay hidden for the big
  point and the stoppa), and concedes without showing when nothing it holds can win (unless a
  side pot that the shown point did not match is still to be won).
- Position (R-3 priority) enters the estimate: ties go to the higher priority, the seats yet to
  act after this one may still call or fold, and with no bet the dealer takes the pot.
- The stoppa (R-12): the easy style opens with a quick heuristic; the hard style searches its
  openings over sampled splits of the hidden cards (`search.py`), within a budget of simulated
  card plays.

Every decision reads only the seat's `SeatView`, the events it saw and the legal actions, and is
deterministic given the
seed: the work per decision is bounded by counts (Monte Carlo deals, simulated card plays), never
by the clock. `Style.safety` is a wall-clock net far above the normal cost (the hard level's
decisions measure at most ~0.2 s here, the net is 1 s); if it ever cuts a search, the decision
is logged at DEBUG and `last["cut"]` is set, and only then can a replay differ.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from bot.engine.actions import Action, Concede, Declare, Play
from bot.engine.events import Event
from bot.engine.views import SeatView
from bot.players.base import action_kind, amount_range, with_amount
from bot.players.estimate import Opponent, Sample, expected_gain, sample_points, win_share
from bot.players.knowledge import SUIT_INDEX, Knowledge, point_key, read_view
from bot.players.reading import BetReading
from bot.players.search import Payment, heuristic_choice, search_opening
from bot.players.shedding import Counts

log = logging.getLogger(__name__)


@dataclass(slots=True)
class DecisionFigures:
    """What the last decision measured: the time it took; when betting, the opponent hands
    sampled and the share of them the seat beat (``win``); at the stoppa, the deals sampled,
    the search nodes and the mean gain of each opening rank; ``values``: the expected chips the
    expert's search gave each move it weighed (keyed by the move's text); ``cut`` when the
    safety net stopped a search early (the decision then depends on timing)."""

    seconds: float = 0.0
    samples: int = 0
    win: float = 0.0
    stoppa_samples: int = 0
    nodes: int = 0
    gains: Mapping[int, float] = field(default_factory=dict, repr=False)
    values: Mapping[str, float] = field(default_factory=dict, repr=False)
    cut: bool = False


@dataclass(frozen=True, slots=True)
class Style:
    """The knobs of a CPU level."""

    samples: int = 200  # Monte Carlo deals per betting decision
    model: bool = True  # read strength into bets, expect folds
    sizes: tuple[float, ...] = (0.0, 0.5, 1.0, 2.0, 99.0)  # bet levels as pot fractions (0: min)
    tightness: float = 0.3  # opponents' assumed calling strength, before pot odds
    aggression: float = 0.8  # how much an opponent's bet says "strong"
    bluff: float = 0.0  # chance to make the smallest bet although it looks unprofitable
    slowplay: float = 0.0  # chance to only call (or bet small) with a very strong point
    margin: float = 0.0  # chips of expected gain needed before putting chips in
    hide: bool = False  # declare the smallest winning point
    search: bool = False  # search stoppa openings (else a heuristic)
    stoppa_samples: int = 400  # at most this many sampled deals per stoppa opening
    stoppa_nodes: int = 30_000  # and no new sample past this many simulated card plays
    safety: float | None = 1.0  # seconds: a wall-clock net that never binds in normal play


class ThinkingPlayer:
    """A CPU player driven by a `Style` (see the module docstring)."""

    style: Style = Style()

    def __init__(self, seed: int | None = None, name: str = "cpu", style: Style | None = None):
        self.name = name
        self.rng = random.Random(seed)
        if style is not None:
            self.style = style
        #: figures of the last decision (samples used...), for the hint, tests and benchmarks
        self.last = DecisionFigures()
        #: what the showdowns seen so far say about the opponents' bets
        self.reading = BetReading()

    # --- entry point ---------------------------------------------------------------------

    def choose(
        self, view: SeatView, legal: Sequence[Action], events: Sequence[Event] = ()
    ) -> Action:
        """Pick an action of `legal` (Bet/Raise possibly at another amount in range); `events`
        (those the seat saw) feed the hard style's reading of the opponents' bets."""
        start = time.perf_counter()
        safety = self.style.safety
        deadline = start + safety if safety is not None else None
        self.last = DecisionFigures()
        kinds = {action_kind(a) for a in legal}
        know = read_view(view)
        if kinds <= {"play"}:
            action = self._open_stoppa(know, legal, deadline)
        elif kinds & {"declare", "concede"}:
            action = self._declare(view, know, legal)
        elif kinds & {"bet", "call", "raise", "pass"}:
            if self.style.model:
                self.reading.observe(events, know)
            action = self._bet(view, know, legal, deadline)
        else:
            action = legal[0]
        self.last.seconds = time.perf_counter() - start
        if self.last.cut:
            log.debug(
                "%s: safety net of %.2f s cut a search (%s): this decision depends on timing",
                self.name,
                safety,
                self.last,
            )
        return action

    # --- the stoppa ----------------------------------------------------------------------

    def _open_stoppa(
        self, know: Knowledge, legal: Sequence[Action], deadline: float | None
    ) -> Action:
        by_rank: dict[int, Action] = {}
        for play in legal:
            if isinstance(play, Play):
                by_rank.setdefault(play.cards[0].rank, play)
        candidates = sorted(by_rank)
        if not self.style.search or len(candidates) == 1:
            self.last = DecisionFigures(stoppa_samples=0)
            return by_rank[heuristic_choice(know, candidates)]
        rules = know.rules
        payment = Payment(rules.card_rate, rules.cards_per_payment)
        result = search_opening(
            know,
            candidates,
            payment,
            self.rng,
            max_samples=self.style.stoppa_samples,
            max_nodes=self.style.stoppa_nodes,
            deadline=deadline,
            deal=self.stoppa_deal(),
        )
        self.last = DecisionFigures(stoppa_samples=result.samples, nodes=result.nodes,
                                    cut=result.cut, gains=result.gains)
        return by_rank[result.rank]

    def stoppa_deal(self) -> Callable[[Knowledge, random.Random], list[Counts]] | None:
        """How the stoppa search deals the hidden cards (None: uniformly, `search.sample_hands`)."""
        return None

    # --- R-9 showdown --------------------------------------------------------------------

    def _declare(self, view: SeatView, know: Knowledge, legal: Sequence[Action]) -> Action:
        declares, concede = declare_choices(legal)
        if not declares:
            return concede if concede is not None else legal[0]
        key = declared_key(know.by_total)
        best = max(declares, key=key)
        if not self.style.hide:
            return best
        to_beat = shown_this_showdown(view)
        if to_beat is None:
            return best  # first to show: the best point, there is nothing to read yet
        top_key, top_seat = to_beat
        my_prio = know.priority(know.seat)
        top_prio = know.priority(top_seat)
        winners = [
            a for a in declares if key(a) > top_key or (key(a) == top_key and my_prio < top_prio)
        ]
        if not winners:
            bets = view.pots.bets
            side_pot = bool(bets) and bets[top_seat] < bets[know.seat]
            if side_pot or concede is None:
                return best  # the shown point cannot take the chips it did not match
            return concede
        if contenders_after(view) > 0:
            return best  # someone still shows after me: do not weaken the point
        big_suit = _big_suit(know)
        return min(
            winners,
            key=lambda a: (
                len(a.cards),
                sum(1 for c in a.cards if c.suit_index == big_suit),
                key(a),
            ),
        )

    # --- R-8 betting ---------------------------------------------------------------------

    def _bet(
        self, view: SeatView, know: Knowledge, legal: Sequence[Action], deadline: float | None
    ) -> Action:
        """The betting move: estimate the point's chances, price each listed move, then pick
        (with the style's slow-play and bluff)."""
        spot = self.bet_spot(view, know)
        samples = sample_points(
            know,
            spot.my_cards,
            spot.opponents,
            big=spot.big,
            samples=self.style.samples,
            rng=self.rng,
            model=self.style.model,
            deadline=deadline,
        )
        options = self._bet_options(view, know, legal, spot, samples)
        self.last = DecisionFigures(samples=len(samples), cut=len(samples) < self.style.samples,
                                    win=win_share(samples))
        passing = {action_kind(a): a for a in legal}.get("pass")
        return self._pick_bet(options, passing, legal, know.rules.cip)

    def bet_spot(self, view: SeatView, know: Knowledge) -> BetSpot:
        """The betting round as this seat sees it: the point's cards, the pot and the
        opponents still in, each weighted by how much its bet says (`Style.aggression`, scaled
        by this table's `reading`)."""
        style = self.style
        betting = view.betting
        pots = view.pots
        me = know.seat
        players = know.players
        bets = list(pots.bets or [0] * players)
        active = list(betting.active) if betting is not None else [True] * players
        allin = list(betting.allin) if betting is not None else [False] * players
        big = view.deal_no is None  # the big point (its betting round or its showdown)
        if big:
            base = pots.big
            sizes = dict(enumerate(know.counts))
            my_cards = know.mine
        else:
            deal_no = view.deal_no or 0
            smalls = pots.small or (0,)
            base = int(smalls[deal_no]) if deal_no < len(smalls) else 0
            deal_size = len(know.new) or 1
            sizes = dict.fromkeys(range(players), deal_size)
            my_cards = know.new
        cip = know.rules.cip
        opponents = [
            Opponent(
                seat=j,
                size=max(1, sizes.get(j, 1)),
                bet=int(bets[j]),
                committed=bets[j] > 0,
                aggression=style.aggression
                * self.reading.factor
                * (0.5 + min(2.0, bets[j] / max(base, cip))),
                allin=bool(allin[j]),
            )
            for j in range(players)
            if j != me and active[j]
        ]
        return BetSpot(big, my_cards, base + sum(bets), int(bets[me]), opponents)

    def _bet_options(
        self,
        view: SeatView,
        know: Knowledge,
        legal: Sequence[Action],
        spot: BetSpot,
        samples: list[Sample],
    ) -> list[tuple[float, int, Action]]:
        """(expected gain, level, action) of the call and of each bet or raise size."""
        return [
            (
                expected_gain(
                    samples,
                    spot.opponents,
                    level=level,
                    my_bet=spot.my_bet,
                    pot=spot.pot,
                    tightness=self.style.tightness,
                    model=self.style.model,
                ),
                level,
                act,
            )
            for level, act in self.bet_levels(view, know, legal, spot)
        ]

    def bet_levels(
        self, view: SeatView, know: Knowledge, legal: Sequence[Action], spot: BetSpot
    ) -> list[tuple[int, Action]]:
        """The moves that put chips in, with the level each brings the seat's bet to: the call,
        then each bet or raise size of the style (`Style.sizes`, fractions of the pot)."""
        betting = view.betting
        cip = know.rules.cip
        out: list[tuple[int, Action]] = []
        by_kind = {action_kind(a): a for a in legal}
        for kind in ("call", "bet", "raise"):
            action = by_kind.get(kind)
            if action is None:
                continue
            if kind == "call":
                current = betting.level if betting is not None else spot.my_bet
                out.append((min(current, spot.my_bet + know.chips[know.seat]), action))
                continue
            low, high = amount_range(view, action)
            wanted = {
                low if f == 0.0 else min(high, max(low, _round(spot.pot * f, cip)))
                for f in self.style.sizes
            }
            out.extend((lv, with_amount(action, lv)) for lv in sorted(wanted))
        return out

    def _pick_bet(
        self,
        options: list[tuple[float, int, Action]],
        passing: Action | None,
        legal: Sequence[Action],
        cip: int,
    ) -> Action:
        """The best-priced move, or passing; a strong point is sometimes slow-played and a
        losing spot sometimes bluffed (`Style.slowplay`, `Style.bluff`)."""
        style = self.style
        if not options:
            return passing if passing is not None else legal[0]
        options.sort(key=lambda o: (o[0], -o[1]), reverse=True)
        gain, _level, action = options[0]
        strong = self.last.win > 0.85
        if strong and style.slowplay and self.rng.random() < style.slowplay:
            cheap = min(options, key=lambda o: o[1])
            if cheap[0] > 0:
                return cheap[2]
        if gain > style.margin or passing is None:
            return action
        if style.bluff and self.rng.random() < style.bluff:
            cheap = min(options, key=lambda o: o[1])
            if cheap[0] > -2 * cip:
                return cheap[2]
        return passing


@dataclass(slots=True)
class BetSpot:
    """A betting round from one seat: whether it is the big point, the seat's eligible cards,
    the pot (base pot plus every bet so far), the seat's own bet and the opponents still in."""

    big: bool
    my_cards: list[int]
    pot: int
    my_bet: int
    opponents: list[Opponent]


def declare_choices(legal: Sequence[Action]) -> tuple[list[Declare], Concede | None]:
    """The points a showdown lets the seat declare, and its concede (None if it may not)."""
    declares = [a for a in legal if isinstance(a, Declare)]
    return declares, next((a for a in legal if isinstance(a, Concede)), None)


def declared_key(by_total: bool) -> Callable[[Declare], tuple[int, int]]:
    """The R-7 ranking key of a declaration's cards."""

    def key(action: Declare) -> tuple[int, int]:
        return point_key([c.index for c in action.cards], by_total)

    return key


def _round(amount: float, step: int) -> int:
    return round(amount / step) * step


def _big_suit(know: Knowledge) -> int:
    """The suit of my best point over my whole hand (the big point's likely suit)."""
    best, suit = (-1, -1), -1
    for s in range(4):
        key = point_key([c for c in know.mine if SUIT_INDEX[c] == s], know.by_total)
        if key > best:
            best, suit = key, s
    return suit


def shown_this_showdown(view: SeatView) -> tuple[tuple[int, int], int] | None:
    """The best (key, seat) declared so far in the current showdown, or None."""
    showdown = view.showdown
    if showdown is None or not showdown.declared:
        return None
    by_total = view.rules.ranking == "total"
    eldest = view.eldest
    players = view.players
    best: tuple[tuple[int, int], int] | None = None
    for seat, point in showdown.declared.items():
        key = point_key([c.index for c in point.cards], by_total)
        if (
            best is None
            or key > best[0]
            or (key == best[0] and (seat - eldest) % players < (best[1] - eldest) % players)
        ):
            best = (key, seat)
    return best


def contenders_after(view: SeatView) -> int:
    """How many contenders still have to show after this seat in the current showdown."""
    showdown = view.showdown
    if showdown is None or view.seat not in showdown.order:
        return 0
    order = list(showdown.order)
    conceded = set(showdown.conceded)
    return sum(1 for s in order[order.index(view.seat) + 1 :] if s not in conceded)


__all__ = ["Style", "ThinkingPlayer"]
