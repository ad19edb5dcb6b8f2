"""The stoppa, the shedding phase (R-12), and its close (R-13).

``Stoppa.from_hands(hands, first, rules)`` starts the phase with ``first`` (the eldest hand)
to move, open. Every forced play is made by the engine (an automation); ``to_act`` is set only
when a player must *open* while holding more than one rank, the only choice of the stoppa.
``legal_plays()`` lists one ``Play`` per rank held: one card of that rank, or all the player's
aces, or the complete four of a kind (three when the deck lacks a card of the rank).
``act(seat, Play(cards))`` accepts any card of a rank (suits do not matter).

Decisions where RULES.md is silent:
- Which card of a rank a forced play uses: the lowest in card order (c d s b); suits do not
  matter in this phase.
- A player who throws aces under ``three_aces_jump`` then continues from the needed rank
  above the ace in the same turn (as for any ace play).
- "Four of a kind" means every card of that rank in the used deck (R-2): with a king or a
  suit removed, three of a kind of the incomplete ranks.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import attrgetter
from typing import Any

from .actions import IllegalAction, Play
from .cards import ALL_CARDS, Card
from .events import Event
from .rules import Rules

_ORDER = attrgetter("order")
_new = tuple.__new__
_CODE = attrgetter("code")
#: Play((card,)) for every card, by card index (plays are immutable, so they can be shared)
_SINGLE_PLAYS = tuple(Play((c,)) for c in ALL_CARDS)
_GROUP_PLAYS: dict[tuple[int, ...], Play] = {}


def _play_of(cards: Sequence[Card]) -> Play:
    """The (shared) ``Play(cards)``."""
    key = tuple(map(_INDEX, cards))
    p = _GROUP_PLAYS.get(key)
    if p is None:
        p = _GROUP_PLAYS[key] = Play(tuple(cards))
    return p


_INDEX = attrgetter("index")


def _by_rank(cards: Iterable[Card]) -> list[list[Card]]:
    """``[[], cards of rank 1, ..., cards of rank 10]``, each in suit order (c d s b)."""
    by_rank: list[list[Card]] = [[], [], [], [], [], [], [], [], [], [], []]
    for c in sorted(cards, key=_ORDER):
        by_rank[c.rank].append(c)
    return by_rank


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
        "table",
        "to_act",
        "turn",
        "winner",
    )

    def __init__(self) -> None:
        self._events: list[Event] = []
        self.table: list[list[Card]] = []
        self.winner: int | None = None
        self.to_act: int | None = None
        self.needed: int | None = None
        self.last_rank: int | None = None
        self.last: tuple[Card, ...] = ()
        self.senza: list[tuple[int, int]] = []

    @classmethod
    def from_hands(
        cls, hands: Sequence[Sequence[Card]], first: int, rules: Rules | None = None
    ) -> Stoppa:
        """Start the phase: ``hands[seat]`` are the cards held, ``first`` moves first, open.

        ValueError if a card is held twice."""
        every = [c for cards in hands for c in cards]
        if len(set(every)) != len(every):
            raise ValueError("a card cannot be held twice")
        self = cls._setup(hands, first, rules)
        self._advance()
        return self

    @classmethod
    def _setup(
        cls,
        hands: Sequence[Sequence[Card]],
        first: int,
        rules: Rules | None,
        whole_deck: bool = False,
    ) -> Stoppa:
        """The phase before its first move; ``whole_deck``: ``hands`` hold every card of the
        used deck (as in a dealt hand), so every rank is live in full."""
        rules = rules or Rules(players=max(3, min(6, len(hands))))
        self = cls()
        self.n = len(hands)
        full = self._full = rules.rank_counts()
        self._jump = rules.three_aces_jump
        held = self._held = list(map(_by_rank, hands))
        self._left = list(map(len, hands))
        # live[r]: cards of rank r still held (1..10); live[11] = 1 is a sentinel that ends
        # the search for the next live rank
        if whole_deck:
            self.live = [*full, 1]
        else:
            self.live = [sum(len(h[r]) for h in held) if r <= 10 else 1 for r in range(12)]
        self.turn = first
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
        for r in range(10, 0, -1):
            if self.live[r]:
                return r
        return None

    @property
    def over(self) -> bool:
        """True once a player has closed."""
        return self.winner is not None

    def legal_plays(self) -> list[Play]:
        """The openings available to ``to_act`` (empty when nobody has a choice)."""
        if self.to_act is None:
            return []
        out = []
        full = self._full
        for group in self._held[self.to_act]:
            if group:
                c = group[0]
                if len(group) > 1 and (c.rank == 1 or len(group) == full[c.rank]):
                    out.append(_play_of(group))
                else:
                    out.append(_SINGLE_PLAYS[c.index])
        return out

    def default_play(self) -> Play:
        """What a timeout plays: the lowest rank held (all aces, or a full set, together)."""
        plays = self.legal_plays()
        if not plays:
            raise IllegalAction("not_a_choice")
        return plays[0]

    def events(self) -> list[Event]:
        """Every event of the phase so far."""
        return list(self._events)

    def view(self) -> dict[str, Any]:
        """JSON-able public state: table, needed, closer, last play, to_act, card counts."""
        return {
            "table": [[c.code for c in play] for play in self.table],
            "needed": self.needed,
            "closer": self.closer,
            "last": [c.code for c in self.last],
            "to_act": self.to_act,
            "card_counts": list(self._left),
            "winner": self.winner,
        }

    # --- actions -------------------------------------------------------------------------

    def check(self, seat: int, action: object) -> tuple[int, tuple[Card, ...]]:
        """Validate an opening; return (rank, cards) or raise IllegalAction."""
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
            self.check(seat, action)
        except IllegalAction:
            return False
        return True

    def act(self, seat: int, action: Play) -> list[Event]:
        """Open with ``action``; the engine then makes every forced play. Returns new events."""
        r, cards = self.check(seat, action)
        start = len(self._events)
        self.to_act = None
        self._advance(r, cards)
        return self._events[start:]

    # --- the automaton -------------------------------------------------------------------

    def _advance(self, rank: int = 0, chosen: tuple[Card, ...] | None = None) -> None:
        """Make ``chosen`` (cards of ``rank``, checked) when given, the opening of ``turn``,
        then every forced play until a choice is due or someone closes.

        The plays are made inline: forced plays are most of a hand's work.
        """
        if self.winner is not None:
            return
        held = self._held
        n = self.n
        live = self.live
        left = self._left
        full = self._full
        jump = self._jump
        table_append = self.table.append
        ev_append = self._events.append
        senza_append = self.senza.append
        s = self.turn
        need = self.needed
        last_rank = self.last_rank
        last = self.last
        h = held[s]
        while True:
            if chosen is not None:
                r = rank
                group = h[r]
                if len(chosen) == len(group):
                    group.clear()
                else:
                    for c in chosen:
                        group.remove(c)
                last = chosen
                k = len(last)
                table_append(list(last))
                codes = list(map(_CODE, last))
                chosen = None
                forced = False
            else:
                if need is None:
                    r = 0
                    for q in range(1, 11):
                        if h[q]:
                            if r:  # two ranks or more: the player chooses how to open
                                self.turn = s
                                self.needed = None
                                self.last_rank = last_rank
                                self.last = last
                                self.to_act = s
                                return
                            r = q
                elif last_rank == 1 and h[1]:
                    r = 1
                elif h[need]:
                    r = need
                elif jump and len(h[1]) >= 3 and not h[10]:
                    r = 1
                else:
                    senza_append(_SENZA[s][need])
                    ev_append(_new(Event, ("senza", s, {"needed": need})))
                    s += 1
                    if s == n:
                        s = 0
                    h = held[s]
                    continue
                group = h[r]
                if len(group) == 1 or not (r == 1 or len(group) == full[r]):
                    c = group.pop(0)  # one card: the lowest of the rank in card order
                    last = _ALONE[c.index]
                    k = 1
                    table_append([c])
                    codes = [c.code]
                else:  # all the player's aces, or a complete set, go together
                    last = tuple(group)
                    group.clear()
                    k = len(last)
                    table_append(list(last))
                    codes = list(map(_CODE, last))
                forced = True
            live[r] -= k
            k = left[s] - k
            left[s] = k
            ev_append(_new(Event, ("play", s, {"cards": codes, "forced": forced})))
            if not k:
                self.turn = s
                self.last = last
                self.winner = s
                self.needed = None
                self.last_rank = last_rank
                ev_append(_new(Event, ("close", s, {})))
                return
            need = r + 1
            while not live[need]:  # live[11] is 1: the search ends there
                need += 1
            if need == 11:
                need = None
                last_rank = None
            else:
                last_rank = r


#: ``(card,)`` by card index, and ``(seat, rank)`` of a "senza" pass: shared, immutable
_ALONE = tuple((c,) for c in ALL_CARDS)
_SENZA = tuple(tuple((s, r) for r in range(12)) for s in range(6))
