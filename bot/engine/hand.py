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

``view(seat)`` is a JSON-able dict with: seat, players, dealer, eldest, phase, point
("small"|"big"|None), deal_no, to_act, hand (own card codes), new_cards (own cards of the
current deal), chips, card_counts, pots {"small": [amount left per deal], "big", "bets",
"carry" (carried in), "carry_out"}, betting {"level", "to_call" (for ``seat``), "min_raise",
"max", "active", "allin", "bet_range"} or None, showdown {"order", "declared" {seat: ...},
"conceded"} or None, declared [{seat, cards, value, point}] (every point shown this hand),
stoppa {"table", "needed", "closer", "last", "card_counts"} or None, legal (action texts, only
when it is ``seat``'s turn), result, events (the events ``seat`` may see), rules.

Decisions where RULES.md is silent:
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

Speed (``bench/bench_engine.py``): events are tuples (see ``events``); betting, declare and
play actions offered by ``legal_actions`` are shared immutable objects (a fresh list each
call); cards held are also kept as 40-bit masks for the showdown checks. ``act`` validates the
commonest actions itself (pass, call, a bet or raise in range, a declaration picked from
``legal_actions``, checked with one mask test through ``_DECLARE_INFO``) and leaves anything
else to ``check``, which gives the refusals; the stoppa's chosen and forced plays run in one
loop. The declarable points of every suit slice (``points``) and the declarations of every
small-point deal are tabled once per process, on first use or by ``prepare()``.
Nothing is copied per action.

Serialisation: ``to_json`` stores the setup (rules, chips, dealer, deck, carry), the list of
actions taken and a digest of the state; ``from_json`` replays the actions and checks the digest,
so a round trip is exact and a corrupt record is refused.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import combinations
from operator import attrgetter
from typing import Any

from ..shuffle import shuffle
from .actions import (
    Action,
    Bet,
    Call,
    Concede,
    Declare,
    IllegalAction,
    Pass,
    Raise,
    parse_action,
)
from .cards import Card
from .events import Event
from .points import Point, all_point_keys, best_point, declarable_keys
from .rules import Rules
from .stoppa import Stoppa

_ORDER = attrgetter("order")
_CODE = attrgetter("code")
_BIT_OF = attrgetter("bit")
_PASS, _CALL, _CONCEDE = Pass(), Call(), Concede()
PHASES = ("small_point", "big_point", "showdown", "stoppa", "over")
_new = tuple.__new__  # _new(Event, (kind, seat, data)): an Event without the __new__ call


def can_pay_ante(rules: Rules, chips: Sequence[int]) -> list[bool]:
    """Which seats can pay the ante (R-5)."""
    return [c >= rules.ante for c in chips]


_DECLARES: dict[str, dict[int, Declare]] = {}  # ranking -> point key -> Declare
#: id of each shared Declare of ``_DECLARES`` -> (it, mask of its cards, its Point): a
#: declaration picked from ``legal_actions`` is checked with one mask test
_DECLARE_INFO: dict[int, tuple[Declare, int, Point]] = {}
#: ranking -> mask of at most 3 cards -> its declarations (see ``_small_declares``)
_SMALL_DECLARES: dict[str, dict[int, tuple[Action, ...]]] = {}


def _declares(mask: int, ranking: str) -> list[Action]:
    """Every Declare the cards of ``mask`` allow, best first, then Concede (a new list)."""
    small = _SMALL_DECLARES.get(ranking) or _small_declares(ranking)
    got = small.get(mask)
    if got is not None:
        return list(got)
    return _declares_of(mask, ranking)


def _declares_of(mask: int, ranking: str) -> list[Action]:
    """``_declares`` computed: the shared Declare of each declarable point, then Concede."""
    table = _DECLARES.get(ranking)
    if table is None:
        table = _DECLARES[ranking] = {}
        for k, p in all_point_keys(ranking).items():
            d = table[k] = Declare(p.cards)
            _DECLARE_INFO[id(d)] = (d, sum(c.bit for c in p.cards), p)
    out: list[Action] = list(map(table.__getitem__, declarable_keys(mask, ranking)))
    out.append(_CONCEDE)
    return out


def prepare() -> None:
    """Build the engine's lookup tables now (about 0.1 s of CPU, once per process) instead of
    at the first showdown of each ranking: a bot calls this off its event loop at start."""
    for ranking in ("count", "total"):
        if ranking not in _SMALL_DECLARES:
            _small_declares(ranking)


def _small_declares(ranking: str) -> dict[int, tuple[Action, ...]]:
    """Build ``_SMALL_DECLARES[ranking]``: the declarations of every set of at most 3 cards (the
    cards of one small-point deal), about 10,700 sets, once per process and ranking."""
    bits = [1 << i for i in range(40)]
    small = {0: tuple(_declares_of(0, ranking))}
    for size in (1, 2, 3):
        for combo in combinations(bits, size):
            mask = sum(combo)
            small[mask] = tuple(_declares_of(mask, ranking))
    _SMALL_DECLARES[ranking] = small
    return small


_BET_CACHE: dict[int, Bet] = {}
_RAISE_CACHE: dict[int, Raise] = {}
_CACHE_LIMIT = 4096


def _shared(cache: dict[int, Any], make: Callable[[int], Any], amount: int) -> Any:
    """The shared (immutable) action `make(amount)`, kept in `cache` (at most 4,096)."""
    action = cache.get(amount)
    if action is None:
        action = make(amount)
        if len(cache) < _CACHE_LIMIT:
            cache[amount] = action
    return action


def _bet(amount: int) -> Bet:
    """The (shared, immutable) ``Bet(amount)``."""
    return _shared(_BET_CACHE, Bet, amount)


def _raise(to: int) -> Raise:
    """The (shared, immutable) ``Raise(to)``."""
    return _shared(_RAISE_CACHE, Raise, to)


#: the Point made by exactly the cards of a mask (only masks of valid points are cached)
_POINT_OF_MASK: dict[int, Point] = {}


def _point_of(cards: tuple[Card, ...], mask: int) -> Point | None:
    """``Point.of(cards)`` (``mask`` is theirs), None when they make no point."""
    p = _POINT_OF_MASK.get(mask)
    if p is not None and mask.bit_count() == len(cards):
        return p
    try:
        p = Point.of(cards)
    except ValueError:
        return None
    _POINT_OF_MASK[mask] = p
    return p


@lru_cache(maxsize=16)
def _deal_offsets(deals: tuple[int, ...]) -> tuple[int, ...]:
    """``_deal_offsets(deals)[i]``: cards each seat received before deal ``i``."""
    return tuple(sum(deals[:i]) for i in range(len(deals)))


def _priorities(n: int, eldest: int) -> tuple[int, ...]:
    """``prio[s]``: 0 for the eldest hand (highest priority) .. n-1 for the dealer."""
    got = _PRIORITIES.get((n, eldest))
    if got is None:
        got = _PRIORITIES[(n, eldest)] = tuple((s - eldest) % n for s in range(n))
    return got


_PRIORITIES: dict[tuple[int, int], tuple[int, ...]] = {}


@lru_cache(maxsize=16)
def _seat_orders(n: int) -> tuple[tuple[int, ...], ...]:
    """``_seat_orders(n)[s]``: the other seats after ``s`` in turn order, then ``s``."""
    return tuple(tuple((s + k) % n for k in range(1, n + 1)) for s in range(n))


def _is_amount(value: object) -> bool:
    """A whole number of chips (R-15): an int, never a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def _action_word(action: object) -> str:
    return str(action).split()[0] if str(action) else "act"


class Hand:
    """A hand in progress or finished. Build with ``Hand.start`` or ``Hand.from_json``."""

    __slots__ = (
        "_actions",
        "_active",
        "_after",
        "_agg",
        "_allin",
        "_bets",
        "_bits",
        "_codes",
        "_conceded",
        "_deal_cards",
        "_deal_mask",
        "_deals",
        "_deck",
        "_declared",
        "_events",
        "_last_caller",
        "_level",
        "_mask",
        "_needs",
        "_sd_order",
        "_sd_pos",
        "_stoppa",
        "_taker",
        "_to_act",
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
        "shown",
        "small",
        "special",
        "start_chips",
        "to_act",
    )

    # --- construction --------------------------------------------------------------------

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
        ante = rules.ante
        for s, c in enumerate(chips):
            if not _is_amount(c):
                raise ValueError(f"seat {s}'s chips must be a whole number, not {c!r}")
            if c < ante:
                raise ValueError(f"seat {s} cannot pay the ante ({c} chips < {ante})")
        if not _is_amount(carry):
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
        self = cls.__new__(cls)
        self.rules = rules
        self.n = n
        self.dealer = dealer
        eldest = self.eldest = (dealer + 1) % n
        # prio[s]: 0 for the eldest hand (highest priority) .. n-1 for the dealer
        self.prio = _priorities(n, eldest)
        self.start_chips = list(chips)
        self.chips = [c - ante for c in chips]
        self._deck = order
        self._codes = list(map(_CODE, order))
        self._bits = list(map(_BIT_OF, order))
        self._deals = deals = rules.deals
        self._after = _seat_orders(n)
        self.carry_in = carry
        self.carry_out = 0
        self._actions: list[tuple[int, Action]] = []
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self._deal_cards: list[list[Card]] = [[] for _ in range(n)]
        self._mask = [0] * n
        self._deal_mask = [0] * n
        self.small = [rules.small_point] * len(deals)
        self.big = rules.big_pot + carry
        self.shown: list[dict[str, Any]] = []
        self.special: str | None = None
        self.result: list[int] | None = None
        self._stoppa: Stoppa | None = None
        self._sd_order: list[int] = []
        self._sd_pos = 0
        self._declared: dict[int, Point] = {}
        self._conceded: set[int] = set()
        # set by the first deal: phase, point, deal_no; and by its betting round: _bets,
        # _level, _active, _allin, _needs, _agg, _to_act, to_act
        self._events = ev = [_new(Event, ("ante", s, {"amount": ante})) for s in range(n)]
        if carry:
            ev.append(_new(Event, ("carry", None, {"amount": carry, "into": "big"})))
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
    def pots(self) -> dict[str, Any]:
        """{"small": [left per deal], "big": n, "bets": [per seat this round], "carry", ...}."""
        return {
            "small": list(self.small),
            "big": self.big,
            "bets": list(self._bets),
            "carry": self.carry_in,
            "carry_out": self.carry_out,
        }

    def pot_total(self) -> int:
        """Every chip not in a player's stack: small pots, big pot and this round's bets."""
        return sum(self.small) + self.big + sum(self._bets)

    def eligible(self, seat: int) -> list[Card]:
        """The cards ``seat`` may use for the current point (R-7)."""
        if self.deal_no is not None:
            return list(self._deal_cards[seat])
        return list(self.hands[seat])

    def bet_range(self, seat: int) -> tuple[int, int] | None:
        """(min, max) level ``seat`` may bet or raise to now, None if not allowed."""
        if seat != self._to_act or self.phase not in ("small_point", "big_point"):
            return None
        return self._range(seat)

    def _range(self, seat: int) -> tuple[int, int] | None:
        r = self.rules
        level = self._level
        if level == 0:
            hi = r.max_bet
            c = self.chips[seat]
            if c < hi:
                hi = c
            return (r.cip, hi) if hi >= r.cip else None
        lo = level + r.cip
        hi = r.max_bet
        c = self._bets[seat] + self.chips[seat]
        if c < hi:
            hi = c
        return (lo, hi) if lo <= hi else None

    def legal_actions(self) -> list[Action]:
        """The choices of ``to_act`` (betting amounts as representatives, see ``bet_range``)."""
        phase = self.phase
        if phase == "stoppa":
            st = self._stoppa
            assert st is not None
            return st.legal_plays()
        seat = self._to_act
        if seat is None:
            return []
        if phase == "showdown":
            mask = self._deal_mask[seat] if self.deal_no is not None else self._mask[seat]
            return _declares(mask, self.rules.ranking)
        rules = self.rules
        level = self._level
        if level == 0:
            # _next_turn passes for a seat that cannot bet the cip, and max_bet >= cip
            cip = rules.cip
            if self.chips[seat] >= cip:
                return [_PASS, _BET_CACHE.get(cip) or _bet(cip)]
            return [_PASS]
        lo = level + rules.cip
        if lo <= self._bets[seat] + self.chips[seat] and lo <= rules.max_bet:
            return [_PASS, _CALL, _RAISE_CACHE.get(lo) or _raise(lo)]
        return [_PASS, _CALL]

    def default_action(self, seat: int) -> Action:
        """What a turn timeout does for ``seat`` (see the module docstring)."""
        if seat != self.to_act:
            self.check(seat, Pass())  # raises the right IllegalAction
        if self.phase == "stoppa":
            assert self._stoppa is not None
            return self._stoppa.default_play()
        if self.phase == "showdown":
            return Declare(self._best(seat).cards)
        return Pass()

    def _best(self, seat: int) -> Point:
        return best_point(self.eligible(seat), 3, self.rules.ranking)

    def can(self, seat: int, action: Action) -> bool:
        """True if ``act(seat, action)`` would be accepted."""
        try:
            self.check(seat, action)
        except IllegalAction:
            return False
        return True

    # --- validation ----------------------------------------------------------------------

    def check(self, seat: int, action: Action) -> Any:
        """Raise IllegalAction unless ``seat`` may do ``action`` now; returns parsed details."""
        phase = self.phase
        if phase == "over":
            raise IllegalAction("hand_over")
        if not isinstance(seat, int) or not 0 <= seat < self.n:
            raise IllegalAction("not_in_hand", seat=str(seat))
        if phase == "stoppa":
            assert self._stoppa is not None
            return self._stoppa.check(seat, action)
        to_act = self._to_act
        if seat != to_act:
            raise IllegalAction("not_your_turn", seat=to_act if to_act is not None else -1)
        if phase == "showdown":
            if isinstance(action, Concede):
                return None
            if not isinstance(action, Declare):
                raise IllegalAction("wrong_phase", action=_action_word(action), phase=phase)
            cards = action.cards
            held = self._mask[seat]
            eligible = self._deal_mask[seat] if self.deal_no is not None else held
            mask = 0
            for c in cards:
                if not isinstance(c, Card) or not held >> c.index & 1:
                    raise IllegalAction("card_not_held", card=str(c))
                if not eligible >> c.index & 1:
                    raise IllegalAction("card_not_eligible", card=str(c))
                mask |= 1 << c.index
            point = _point_of(cards, mask)
            if point is None:
                raise IllegalAction("bad_point")
            return point
        # betting
        t = type(action)
        if t is Pass or (t is Call and self._level):
            return None
        if t is not Bet and t is not Raise and isinstance(action, Pass):
            return None
        if t is Bet or (t is not Raise and isinstance(action, Bet)):
            if self._level:
                raise IllegalAction("bet_not_allowed")
            rng = self._range(seat)
            if rng is None:
                raise IllegalAction("cannot_bet", min=self.rules.cip)
            if not _is_amount(action.amount) or action.amount < rng[0]:
                raise IllegalAction("bet_too_small", min=rng[0])
            if action.amount > rng[1]:
                raise IllegalAction("bet_too_large", max=rng[1])
            return None
        if t is not Raise and isinstance(action, Call):
            if not self._level:
                raise IllegalAction("nothing_to_call")
            return None
        if t is Raise or isinstance(action, Raise):
            if not self._level:
                raise IllegalAction("nothing_to_call")
            rng = self._range(seat)
            if rng is None:
                raise IllegalAction("cannot_raise")
            if not _is_amount(action.to) or action.to < rng[0]:
                raise IllegalAction("raise_too_small", min=rng[0])
            if action.to > rng[1]:
                raise IllegalAction("raise_too_large", max=rng[1])
            return None
        raise IllegalAction("wrong_phase", action=_action_word(action), phase=phase)

    # --- acting --------------------------------------------------------------------------

    def act(self, seat: int, action: Action) -> list[Event]:
        """Apply ``action`` of ``seat`` and every forced step after it; return the new events."""
        if type(seat) is not int and isinstance(seat, int):
            seat = int(seat)  # a bool or an int subclass: the plain seat number
        events = self._events
        start = len(events)
        phase = self.phase
        if seat == self._to_act and type(seat) is int:
            # a betting or showdown turn (``_to_act`` is None in the stoppa and once over);
            # the commonest actions are validated here, anything else by ``check``
            t = type(action)
            if phase != "showdown":
                level = self._level
                if t is Pass or (t is Call and level):
                    pass
                elif (t is Raise and level) or (t is Bet and not level):
                    to = action.to if t is Raise else action.amount  # type: ignore[union-attr]
                    rng = self._range(seat)
                    if rng is None or type(to) is not int or not rng[0] <= to <= rng[1]:
                        self.check(seat, action)  # raises (or accepts an odd int type)
                else:
                    self.check(seat, action)
                self._actions.append((seat, action))
                self._bet_act(seat, action)
                return events[start:]
            info = _DECLARE_INFO.get(id(action))
            if info is not None and info[0] is action:
                mask = info[1]
                eligible = self._deal_mask[seat] if self.deal_no is not None else self._mask[seat]
                point = info[2] if mask & eligible == mask else self.check(seat, action)
            else:
                point = self.check(seat, action)
            self._actions.append((seat, action))
            self._showdown_act(seat, action, point)
            return events[start:]
        if phase == "stoppa":
            st = self._stoppa
            assert st is not None
            detail = self.check(seat, action)
            self._actions.append((seat, action))
            st.to_act = None
            st._advance(detail[0], detail[1])
            self.to_act = st.to_act
            if st.winner is not None:
                self._close(st.winner)
        else:  # the hand is over, or not this seat's turn: check() refuses
            self.check(seat, action)
            raise AssertionError("check() accepted an action out of turn")  # pragma: no cover
        return events[start:]

    # --- dealing and betting -------------------------------------------------------------

    def _begin_deal(self, i: int) -> None:
        deals = self._deals
        k = deals[i]
        n = self.n
        pos = _deal_offsets(deals)[i] * n
        deck = self._deck
        codes = self._codes
        bits = self._bits
        self.phase = "small_point"
        self.point = "small"
        self.deal_no = i
        ev = self._events
        ev.append(_new(Event, ("phase", None, {"phase": "small_point", "deal": i, "cards": k})))
        hands, deal_cards = self.hands, self._deal_cards
        mask, deal_mask = self._mask, self._deal_mask
        for s in self._after[self.dealer]:
            end = pos + k
            got = deck[pos:end]
            deal_cards[s] = got
            hands[s].extend(got)
            m = sum(bits[pos:end])  # the deck holds each card once
            deal_mask[s] = m
            mask[s] |= m
            ev.append(_new(Event, ("deal", s, {"cards": codes[pos:end], "deal": i})))
            pos = end
        self._start_round()

    def _start_round(self) -> None:
        n = self.n
        self._bets = [0] * n
        self._level = 0
        # a seat with no chips when the round begins takes no part in it
        active = self._active = [c > 0 for c in self.chips]
        self._allin = [False] * n
        self._needs = active[:]
        self._agg = None
        self._last_caller = None
        self._to_act = self.to_act = None
        order = self._after[self.dealer]
        taker = self.dealer
        if False in active:
            for s in order:
                if not active[s]:
                    self._events.append(_new(Event, ("pass", s, {"forced": True})))
            taker = next((s for s in reversed(order) if active[s]), self.dealer)
        self._taker = taker
        self._next_turn(self.dealer)

    def _next_turn(self, after: int) -> None:
        needs = self._needs
        orders = self._after
        while True:
            nxt = None
            for t in orders[after]:
                if needs[t]:
                    nxt = t
                    break
            if self._level == 0:
                if nxt is None or nxt == self._taker:
                    self._end_round()
                    return
                if self.chips[nxt] < self.rules.cip:
                    # no choice: cannot bet, so the only action is to pass
                    self._active[nxt] = False
                    needs[nxt] = False
                    self._events.append(_new(Event, ("pass", nxt, {"forced": True})))
                    after = nxt
                    continue
            elif nxt is None or sum(self._active) == 1:
                self._end_round()
                return
            self._to_act = self.to_act = nxt
            return

    def _bet_act(self, seat: int, action: Action) -> None:
        ev = self._events
        needs = self._needs
        t = type(action)
        if t is not Pass and t is not Call and t is not Bet and t is not Raise:
            # a subclass of an action type (checked already): dispatch on its base
            t = next(b for b in (Pass, Call, Bet, Raise) if isinstance(action, b))
        if t is Pass:
            self._active[seat] = False
            needs[seat] = False
            ev.append(_new(Event, ("pass", seat, {"forced": False})))
        elif t is Call:
            chips, bets = self.chips, self._bets
            owe = self._level - bets[seat]
            c = chips[seat]
            pay = owe if owe < c else c
            chips[seat] = c - pay
            bets[seat] += pay
            needs[seat] = False
            self._last_caller = seat
            if pay < owe or c == pay:
                self._allin[seat] = True
                ev.append(_new(Event, ("allin", seat, {"amount": pay, "level": bets[seat]})))
            else:
                ev.append(_new(Event, ("call", seat, {"amount": pay, "level": self._level})))
        else:
            is_bet = t is Bet
            to = action.amount if is_bet else action.to  # type: ignore[union-attr]
            pay = to - self._bets[seat]
            self.chips[seat] -= pay
            self._bets[seat] = to
            self._level = to
            self._agg = seat
            if not is_bet:
                self._last_caller = seat
            active, allin = self._active, self._allin
            if True in allin:
                needs = [a and not b for a, b in zip(active, allin, strict=True)]
            else:
                needs = active[:]  # everyone still in the point must answer the bet
            self._needs = needs
            needs[seat] = False
            kind = "bet" if is_bet else "raise"
            ev.append(_new(Event, (kind, seat, {"amount": pay, "level": to})))
            if self.chips[seat] == 0:
                self._allin[seat] = True
                ev.append(_new(Event, ("allin", seat, {"amount": pay, "level": to})))
        self._next_turn(seat)

    def _take_base(self) -> int:
        if self.deal_no is not None:
            amount = self.small[self.deal_no]
            self.small[self.deal_no] = 0
        else:
            amount = self.big
            self.big = 0
        return amount

    def _end_round(self) -> None:
        self._to_act = self.to_act = None
        active = self._active
        deal_no = self.deal_no
        if self._level == 0:
            if deal_no is None and self.rules.unclaimed_big_pot == "carry":
                self.carry_out = self._take_base()
                self._events.append(
                    _new(Event, ("carry", None, {"amount": self.carry_out, "into": "next"}))
                )
            else:
                amount = self._take_base()
                self.chips[self._taker] += amount
                pot = "small" if deal_no is not None else "big"
                data = {"pot": pot, "deal": deal_no, "amount": amount}
                data["shown"] = False
                data["reason"] = "no_bet"
                self._events.append(_new(Event, ("win", self._taker, data)))
            self._after_point()
            return
        if sum(active) == 1:
            winner = active.index(True)
            amount = self._take_base() + sum(self._bets)
            self._bets = [0] * self.n
            self.chips[winner] += amount
            pot = "small" if deal_no is not None else "big"
            data = {"pot": pot, "deal": deal_no, "amount": amount}
            data["shown"] = False
            data["reason"] = "alone"
            self._events.append(_new(Event, ("win", winner, data)))
            self._after_point()
            return
        first = self._agg
        if self.rules.show_first == "last_caller" and self._last_caller is not None:
            first = self._last_caller
        assert first is not None
        order = [s for s in self._after[first - 1] if active[s]]  # from ``first`` on
        self._sd_order = order
        self._sd_pos = 0
        self._declared = {}
        self._conceded = set()
        self.phase = "showdown"
        pot = "small" if deal_no is not None else "big"
        data = {"phase": "showdown", "pot": pot, "deal": deal_no, "order": order}
        self._events.append(_new(Event, ("phase", None, data)))
        self._to_act = self.to_act = order[0]

    def _showdown_act(self, seat: int, action: Action, point: Point | None) -> None:
        if point is None:
            self._conceded.add(seat)
            self._events.append(_new(Event, ("concede", seat, {})))
        else:
            self._declared[seat] = point
            codes = list(map(_CODE, point.cards))
            deal_no = self.deal_no
            if deal_no is not None:
                shown = {"seat": seat, "cards": codes, "value": point.total, "pot": "small"}
            else:
                shown = {"seat": seat, "cards": codes, "value": point.total, "pot": "big"}
            shown["deal"] = deal_no
            self.shown.append(shown)
            self._events.append(
                _new(
                    Event,
                    (
                        "declare",
                        seat,
                        {"cards": codes, "value": point.total, "count": point.count},
                    ),
                )
            )
        self._sd_pos += 1
        order = self._sd_order
        conceded = self._conceded
        remaining = len(order) - len(conceded)
        if remaining == 1 or self._sd_pos >= len(order):
            self._settle_showdown()
        else:
            self._to_act = self.to_act = order[self._sd_pos]

    def _winner_among(self, eligible: list[int], lone: int | None) -> int:
        """Who takes a pot (layer) contended by ``eligible`` (R-9, R-10): the one contender
        left (``lone``) if eligible, else the best declared point (ties: priority); when
        all of them conceded, the one with the highest priority."""
        conceded = self._conceded
        prio = self.prio
        cands = [s for s in eligible if s not in conceded]
        if not cands:
            return min(eligible, key=prio.__getitem__)
        if lone is not None and lone in cands:
            return lone
        declared = self._declared
        by_total = self.rules.ranking == "total"
        best = -1
        best_key: tuple[tuple[int, int], int] = ((-1, -1), 0)
        for s in cands:
            p = declared.get(s)
            if p is None:
                continue
            # under ranking=total the sum alone, the number of cards never counts
            k = ((p.total, 0) if by_total else (p.count, p.total), -prio[s])
            if best < 0 or k > best_key:
                best, best_key = s, k
        if best < 0:
            return min(cands, key=prio.__getitem__)
        return best

    def _settle_showdown(self) -> None:
        self._to_act = self.to_act = None
        contenders = self._sd_order
        conceded = self._conceded
        alive = [s for s in contenders if s not in conceded]
        lone = alive[0] if len(alive) == 1 else None
        top = self._winner_among(contenders, lone)
        n = self.n
        bets = self._bets
        deal_no = self.deal_no
        chips = self.chips
        ev = self._events
        level = bets[top]
        one_level = max(bets) == level
        if one_level:
            for s in contenders:
                if bets[s] != level:
                    one_level = False
                    break
        if one_level:
            # one level (no all-in below it): every chip goes to the best of all contenders
            amount = self._take_base() + sum(bets)
            self._bets = [0] * n
            if amount:
                chips[top] += amount
                data = (
                    {"pot": "small", "deal": deal_no}
                    if deal_no is not None
                    else {"pot": "big", "deal": None}
                )
                data["amount"] = amount
                data["shown"] = top in self._declared
                ev.append(_new(Event, ("win", top, data)))
            self._after_point()
            return
        won = [0] * n
        won[top] += self._take_base()
        prev = 0
        for lv in sorted({bets[s] for s in contenders}):
            if lv <= prev:
                continue
            layer = sum(min(b, lv) - min(b, prev) for b in bets)
            elig = [s for s in contenders if bets[s] >= lv]
            won[self._winner_among(elig, lone)] += layer
            prev = lv
        leftover = sum(b - min(b, prev) for b in bets)
        if leftover:  # cannot happen (the top bettor is a contender) but never lose chips
            won[self._winner_among(contenders, lone)] += leftover
        self._bets = [0] * n
        declared = self._declared
        for s in self._after[self.dealer]:  # priority order: eldest first
            if won[s]:
                chips[s] += won[s]
                data = (
                    {"pot": "small", "deal": deal_no}
                    if deal_no is not None
                    else {"pot": "big", "deal": None}
                )
                data["amount"] = won[s]
                data["shown"] = s in declared
                ev.append(_new(Event, ("win", s, data)))
        self._after_point()

    def _after_point(self) -> None:
        if self.deal_no is not None:
            nxt = self.deal_no + 1
            if nxt < len(self._deals):
                self._begin_deal(nxt)
                return
            self.deal_no = None
            self.point = "big"
            self.phase = "big_point"
            self._events.append(_new(Event, ("phase", None, {"phase": "big_point"})))
            self._start_round()
            return
        self._specials()

    # --- R-11 special hands, R-12 stoppa, R-13 payment -----------------------------------

    def _claimant(self, kind: str, groups: list[list[list[Card]]]) -> int | None:
        """The first seat from the eldest holding the special hand ``kind`` (R-11), or None.

        ``groups[s][rank]``: the cards of each rank seat ``s`` holds.
        """
        full = self.rules.rank_counts()
        variant = self.rules.blocked_stoppa
        for s in self._after[self.dealer]:
            g = groups[s]
            kings = len(g[10])
            if kind == "ricchezza":
                ok = full[10] > 0 and kings == full[10]
            elif kind == "misera":
                ok = not (g[8] or g[9] or kings)
            elif variant == "four_aces":
                ok = len(g[1]) == full[1]
            elif variant == "three_twos_no_king":
                ok = len(g[2]) >= 3 and not kings
            elif variant == "three_aces_no_king":
                ok = len(g[1]) >= 3 and not kings
            elif variant == "four_aces_no_king":
                ok = len(g[1]) == full[1] and not kings
            elif variant == "three_aces":
                ok = len(g[1]) >= 3
            else:
                ok = False
            if ok:
                return s
        return None

    def _specials(self) -> None:
        # the stoppa's by-rank groups are also what the special hands are checked on
        st = Stoppa._setup(self.hands, self.eldest, self.rules, whole_deck=True)
        kinds = ("ricchezza", "misera", "assi")
        if self.rules.stoppa_povera == "off":
            kinds = ("ricchezza", "assi")
        for kind in kinds:
            holder = self._claimant(kind, st._held)
            if holder is None:
                continue
            self.special = kind
            dues = []
            if kind != "assi":
                for j in range(1, self.n):
                    s = (holder + j) % self.n
                    left = len(self.hands[s])
                    owe = (
                        self.rules.ante
                        if self.rules.special_payout == "ante"
                        else self.rules.payment(left)
                    )
                    dues.append((s, owe, left))
            self._events.append(
                _new(
                    Event,
                    (
                        "special",
                        holder,
                        {
                            "kind": kind,
                            "cards": [c.code for c in sorted(self.hands[holder], key=_ORDER)],
                            "payments": [
                                {"from": s, "to": holder, "amount": min(owe, self.chips[s])}
                                for s, owe, _ in dues
                            ],
                        },
                    ),
                )
            )
            for s, owe, left in dues:
                self._pay(s, holder, owe, left)
            self._finish()
            return
        self.phase = "stoppa"
        self._events.append(_new(Event, ("phase", None, {"phase": "stoppa"})))
        st._events = self._events
        self._stoppa = st
        st._advance()
        self.to_act = st.to_act
        if st.winner is not None:
            self._close(st.winner)

    def _pay(self, payer: int, to: int, owe: int, cards: int) -> None:
        chips = self.chips
        amount = owe if owe < chips[payer] else chips[payer]
        chips[payer] -= amount
        chips[to] += amount
        self._events.append(
            _new(
                Event,
                (
                    "payment",
                    payer,
                    {"from": payer, "to": to, "amount": amount, "owed": owe, "cards": cards},
                ),
            )
        )

    def _close(self, closer: int) -> None:
        st = self._stoppa
        assert st is not None
        rules = self.rules
        rate, per = rules.card_rate, rules.cards_per_payment  # R-13, as Rules.payment
        left = st._left
        for s in self._after[closer][:-1]:
            self._pay(s, closer, rate * (left[s] // per), left[s])
        self._finish()

    def _finish(self) -> None:
        self.phase = "over"
        self._to_act = self.to_act = None
        self.result = [self.chips[s] - self.start_chips[s] for s in range(self.n)]
        self._events.append(_new(Event, ("phase", None, {"phase": "over", "result": self.result})))

    # --- views and serialisation ---------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (None: a spectator), JSON-able; see the module docstring."""
        n = self.n
        to_act = self.to_act
        betting = None
        if self.phase in ("small_point", "big_point"):
            rng = self._range(seat) if seat is not None and seat == to_act else None
            betting = {
                "level": self._level,
                "to_call": (
                    max(0, min(self._level - self._bets[seat], self.chips[seat]))
                    if seat is not None
                    else None
                ),
                "min_raise": self._level + self.rules.cip if self._level else self.rules.cip,
                "max": self.rules.max_bet,
                "active": list(self._active),
                "allin": list(self._allin),
                "bet_range": list(rng) if rng else None,
            }
        showdown = None
        if self.phase == "showdown":
            showdown = {
                "order": list(self._sd_order),
                "declared": {str(s): [c.code for c in p.cards] for s, p in self._declared.items()},
                "conceded": sorted(self._conceded),
            }
        st = self._stoppa
        own = self.cards(seat) if seat is not None else []
        return {
            "seat": seat,
            "players": n,
            "dealer": self.dealer,
            "eldest": self.eldest,
            "phase": self.phase,
            "point": self.point if self.phase not in ("stoppa", "over") else None,
            "deal_no": self.deal_no,
            "to_act": to_act,
            "hand": [c.code for c in own],
            "new_cards": (
                [c.code for c in self._deal_cards[seat]]
                if seat is not None and self.deal_no is not None
                else []
            ),
            "chips": list(self.chips),
            "card_counts": [self.card_count(s) for s in range(n)],
            "pots": self.pots,
            "betting": betting,
            "showdown": showdown,
            "declared": [dict(d) for d in self.shown],
            "stoppa": st.view() if st is not None else None,
            "special": self.special,
            "legal": (
                [str(a) for a in self.legal_actions()]
                if seat is not None and seat == to_act
                else []
            ),
            "result": list(self.result) if self.result is not None else None,
            "events": [e.to_dict() for e in self.events_for(seat)],
            "rules": self.rules.to_dict(),
        }

    def _digest(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "to_act": self.to_act,
            "chips": list(self.chips),
            "pots": self.pots,
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
    def from_dict(cls, d: dict[str, Any]) -> Hand:
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
