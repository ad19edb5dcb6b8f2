"""The showdown (R-9): who shows in which order, what each may declare, who wins which chips.

``Showdown(order, ...)`` is a showdown in progress: ``to_act`` declares or concedes in turn
(``legal_actions`` lists the choices, ``verify`` says why an action is refused, ``act``
verifies, then records it) until everyone has shown or only one contender has not conceded.
``winnings`` then splits the pot and the bets of the round, layer by layer for all-in players
(R-8's side pots).

``declarations(mask, ranking)`` lists what a seat holding the cards of ``mask`` may declare,
best first, then Concede. The declarations of every set of at most three cards (every deal of a
small point) are tabled once per process, by ``prepare()`` or at the first showdown; larger
sets are computed on demand.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from .actions import Action, Concede, Declare, IllegalAction
from .betting import action_word
from .cards import Card
from .events import Conceded, Declared, Event
from .points import RANKINGS, Point, all_point_keys, declarable_keys

_CONCEDE = Concede()


def showdown_key(point: Point, ranking: str) -> tuple[int, ...]:
    """What R-7 compares between two declared points (ties then go to priority): the number
    of cards, then the total; with ``ranking="total"`` the total alone."""
    return (point.total,) if ranking == "total" else (point.count, point.total)


# --- what a seat may declare ---------------------------------------------------------------

#: ranking -> point key -> the Declare of that point (every point of the deck, 4 x 175)
_DECLARES: dict[str, dict[int, Declare]] = {}
#: ranking -> mask of at most 3 cards -> its declarations (built by ``prepare``)
_SMALL_DECLARES: dict[str, dict[int, tuple[Action, ...]]] = {}


def _declare_table(ranking: str) -> dict[int, Declare]:
    table = _DECLARES.get(ranking)
    if table is None:
        table = _DECLARES[ranking] = {
            k: Declare(p.cards) for k, p in all_point_keys(ranking).items()
        }
    return table


def compute_declarations(mask: int, ranking: str) -> list[Action]:
    """Every Declare the cards of ``mask`` allow, best first, then Concede (computed)."""
    table = _declare_table(ranking)
    out: list[Action] = [table[k] for k in declarable_keys(mask, ranking)]
    out.append(_CONCEDE)
    return out


def declarations(mask: int, ranking: str) -> list[Action]:
    """Every Declare the cards of ``mask`` allow, best first, then Concede (a new list)."""
    small = _SMALL_DECLARES.get(ranking)
    if small is None:
        prepare()
        small = _SMALL_DECLARES[ranking]
    got = small.get(mask)
    return list(got) if got is not None else compute_declarations(mask, ranking)


def prepare() -> None:
    """Build the engine's lookup tables now (about 0.1 s of CPU, once per process) instead of
    at the first showdown of each ranking: a bot calls this off its event loop at start.

    The table holds the declarations of every set of at most 3 cards (the cards of one
    small-point deal), about 10,700 sets per ranking.
    """
    bits = [1 << i for i in range(40)]
    for ranking in RANKINGS:
        if ranking in _SMALL_DECLARES:
            continue
        small = {0: tuple(compute_declarations(0, ranking))}
        for size in (1, 2, 3):
            for combo in combinations(bits, size):
                mask = sum(combo)
                small[mask] = tuple(compute_declarations(mask, ranking))
        _SMALL_DECLARES[ranking] = small


#: the Point made by exactly the cards of a mask (only masks of valid points are kept)
_POINT_OF_MASK: dict[int, Point] = {}


def point_of(cards: tuple[Card, ...], mask: int) -> Point | None:
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


# --- the showdown --------------------------------------------------------------------------


class Showdown:
    """A showdown in progress; see the module docstring."""

    __slots__ = (
        "_eligible",
        "_events",
        "_held",
        "_pos",
        "_ranking",
        "conceded",
        "deal",
        "declared",
        "order",
        "pot",
        "to_act",
    )

    def __init__(
        self,
        order: list[int],
        events: list[Event],
        *,
        held: Sequence[int],
        eligible: Sequence[int],
        ranking: str,
        deal: int | None,
    ) -> None:
        """``order``: the contenders in the order they show (R-9); ``held[s]`` and
        ``eligible[s]``: masks of each seat's cards and of those it may use for this point
        (R-7); ``deal``: the small point's deal, None for the big point."""
        self._events = events
        self._held = held
        self._eligible = eligible
        self._ranking = ranking
        self.order = order
        self.deal = deal
        #: the pot played for: "small" (of deal ``deal``) or "big"
        self.pot = "small" if deal is not None else "big"
        self._pos = 0
        #: the point each contender declared, in the order they were declared
        self.declared: dict[int, Point] = {}
        self.conceded: set[int] = set()
        self.to_act: int | None = order[0]

    @property
    def over(self) -> bool:
        """True once everyone has shown, or one contender is left."""
        return self.to_act is None

    def legal_actions(self) -> list[Action]:
        """What ``to_act`` may declare, best first, then Concede (see ``declarations``)."""
        if self.to_act is None:
            return []
        return declarations(self._eligible[self.to_act], self._ranking)

    def verify(self, seat: int, action: object) -> Point | None:
        """The point ``seat`` (whose turn it is) declares, None for a concession; raise
        IllegalAction if refused."""
        held, eligible = self._held[seat], self._eligible[seat]
        if isinstance(action, Concede):
            return None
        if not isinstance(action, Declare):
            raise IllegalAction("wrong_phase", action=action_word(action), phase="showdown")
        mask = 0
        for c in action.cards:
            if not isinstance(c, Card) or not held >> c.index & 1:
                raise IllegalAction("card_not_held", card=str(c))
            if not eligible >> c.index & 1:
                raise IllegalAction("card_not_eligible", card=str(c))
            mask |= c.bit
        point = point_of(action.cards, mask)
        if point is None:
            raise IllegalAction("bad_point")
        return point

    def act(self, seat: int, action: object) -> None:
        """Record ``seat``'s declaration or concession (``seat``'s turn) once ``verify``
        accepts it; move the turn on."""
        point = self.verify(seat, action)
        if point is None:
            self.conceded.add(seat)
            self._events.append(Conceded(seat))
        else:
            self.declared[seat] = point
            self._events.append(Declared(seat, point.codes, point.total, point.count))
        self._pos += 1
        if len(self.order) - len(self.conceded) == 1 or self._pos >= len(self.order):
            self.to_act = None
        else:
            self.to_act = self.order[self._pos]

    def winner_among(
        self, eligible: Sequence[int], lone: int | None, prio: Sequence[int], ranking: str
    ) -> int:
        """Who takes a pot (layer) contended by ``eligible`` (R-9, R-10): the one contender
        left (``lone``) if eligible, else the best declared point (R-7, ties: priority, where
        0 is the highest); when all of them conceded, the one with the highest priority."""
        cands = [s for s in eligible if s not in self.conceded]
        if not cands:
            return min(eligible, key=prio.__getitem__)
        if lone is not None and lone in cands:
            return lone
        best, best_key = None, None
        for s in cands:
            point = self.declared.get(s)
            if point is not None:
                key = (showdown_key(point, ranking), -prio[s])
                if best_key is None or key > best_key:
                    best, best_key = s, key
        return min(cands, key=prio.__getitem__) if best is None else best

    def winnings(
        self, bets: Sequence[int], base: int, prio: Sequence[int], ranking: str
    ) -> list[int]:
        """What each seat wins: ``base`` (the pot) goes to the best contender, each layer of
        the ``bets`` to the best contender who matched it (R-8 side pots)."""
        contenders = self.order
        alive = [s for s in contenders if s not in self.conceded]
        lone = alive[0] if len(alive) == 1 else None
        won = [0] * len(bets)
        top = self.winner_among(contenders, lone, prio, ranking)
        levels = sorted({bets[s] for s in contenders})
        if len(levels) == 1:  # nobody all-in below the level: one pot, to the best contender
            won[top] = base + sum(bets)
            return won
        won[top] += base
        prev = 0
        for lv in levels:
            layer = sum(min(b, lv) - min(b, prev) for b in bets)
            eligible = [s for s in contenders if bets[s] >= lv]
            won[self.winner_among(eligible, lone, prio, ranking)] += layer
            prev = lv
        leftover = sum(b - min(b, prev) for b in bets)
        if leftover:  # cannot happen (the top bettor is a contender) but never lose chips
            won[self.winner_among(contenders, lone, prio, ranking)] += leftover
        return won
