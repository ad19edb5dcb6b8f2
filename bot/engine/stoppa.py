"""The stoppa, the shedding phase (R-12), and its close (R-13).

``Stoppa.from_hands(hands, first, rules, events)`` starts the phase with ``first`` (the eldest
hand) to move, open, appending its events to ``events`` (a hand passes its own log). Every
forced play is made by the engine (an automation); ``to_act`` is set only when a player must
*open* while holding more than one rank, the only choice of the stoppa.
``legal_actions()`` (also ``legal_plays()``) lists one ``Play`` per rank held: one card of that
rank, or all the player's aces, or the complete four of a kind (three when the deck lacks a
card of the rank).
``verify(seat, action)`` raises ``IllegalAction`` with the reason a play is refused (and
returns the rank and cards of an accepted one), ``can`` says yes or no, ``act`` verifies and
plays: any card of a rank is accepted (suits do not matter). ``next_live_rank`` is the
sequence rule (which rank a play calls for next), ``sequence`` the plays of the open sequence.

Decisions where docs/rules-spec.md is silent:
- Which card of a rank a forced play uses: the lowest in card order (c d s b); suits do not
  matter in this phase.
- A player who throws aces under ``three_aces_jump`` then continues from the needed rank
  above the ace in the same turn (as for any ace play).
- "Four of a kind" means every card of that rank in the used deck (R-2): with a king or a
  suit removed, three of a kind of the incomplete ranks.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import chain
from operator import attrgetter

from .actions import Action, IllegalAction, Play
from .cards import ALL_CARDS, RANK_BITS, Card, mask_of
from .events import Closed, Event, Played, Senza
from .rules import Rules

_ORDER = attrgetter("order")
#: ``Play((card,))`` of every card, by card index: a table of values, built once
_SINGLE_PLAYS = tuple(Play((c,)) for c in ALL_CARDS)
#: ``Play(cards)`` of the groups played together (aces, four of a kind), by their indices
_GROUP_PLAYS: dict[tuple[int, ...], Play] = {}


def _group_play(cards: Sequence[Card]) -> Play:
    """The ``Play`` of a group of cards played together (plays are values: made once)."""
    key = tuple(c.index for c in cards)
    play = _GROUP_PLAYS.get(key)
    if play is None:
        play = _GROUP_PLAYS[key] = Play(tuple(cards))
    return play
#: the highest rank, and the index of the sentinel that ends a search for the next live rank
_KING = 10
_SENTINEL = _KING + 1


def next_live_rank(live: Sequence[int], rank: int) -> int | None:
    """R-12's sequence rule: the rank a play of ``rank`` calls for next, the first rank above it
    that some player still holds (``live[r]`` cards of rank ``r``), or None when ``rank`` is
    the closer. ``live`` has a non-zero sentinel at index 11 (see ``Stoppa.live``)."""
    need = rank + 1
    while not live[need]:
        need += 1
    return None if need == _SENTINEL else need


def by_rank(cards: Iterable[Card]) -> list[list[Card]]:
    """``[[], cards of rank 1, ..., cards of rank 10]``, each in card order (c d s b)."""
    groups: list[list[Card]] = [[], [], [], [], [], [], [], [], [], [], []]
    for c in sorted(cards, key=_ORDER):
        groups[c.rank].append(c)
    return groups


class Stoppa:
    """State of the shedding phase. See the module docstring."""

    __slots__ = (
        "_events",
        "_full",
        "_held",
        "_jump",
        "_left",
        "last",
        "last_rank",
        "live",
        "n",
        "needed",
        "senza",
        "sequence_start",
        "table",
        "to_act",
        "turn",
        "winner",
    )

    def __init__(
        self,
        hands: Sequence[Sequence[Card]],
        first: int,
        rules: Rules | None = None,
        events: list[Event] | None = None,
    ) -> None:
        """The phase before its first move (``from_hands`` also makes the forced plays)."""
        self._left = list(map(len, hands))
        #: each seat's cards by rank (see ``by_rank``)
        self._held = [by_rank(h) for h in hands]
        held = mask_of(chain.from_iterable(hands))
        if held.bit_count() != sum(self._left):
            raise ValueError("a card cannot be held twice")
        #: live[r]: cards of rank r still held (1..10); live[11] = 1 is the sentinel of
        #: ``next_live_rank``
        self.live = [(held & bits).bit_count() for bits in RANK_BITS]
        self.live.append(1)
        rules = rules or Rules(players=max(3, min(6, len(hands))))
        self._events: list[Event] = events if events is not None else []
        self.n = len(hands)
        self._full = rules.rank_counts()
        self._jump = rules.three_aces_jump
        self.table: list[list[Card]] = []
        #: index in ``table`` of the first play of the open sequence
        self.sequence_start = 0
        self.winner: int | None = None
        self.to_act: int | None = None
        self.turn = first
        self.needed: int | None = None
        self.last_rank: int | None = None
        self.last: tuple[Card, ...] = ()
        self.senza: list[tuple[int, int]] = []

    @classmethod
    def from_hands(
        cls,
        hands: Sequence[Sequence[Card]],
        first: int,
        rules: Rules | None = None,
        events: list[Event] | None = None,
    ) -> Stoppa:
        """Start the phase: ``hands[seat]`` are the cards held, ``first`` moves first, open;
        every forced play is made. ValueError if a card is held twice."""
        self = cls(hands, first, rules, events)
        self._advance()
        return self

    # --- queries -------------------------------------------------------------------------

    def cards(self, seat: int) -> list[Card]:
        """The cards ``seat`` still holds, in card order."""
        return sorted((c for group in self._held[seat] for c in group), key=_ORDER)

    def card_count(self, seat: int) -> int:
        """How many cards ``seat`` still holds."""
        return self._left[seat]

    @property
    def closer(self) -> int | None:
        """The highest live rank (R-12), None once nobody holds a card."""
        for r in range(_KING, 0, -1):
            if self.live[r]:
                return r
        return None

    @property
    def over(self) -> bool:
        """True once a player has closed."""
        return self.winner is not None

    @property
    def sequence(self) -> list[list[Card]]:
        """The plays of the sequence still open (since the last opening), oldest first."""
        return [list(play) for play in self.table[self.sequence_start :]]

    def legal_actions(self) -> list[Action]:
        """The openings available to ``to_act`` (empty when nobody has a choice)."""
        if self.to_act is None:
            return []
        out: list[Action] = []
        full = self._full
        for group in self._held[self.to_act]:
            if group:
                c = group[0]
                if len(group) > 1 and (c.rank == 1 or len(group) == full[c.rank]):
                    out.append(_group_play(group))
                else:
                    out.append(_SINGLE_PLAYS[c.index])
        return out

    #: the openings, by the name the stoppa's own callers know
    legal_plays = legal_actions

    def default_play(self) -> Play:
        """What a timeout plays: the lowest rank held (all aces, or a full set, together)."""
        plays = self.legal_actions()
        if not plays:
            raise IllegalAction("not_a_choice")
        play = plays[0]
        assert isinstance(play, Play)
        return play

    def events(self) -> list[Event]:
        """Every event of the phase so far (with a hand's log: the hand's events too)."""
        return list(self._events)

    # --- actions -------------------------------------------------------------------------

    def verify(self, seat: int, action: object) -> tuple[int, tuple[Card, ...]]:
        """Return (rank, cards) of the opening ``action`` or raise IllegalAction saying why not."""
        if self.winner is not None:
            raise IllegalAction("hand_over")
        if self.to_act is None or seat != self.to_act:
            waiting = self.to_act if self.to_act is not None else -1
            raise IllegalAction("not_your_turn", seat=waiting)
        if not isinstance(action, Play):
            raise IllegalAction("wrong_phase", action=str(action).split()[0], phase="stoppa")
        cards = action.cards
        if not cards:
            raise IllegalAction("bad_play", cards="nothing")
        held = self._held[seat]
        for c in cards:
            if not isinstance(c, Card) or c not in held[c.rank]:
                raise IllegalAction("card_not_held", card=str(c))
        r = cards[0].rank
        group = held[r]
        together = r == 1 or len(group) == self._full[r]
        if (
            (
                len(cards) > 1
                and (any(c.rank != r for c in cards) or len({c.index for c in cards}) != len(cards))
            )
            or (together and len(cards) != len(group))
            or (not together and len(cards) != 1)
        ):
            raise IllegalAction("bad_play", cards=" ".join(c.code for c in cards))
        return r, cards

    def can(self, seat: int, action: object) -> bool:
        """True if ``act`` would accept this."""
        try:
            self.verify(seat, action)
        except IllegalAction:
            return False
        return True

    def act(self, seat: int, action: object) -> list[Event]:
        """Open with ``action`` (a ``Play``, verified here); the engine then makes every forced
        play. Returns the new events."""
        rank, cards = self.verify(seat, action)
        start = len(self._events)
        self.to_act = None
        self._advance(rank, cards)
        return self._events[start:]

    # --- the automaton -------------------------------------------------------------------

    def _advance(self, rank: int = 0, chosen: tuple[Card, ...] | None = None) -> None:
        """Make ``chosen`` (cards of ``rank``, verified) when given, the opening of ``turn``,
        then every forced play until a choice is due or someone closes.

        The plays are made inline: forced plays are most of a hand's work.
        One function over the 60-line bound on purpose: this is the engine's measured hot loop
        (`bench/bench_engine.py instructions`); split into helpers, every forced play would
        pay a call and re-read the locals bound below, in the loop a whole hand runs through.
        """
        if self.winner is not None:
            return
        held = self._held
        n = self.n
        live = self.live
        left = self._left
        full = self._full
        jump = self._jump
        table = self.table
        ev_append = self._events.append
        senza_append = self.senza.append
        s = self.turn
        need = self.needed
        last_rank = self.last_rank
        last = self.last
        h = held[s]
        while True:
            if chosen is not None:  # an opening the player chose
                r = rank
                group = h[r]
                if len(chosen) == len(group):
                    group.clear()
                else:
                    for c in chosen:
                        group.remove(c)
                last = chosen
                chosen = None
                forced = False
                self.sequence_start = len(table)
                table.append(list(last))
                codes = tuple([c.code for c in last])
            else:
                if need is None:  # open: a forced opening when a single rank is held
                    r = 0
                    for q in range(1, _SENTINEL):
                        if h[q]:
                            if r:  # two ranks or more: the player chooses how to open
                                self.turn = s
                                self.needed = None
                                self.last_rank = last_rank
                                self.last = last
                                self.to_act = s
                                return
                            r = q
                    self.sequence_start = len(table)
                elif last_rank == 1 and h[1]:  # aces join the ace just played
                    r = 1
                elif h[need]:
                    r = need
                elif jump and len(h[1]) >= 3 and not h[_KING]:
                    r = 1
                else:
                    senza_append((s, need))
                    ev_append(Senza(s, need))
                    s = s + 1 if s + 1 < n else 0
                    h = held[s]
                    continue
                group = h[r]
                if len(group) == 1 or not (r == 1 or len(group) == full[r]):
                    card = group.pop(0)  # one card: the lowest of the rank in card order
                    last = (card,)
                    table.append([card])
                    codes = (card.code,)
                else:  # all the player's aces, or a complete set, go together
                    last = tuple(group)
                    group.clear()
                    table.append(list(last))
                    codes = tuple([c.code for c in last])
                forced = True
            k = len(last)
            live[r] -= k
            left[s] -= k
            ev_append(Played(s, codes, forced))
            if not left[s]:
                self.turn = s
                self.last = last
                self.winner = s
                self.needed = None
                self.last_rank = last_rank
                ev_append(Closed(s))
                return
            need = next_live_rank(live, r)
            last_rank = None if need is None else r
