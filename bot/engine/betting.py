"""One betting round (R-8): who acts, what they may do, what their action does.

A ``BettingRound`` shares the hand's ``chips`` list (it moves chips from stacks to this round's
``bets``) and event log. It starts with the turn of the first seat in priority order that has
a choice and ends (``to_act`` None) when every player still in has matched the level or is
all-in, when one player is left, or when nobody bet and the turn reaches ``taker`` (the dealer,
who need not act, R-8). What happens to the pot then is the hand's business.

``verify(seat, action)`` raises ``IllegalAction`` with the reason an action is refused (and
says how it reads the action), ``act`` verifies, then makes the action. Amounts are *levels*
for the round: ``Raise(60)`` brings the raiser's total for this round to 60.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TypeGuard

from .actions import Action, Bet, Call, IllegalAction, Pass, Raise
from .events import BetMade, Called, Event, Passed, Raised, WentAllIn
from .rules import Rules

_PASS, _CALL = Pass(), Call()
#: the kind of a betting action, by its class (a subclass acts as its base, see ``kind_of``)
_KINDS: dict[type, str] = {Pass: "pass", Bet: "bet", Call: "call", Raise: "raise"}


def kind_of(action: object) -> str | None:
    """"pass", "bet", "call" or "raise" for a betting action (or a subclass of one), else
    None."""
    kind = _KINDS.get(type(action))
    if kind is None:
        kind = next((k for t, k in _KINDS.items() if isinstance(action, t)), None)
    return kind


@lru_cache(maxsize=1024)
def _bet(amount: int) -> Bet:
    """``Bet(amount)``: actions are immutable values, so the few amounts offered as
    ``legal_actions`` representatives are made once."""
    return Bet(amount)


@lru_cache(maxsize=1024)
def _raise(to: int) -> Raise:
    """``Raise(to)``, made once per amount (see ``_bet``)."""
    return Raise(to)


def is_amount(value: object) -> TypeGuard[int]:
    """A whole number of chips (R-15): an int, never a bool."""
    return type(value) is int or (isinstance(value, int) and not isinstance(value, bool))


def action_word(action: object) -> str:
    """The first word of an action's text ("bet", "play"...), for refusals."""
    text = str(action)
    return text.split()[0] if text else "act"


