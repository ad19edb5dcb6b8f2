"""One hand of Stoppa as a state machine (R-3 .. R-13).

``Hand.start(rules, chips, dealer, seed=..., deck=..., carry=...)`` pays the antes, deals the
first small point and runs every forced step; from then on ``to_act`` is the seat with a real
choice (None once the hand is over) and ``act(seat, action)`` applies one action, returning the
new events. Illegal actions raise ``IllegalAction`` and leave the hand unchanged (everything is
validated before anything is mutated).

Phases: ``small_point`` (a betting round for deal ``deal_no``), ``big_point``, ``showdown``
(of the small point ``deal_no`` when it is not None, else of the big point), ``stoppa``,
``over``.

Betting (R-8): ``legal_actions()`` returns *representatives*: ``Pass()`` and ``Bet(cip)``
before any bet, ``Pass()``, ``Call()`` and ``Raise(min)`` after one. The full range of levels
for a bet or raise is ``bet_range(seat) -> (min, max)`` (None when not allowed); ``can`` and
``act`` accept any amount in range. Amounts are *levels* for the round: ``Raise(60)`` brings the
raiser's total for this round to 60.

``seat_view(seat)`` is what ``seat`` (None: a spectator) may see, typed (``views.SeatView``:
the seat's cards, best point, legal actions with their bet range, the pots, the points shown,
the stoppa's open sequence...); ``events_for(seat)`` the events it may see, one class per kind
(``events``).

Decisions where docs/rules-spec.md is silent:
- Every seat must be able to pay the ante (``can_pay_ante``); the table service seats only
  those players (renumbered 0..P-1) and a player may go all-in for the ante (0 chips left).
- A player may bet only from ``cip`` up to ``min(max_bet, chips)``; a player who cannot bet
  when nobody has bet (fewer chips than the cip) has no choice and the engine passes for them.
  Facing a bet, a player short of chips may call all-in (at least one chip) and then contends
  the pot and only the part of each bet they matched. A raise must reach level + cip; there is
  no short all-in raise.
- R-8: a seat with no chips when a round begins is passed at once (a forced ``pass`` event, in
  priority order, before anyone acts) and takes no part in the round.
- With no bet, the pot goes to the dealer without the dealer acting, and so does the big pot
  (unless ``unclaimed_big_pot="carry"``, when it becomes ``carry_out``). So the dealer never
  opens the betting. When the dealer has no chips, the last seat taking part in the round
  stands in for the dealer (it takes the pot without acting); when nobody has chips, the
  dealer takes it, so no chip is lost.
- Showdown: contenders declare in turn from the last bettor/raiser on, in seat order; any
  declarable point is allowed, even one that already loses. As soon as only one contender has
  not conceded, that one wins the rest without (further) declaring. With all-in side pots each
  layer goes to the best declared point among the contenders who matched it; a layer whose
  contenders all conceded goes to the one of them with the highest priority.
- The special payout ``cards`` uses the R-13 rate: ``card_rate`` x (cards // cards_per_payment)
  of the cards in the payer's hand. Every payment is capped by the payer's chips.
- ``four_aces`` blocked stoppa means every ace of the used deck (three with a suit removed).
- A timeout (``default_action``): betting -> Pass, showdown -> Declare the best point,
  stoppa -> open with the lowest rank.

Validation: the hand checks whose turn it is, then hands the action to the phase in play (a
``BettingRound``, a ``Showdown`` or the ``Stoppa``), whose ``verify(seat, action)`` raises
``IllegalAction`` with the reason a player can read; ``can`` is its yes/no form, and the
phase's ``act`` verifies, then makes the action. The hand steps in only when a phase ends.
The phases live in their own modules: ``betting`` (R-8), ``showdown`` (R-9), ``specials``
(R-11), ``stoppa`` (R-12); the typed read-only views that the bot's outer rings read are in
``views``.

Serialisation: ``to_json`` stores the setup (rules, chips, dealer, deck, carry), the list of
actions taken and a digest of the state; ``from_json`` replays the actions and checks the digest,
so a round trip is exact and a corrupt record is refused.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from functools import lru_cache
from operator import attrgetter
from typing import Any

from ..shuffle import shuffle
from .actions import Action, Declare, IllegalAction, Pass, parse_action
from .betting import BettingRound, is_amount
from .cards import Card, mask_of
from .events import (
    Anted,
    BigPointBegan,
    Carried,
    Dealt,
    Due,
    Event,
    HandEnded,
    Paid,
    ShowdownBegan,
    SmallPointBegan,
    SpecialHand,
    StoppaBegan,
    Won,
)
from .points import Point, best_point
from .rules import Rules
from .showdown import Showdown, prepare
from .specials import special_dues, special_hand
from .stoppa import Stoppa
from .views import Pots, SeatView, ShownPoint, seat_view

_ORDER = attrgetter("order")
PHASES = ("small_point", "big_point", "showdown", "stoppa", "over")

__all__ = ["PHASES", "Hand", "can_pay_ante", "prepare"]


def can_pay_ante(rules: Rules, chips: Sequence[int]) -> list[bool]:
    """Which seats can pay the ante (R-5)."""
    return [c >= rules.ante for c in chips]


@lru_cache(maxsize=16)
def _seat_orders(n: int) -> tuple[tuple[int, ...], ...]:
    """``_seat_orders(n)[s]``: the other seats after ``s`` in turn order, then ``s``."""
    return tuple(tuple((s + k) % n for k in range(1, n + 1)) for s in range(n))


@lru_cache(maxsize=64)
def _priorities(n: int, eldest: int) -> tuple[int, ...]:
    """``_priorities(n, eldest)[s]``: 0 for ``eldest`` (the highest priority) .. n-1."""
    return tuple((s - eldest) % n for s in range(n))


class Hand:
    """A hand in progress or finished. Build with ``Hand.start`` or ``Hand.from_json``."""

    __slots__ = (
        "_actions",
        "_after",
        "_betting",
        "_codes",
        "_deal_mask",
        "_deals",
        "_dealt",
        "_deck",
        "_events",
        "_mask",
        "_phase",
        "_showdowns",
        "_stoppa",
        "big",
        "carry_in",
        "carry_out",
        "chips",
        "deal_no",
        "dealer",
        "eldest",
        "hands",
        "n",
        "phase",
        "point",
        "prio",
        "result",
        "rules",
        "small",
        "special",
        "start_chips",
        "to_act",
    )

    # --- construction --------------------------------------------------------------------

    def __init__(
        self, rules: Rules, chips: Sequence[int], dealer: int, deck: list[Card], carry: int
    ) -> None:
        """The hand before its antes; build hands with ``Hand.start`` (which checks its
        arguments) or ``Hand.from_json``."""
        n = rules.players
        self.rules = rules
        self.n = n
        self.dealer = dealer
        #: the eldest hand (R-3): the seat after the dealer, served and acting first
        self.eldest = (dealer + 1) % n
        #: ``prio[s]``: 0 for the eldest hand (highest priority) .. n-1 for the dealer
        self.prio = _priorities(n, self.eldest)
        self.start_chips = list(chips)
        self.chips = list(chips)
        self._deck = deck
        #: the deck's card codes, for the deal events
        self._codes = [c.code for c in deck]
        self._after = _seat_orders(n)
        #: cards per deal (R-2)
        self._deals = rules.deals
        #: how many cards of the deck have been dealt (the next deal starts there)
        self._dealt = 0
        self.carry_in = carry
        self.carry_out = 0
        self._actions: list[tuple[int, Action]] = []
        self._events: list[Event] = []
        #: the cards dealt to each seat, in the order received (the current deal's last; the
        #: stoppa keeps its own copy of what is left)
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        #: 40-bit masks of each seat's cards and of its cards of the current deal
        self._mask = [0] * n
        self._deal_mask = [0] * n
        self.small = [rules.small_point] * len(self._deals)
        self.big = rules.big_pot + carry
        self.special: str | None = None
        self.result: list[int] | None = None
        self.phase = "small_point"
        self.point: str | None = "small"
        self.deal_no: int | None = 0
        self.to_act: int | None = None
        #: the phase in play, which verifies and makes the actions (None once over)
        self._phase: BettingRound | Showdown | Stoppa | None = None
        #: the last betting round (its bets stay on the table through its showdown)
        self._betting: BettingRound | None = None
        #: every showdown of the hand, in order
        self._showdowns: list[Showdown] = []
        self._stoppa: Stoppa | None = None

    @classmethod
    def start(
        cls,
        rules: Rules,
        chips: Sequence[int],
        dealer: int,
        *,
        seed: int | None = None,
        deck: Sequence[Card] | None = None,
        carry: int = 0,
    ) -> Hand:
        """Pay the antes, deal the first small point and run to the first real choice.

        ``deck`` is the exact order of the cards (dealt per R-3 from its first card); without
        it the used deck is shuffled with ``random.Random(seed)``.
        """
        n = rules.players
        if len(chips) != n:
            raise ValueError(f"{n} players need {n} chip counts, not {len(chips)}")
        if not 0 <= dealer < n:
            raise ValueError(f"dealer must be a seat 0..{n - 1}, not {dealer}")
        for s, c in enumerate(chips):
            if not is_amount(c):
                raise ValueError(f"seat {s}'s chips must be a whole number, not {c!r}")
            if c < rules.ante:
                raise ValueError(f"seat {s} cannot pay the ante ({c} chips < {rules.ante})")
        if not is_amount(carry):
            raise ValueError(f"carry must be a whole number, not {carry!r}")
        if carry < 0:
            raise ValueError("carry cannot be negative")
        used = rules.deck()
        if deck is None:
            order = used
            shuffle(random.Random(seed), order)
        else:
            order = list(deck)
            if len(order) != len(used) or set(order) != set(used):
                raise ValueError(
                    f"the deck must be exactly the {len(used)} cards used by "
                    f"{n} players (R-2), each once"
                )
        self = cls(rules, chips, dealer, order, carry)
        for s in range(n):
            self.chips[s] -= rules.ante
            self._events.append(Anted(s, rules.ante))
        if carry:
            self._events.append(Carried(None, carry, "big"))
        self._begin_deal(0)
        return self

    @classmethod
    def replay(
        cls,
        rules: Rules,
        chips: Sequence[int],
        dealer: int,
        deck: Sequence[Card],
        actions: Sequence[tuple[int, Action | str]],
        *,
        carry: int = 0,
    ) -> Hand:
        """Rebuild a hand from its setup and the list of (seat, action) taken."""
        h = cls.start(rules, chips, dealer, deck=deck, carry=carry)
        for seat, action in actions:
            h.act(seat, parse_action(action) if isinstance(action, str) else action)
        return h

    # --- public queries ------------------------------------------------------------------

    @property
    def events(self) -> list[Event]:
        """The full event log (including private deal events)."""
        return list(self._events)

    @property
    def actions(self) -> list[tuple[int, str]]:
        """Every (seat, action text) accepted so far: with the setup, a replay."""
        return [(s, str(a)) for s, a in self._actions]

    @property
    def deck(self) -> list[Card]:
        """The deck in dealing order."""
        return list(self._deck)

    @property
    def stoppa(self) -> Stoppa | None:
        """The stoppa phase once it has begun."""
        return self._stoppa

    @property
    def betting(self) -> BettingRound | None:
        """The betting round in play (read it, never act on it: ``act`` does)."""
        phase = self._phase
        return phase if isinstance(phase, BettingRound) else None

    @property
    def showdown(self) -> Showdown | None:
        """The showdown in play (read it, never act on it: ``act`` does)."""
        phase = self._phase
        return phase if isinstance(phase, Showdown) else None

    @property
    def shown(self) -> tuple[ShownPoint, ...]:
        """Every point declared this hand, in order (R-9: shown cards are public)."""
        return tuple(
            ShownPoint(seat, tuple(point.cards), point.total, showdown.pot, showdown.deal)
            for showdown in self._showdowns
            for seat, point in showdown.declared.items()
        )

    def public_events(self) -> list[Event]:
        """Events anyone may see (no deal events)."""
        return [e for e in self._events if not e.private]

    def events_for(self, seat: int | None) -> list[Event]:
        """Events ``seat`` may see (its own deals included)."""
        return [e for e in self._events if e.visible_to(seat)]

    def cards(self, seat: int) -> list[Card]:
        """The cards ``seat`` holds now."""
        if self._stoppa is not None:
            return self._stoppa.cards(seat)
        return sorted(self.hands[seat], key=_ORDER)

    def card_count(self, seat: int) -> int:
        """How many cards ``seat`` holds now."""
        if self._stoppa is not None:
            return self._stoppa.card_count(seat)
        return len(self.hands[seat])

    @property
    def bets(self) -> list[int]:
        """What each seat has put in the current betting round (zeros between rounds)."""
        if self._betting is None:
            return [0] * self.n
        return list(self._betting.bets)

    @property
    def pots(self) -> Pots:
        """The chips on the table: small pots, big pot, this round's bets, the carries."""
        return Pots(tuple(self.small), self.big, tuple(self.bets), self.carry_in, self.carry_out)

    def pot_total(self) -> int:
        """Every chip not in a player's stack: small pots, big pot and this round's bets."""
        return sum(self.small) + self.big + sum(self.bets)

    def eligible(self, seat: int) -> list[Card]:
        """The cards ``seat`` may use for the current point (R-7)."""
        if self.deal_no is not None:
            return self.hands[seat][-self._deals[self.deal_no] :]
        return list(self.hands[seat])

    def best_point(self, seat: int) -> Point:
        """The best point of ``seat``'s eligible cards (R-7)."""
        return best_point(self.eligible(seat), 3, self.rules.ranking)

    def bet_range(self, seat: int) -> tuple[int, int] | None:
        """(min, max) level ``seat`` may bet or raise to now, None if not allowed."""
        phase = self._phase
        if seat != self.to_act or not isinstance(phase, BettingRound):
            return None
        return phase.to_act_range

    def legal_actions(self) -> list[Action]:
        """The choices of ``to_act`` (betting amounts as representatives, see ``bet_range``)."""
        phase = self._phase
        return [] if phase is None else phase.legal_actions()

    def default_action(self, seat: int) -> Action:
        """What a turn timeout does for ``seat`` (see the module docstring)."""
        if seat != self.to_act:
            self.verify(seat, Pass())  # raises the right IllegalAction
        if isinstance(self._phase, Stoppa):
            return self._phase.default_play()
        if isinstance(self._phase, Showdown):
            return Declare(self.best_point(seat).cards)
        return Pass()

    def seat_view(self, seat: int | None) -> SeatView:
        """What ``seat`` may see (None: a spectator), typed; see ``views.SeatView``."""
        return seat_view(self, seat)

    # --- verify, can, act ----------------------------------------------------------------

    def verify(self, seat: int, action: object) -> Any:
        """Raise IllegalAction (with the reason) unless ``seat`` may do ``action`` now; return
        what the phase in play needs to make it: the declared point (None: a concession) in a
        showdown, the rank and cards of a stoppa opening, the kind and level of a betting
        action."""
        return self._phase_of(seat).verify(seat, action)

    def can(self, seat: int, action: object) -> bool:
        """True if ``act(seat, action)`` would be accepted."""
        try:
            self.verify(seat, action)
        except IllegalAction:
            return False
        return True

    def act(self, seat: int, action: Action) -> list[Event]:
        """Apply ``action`` of ``seat`` and every forced step after it; return the new events.

        The phase in play verifies the action before it changes anything."""
        phase = self._phase_of(seat)
        if type(seat) is not int:
            seat = int(seat)  # a bool or an int subclass acts as the plain seat number
        start = len(self._events)
        phase.act(seat, action)
        self._actions.append((seat, action))
        self.to_act = phase.to_act
        if self.to_act is None:
            self._phase_over(phase)
        return self._events[start:]

    def _phase_of(self, seat: object) -> BettingRound | Showdown | Stoppa:
        """The phase in play, when it is ``seat``'s turn; else IllegalAction saying why not."""
        phase = self._phase
        if phase is None:
            raise IllegalAction("hand_over")
        if seat == self.to_act and type(seat) is int:  # the common case, in short
            return phase
        if not isinstance(seat, int) or not 0 <= seat < self.n:
            raise IllegalAction("not_in_hand", seat=str(seat))
        if seat != self.to_act:
            raise IllegalAction("not_your_turn", seat=self.to_act)
        return phase

    def _phase_over(self, phase: BettingRound | Showdown | Stoppa) -> None:
        """What follows the end of ``phase``: R-8 for a betting round, its settlement for a
        showdown, R-13 for the stoppa."""
        match phase:
            case BettingRound():
                self._end_round(phase)
            case Showdown():
                self._settle(phase)
            case Stoppa():
                assert phase.winner is not None
                self._close(phase.winner)

    # --- dealing and betting -------------------------------------------------------------

    def _begin_deal(self, i: int) -> None:
        """Deal ``i`` (R-3): every seat in priority order receives the next k cards."""
        k = self._deals[i]
        n = self.n
        pos = self._dealt
        self._dealt += k * n
        self.phase = "small_point"
        self.point = "small"
        self.deal_no = i
        self._events.append(SmallPointBegan(None, i, k))
        for s in self._after[self.dealer]:
            got = self._deck[pos : pos + k]
            pos += k
            self.hands[s].extend(got)
            mask = mask_of(got)
            self._deal_mask[s] = mask
            self._mask[s] |= mask
            self._events.append(Dealt(s, tuple(self._codes[pos - k : pos]), i))
        self._start_round()

    def _start_round(self) -> None:
        """A betting round (R-8) for the current point: the first turn, or its end at once."""
        betting = BettingRound(
            self.rules, self.chips, self.dealer, self._after, self._events, self.phase
        )
        self._phase = self._betting = betting
        self.to_act = betting.to_act
        if self.to_act is None:
            self._end_round(betting)

    def _take_base(self) -> int:
        """Empty the pot of the current point (its small pot, or the big pot)."""
        if self.deal_no is not None:
            amount = self.small[self.deal_no]
            self.small[self.deal_no] = 0
        else:
            amount = self.big
            self.big = 0
        return amount

    def _win(self, seat: int, amount: int, shown: bool, reason: str | None = None) -> None:
        """``seat`` takes ``amount`` for the current point (``reason``: why without a
        showdown, "no_bet" or "alone")."""
        self.chips[seat] += amount
        pot = "small" if self.deal_no is not None else "big"
        self._events.append(Won(seat, pot, self.deal_no, amount, shown, reason))

    def _end_round(self, betting: BettingRound) -> None:
        """R-8: no bet (the taker, or the carry of R-10), one player left, or a showdown."""
        if betting.level == 0:
            if self.deal_no is None and self.rules.unclaimed_big_pot == "carry":
                self.carry_out = self._take_base()
                self._events.append(Carried(None, self.carry_out, "next"))
            else:
                self._win(betting.taker, self._take_base(), shown=False, reason="no_bet")
            self._after_point()
            return
        if sum(betting.active) == 1:
            winner = betting.active.index(True)
            amount = self._take_base() + sum(betting.bets)
            betting.bets = [0] * self.n
            self._win(winner, amount, shown=False, reason="alone")
            self._after_point()
            return
        first = betting.first_to_show(self.rules.show_first)
        order = [s for s in self._after[first - 1] if betting.active[s]]  # from first on
        showdown = Showdown(
            order,
            self._events,
            held=self._mask,
            eligible=self._deal_mask if self.deal_no is not None else self._mask,
            ranking=self.rules.ranking,
            deal=self.deal_no,
        )
        self._showdowns.append(showdown)
        self._phase = showdown
        self.phase = "showdown"
        self._events.append(ShowdownBegan(None, showdown.pot, self.deal_no, tuple(order)))
        self.to_act = order[0]

    # --- showdown ------------------------------------------------------------------------

    def _settle(self, showdown: Showdown) -> None:
        """Pay the pot and the bets of the round to the showdown's winners."""
        betting = self._betting
        assert betting is not None
        won = showdown.winnings(betting.bets, self._take_base(), self.prio, self.rules.ranking)
        betting.bets = [0] * self.n
        for s in self._after[self.dealer]:  # priority order: eldest first
            if won[s]:
                self._win(s, won[s], shown=s in showdown.declared)
        self._after_point()

    def _after_point(self) -> None:
        """The next deal, the big point after the last deal, the specials after the big point."""
        if self.deal_no is not None:
            nxt = self.deal_no + 1
            if nxt < len(self._deals):
                self._begin_deal(nxt)
                return
            self.deal_no = None
            self.point = "big"
            self.phase = "big_point"
            self._events.append(BigPointBegan())
            self._start_round()
            return
        self._specials_or_stoppa()

    # --- R-11 special hands, R-12 stoppa, R-13 payment -----------------------------------

    def _specials_or_stoppa(self) -> None:
        found = special_hand(self.rules, self._mask, self._after[self.dealer])
        if found is not None:
            kind, holder = found
            self.special = kind
            dues = special_dues(self.rules, kind, holder, self.hands)
            payments = tuple(Due(s, holder, min(owed, self.chips[s])) for s, owed, _ in dues)
            cards = tuple(c.code for c in sorted(self.hands[holder], key=_ORDER))
            self._events.append(SpecialHand(holder, kind, cards, payments))
            for s, owed, left in dues:
                self._pay(s, holder, owed, left)
            self._finish()
            return
        self.phase = "stoppa"
        self._events.append(StoppaBegan())
        stoppa = Stoppa.from_hands(self.hands, self.eldest, self.rules, self._events)
        self._phase = self._stoppa = stoppa
        self.to_act = stoppa.to_act
        if stoppa.winner is not None:
            self._close(stoppa.winner)

    def _pay(self, payer: int, to: int, owed: int, cards: int) -> None:
        """``payer`` pays ``to`` what it owes, at most its chips (R-13)."""
        amount = min(owed, self.chips[payer])
        self.chips[payer] -= amount
        self.chips[to] += amount
        self._events.append(Paid(payer, to, amount, owed, cards))

    def _close(self, closer: int) -> None:
        """R-13: every other player pays the closer for the cards left."""
        stoppa = self._stoppa
        assert stoppa is not None
        for s in self._after[closer][:-1]:
            left = stoppa.card_count(s)
            self._pay(s, closer, self.rules.payment(left), left)
        self._finish()

    def _finish(self) -> None:
        self._phase = None
        self.phase = "over"
        self.to_act = None
        self.result = [self.chips[s] - self.start_chips[s] for s in range(self.n)]
        self._events.append(HandEnded(None, tuple(self.result)))

    # --- serialisation -------------------------------------------------------------------

    def _digest(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "to_act": self.to_act,
            "chips": list(self.chips),
            "pots": {
                "small": list(self.small),
                "big": self.big,
                "bets": self.bets,
                "carry": self.carry_in,
                "carry_out": self.carry_out,
            },
            "hands": [[c.code for c in self.cards(s)] for s in range(self.n)],
            "events": len(self._events),
            "result": self.result,
        }

    def to_dict(self) -> dict[str, Any]:
        """JSON-able record: setup, actions and a digest of the state."""
        return {
            "version": 1,
            "rules": self.rules.to_record(),
            "chips": list(self.start_chips),
            "dealer": self.dealer,
            "deck": [c.code for c in self._deck],
            "carry": self.carry_in,
            "actions": [[s, str(a)] for s, a in self._actions],
            "state": self._digest(),
        }

    def to_json(self) -> str:
        """The hand as a JSON string (``Hand.from_json`` restores it exactly)."""
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Hand:
        """Inverse of ``to_dict``; ValueError if the record is inconsistent."""
        if d.get("version") != 1:
            raise ValueError("unknown hand record version")
        h = cls.replay(
            Rules.from_dict(d["rules"]),
            d["chips"],
            d["dealer"],
            [Card.parse(c) for c in d["deck"]],
            [(s, a) for s, a in d["actions"]],
            carry=d["carry"],
        )
        if "state" in d and json.loads(json.dumps(h._digest())) != d["state"]:
            raise ValueError("hand record does not match its actions")
        return h

    @classmethod
    def from_json(cls, s: str) -> Hand:
        """Inverse of ``to_json``."""
        return cls.from_dict(json.loads(s))

    def __repr__(self) -> str:
        return f"<Hand {self.n}p phase={self.phase} to_act={self.to_act} chips={self.chips}>"