class BettingRound:
    """The state of one betting round; see the module docstring."""

    __slots__ = (
        "_after",
        "_chips",
        "_events",
        "_rules",
        "active",
        "aggressor",
        "allin",
        "bets",
        "last_caller",
        "level",
        "needs",
        "phase",
        "taker",
        "to_act",
        "to_act_range",
    )

    def __init__(
        self,
        rules: Rules,
        chips: list[int],
        dealer: int,
        after: Sequence[Sequence[int]],
        events: list[Event],
        phase: str,
    ) -> None:
        """Begin the round: seats without chips are passed (R-8), then the first turn.

        ``after[s]`` lists the other seats after ``s`` in turn order, then ``s``; ``phase``
        names the point played ("small_point" or "big_point"), for refusals.
        """
        n = len(chips)
        self.phase = phase
        self._rules = rules
        self._chips = chips
        self._after = after
        self._events = events
        #: this round's level: the highest total bet (0 before any bet)
        self.level = 0
        #: what each seat has put in this round
        self.bets = [0] * n
        #: seats still in the point (R-8: a seat with no chips takes no part)
        self.active = [c > 0 for c in chips]
        #: seats that have put in their last chip
        self.allin = [False] * n
        #: seats that must still act at this level
        self.needs = self.active[:]
        #: the last seat that bet or raised, and the last that called or raised (R-9)
        self.aggressor: int | None = None
        self.last_caller: int | None = None
        #: who takes the pot when nobody bets: the dealer, or the last seat taking part
        self.taker = dealer
        self.to_act: int | None = None
        #: (min, max) level ``to_act`` may bet or raise to, None if it may not (set with the
        #: turn, see ``_next_turn``)
        self.to_act_range: tuple[int, int] | None = None
        order = after[dealer]
        if False in self.active:
            for s in order:
                if not self.active[s]:
                    events.append(Passed(s, True))
            self.taker = next((s for s in reversed(order) if self.active[s]), dealer)
        self._next_turn(dealer)

    # --- queries -------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """True once nobody has to act any more."""
        return self.to_act is None

    def to_call(self, seat: int) -> int:
        """What ``seat`` would put in to call now (at most its chips)."""
        owe = self.level - self.bets[seat]
        return max(0, owe if owe < self._chips[seat] else self._chips[seat])

    def legal_actions(self) -> list[Action]:
        """The choices of ``to_act``, bets and raises by their lowest amount (see
        ``to_act_range``)."""
        if self.to_act is None:
            return []
        rng = self.to_act_range
        if self.level == 0:
            return [_PASS] if rng is None else [_PASS, _bet(rng[0])]
        return [_PASS, _CALL] if rng is None else [_PASS, _CALL, _raise(rng[0])]

    # --- verify, act ---------------------------------------------------------------------

    def verify(self, seat: int, action: object) -> tuple[str, int]:
        """(kind, level) of ``seat``'s ``action`` (``seat`` is ``to_act``), or IllegalAction: the
        kind is "pass", "call", "bet" or "raise", the level that of a bet or raise."""
        kind = _KINDS.get(type(action)) or kind_of(action)
        if kind == "pass":
            return "pass", 0
        if kind == "call":
            if not self.level:
                raise IllegalAction("nothing_to_call")
            return "call", 0
        if kind == "bet":
            assert isinstance(action, Bet)
            if self.level:
                raise IllegalAction("bet_not_allowed")
            amount: object = action.amount
        elif kind == "raise":
            assert isinstance(action, Raise)
            if not self.level:
                raise IllegalAction("nothing_to_raise")
            amount = action.to
        else:
            raise IllegalAction("wrong_phase", action=action_word(action), phase=self.phase)
        rng = self.to_act_range
        if rng is None:
            if kind == "bet":
                raise IllegalAction("cannot_bet", min=self._rules.cip)
            raise IllegalAction("cannot_raise")
        if not is_amount(amount) or amount < rng[0]:
            raise IllegalAction(f"{kind}_too_small", min=rng[0])
        if amount > rng[1]:
            raise IllegalAction(f"{kind}_too_large", max=rng[1])
        return kind, amount

    def act(self, seat: int, action: object) -> None:
        """Make ``seat``'s ``action`` (``seat``'s turn) once ``verify`` accepts it, and move the
        turn on."""
        kind, to = self.verify(seat, action)
        ev = self._events
        chips, bets = self._chips, self.bets
        if kind == "pass":
            self.active[seat] = False
            self.needs[seat] = False
            ev.append(Passed(seat, False))
        elif kind == "call":
            owe = self.level - bets[seat]
            c = chips[seat]
            pay = owe if owe < c else c
            chips[seat] = c - pay
            bets[seat] += pay
            self.needs[seat] = False
            self.last_caller = seat
            if pay < owe or c == pay:
                self.allin[seat] = True
                ev.append(WentAllIn(seat, pay, bets[seat]))
            else:
                ev.append(Called(seat, pay, self.level))
        else:
            is_bet = kind == "bet"
            pay = to - bets[seat]
            chips[seat] -= pay
            bets[seat] = to
            self.level = to
            self.aggressor = seat
            if not is_bet:
                self.last_caller = seat
            # everyone still in the point and not all-in must answer the bet
            self.needs = self.active[:]
            if True in self.allin:
                for s, allin in enumerate(self.allin):
                    if allin:
                        self.needs[s] = False
            self.needs[seat] = False
            ev.append((BetMade if is_bet else Raised)(seat, pay, to))
            if chips[seat] == 0:
                self.allin[seat] = True
                ev.append(WentAllIn(seat, pay, to))
        self._next_turn(seat)

    def first_to_show(self, show_first: str) -> int:
        """Who shows first at the showdown (R-9): the last bettor or raiser, or with
        ``show_first="last_caller"`` the last player who called or raised."""
        first = self.aggressor
        if show_first == "last_caller" and self.last_caller is not None:
            first = self.last_caller
        assert first is not None, "a showdown follows a bet"
        return first

    # --- the turn ------------------------------------------------------------------------

    def _next_turn(self, after: int) -> None:
        """Give the turn (and its ``to_act_range``) to the next seat after ``after`` that must
        act, passing those who cannot bet before any bet; None when the round is over."""
        needs = self.needs
        while True:
            nxt = None
            for t in self._after[after]:
                if needs[t]:
                    nxt = t
                    break
            if self.level == 0:
                if nxt is None or nxt == self.taker:
                    self.to_act = self.to_act_range = None
                    return
                if self._chips[nxt] < self._rules.cip:
                    # no choice: cannot bet, so the only action is to pass
                    self.active[nxt] = False
                    needs[nxt] = False
                    self._events.append(Passed(nxt, True))
                    after = nxt
                    continue
            elif nxt is None or sum(self.active) == 1:
                self.to_act = self.to_act_range = None
                return
            self.to_act = nxt
            # nxt may bet or raise from the level plus the cip up to the max bet, or up to
            # all its chips
            rules = self._rules
            can_reach = self.bets[nxt] + self._chips[nxt]
            hi = rules.max_bet if rules.max_bet < can_reach else can_reach
            lo = self.level + rules.cip
            self.to_act_range = (lo, hi) if lo <= hi else None
            return
