"""What one seat (or a spectator) may see of a hand, typed.

``seat_view(hand, seat)`` (also ``Hand.seat_view``) returns a ``SeatView``: frozen dataclasses
that carry the facts the bot's outer rings would otherwise derive from the rules themselves:
the seat's eligible cards and best point (R-7), whose turn it is, the legal actions with the
bet range (R-8), each seat's public state and shown cards, the pots, and in the stoppa the
open sequence and the needed rank (R-12). Nothing in it is private to another seat.
It reads the hand only through its public API.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

from .actions import Action
from .cards import Card
from .points import Point
from .rules import Rules

if TYPE_CHECKING:
    from .hand import Hand


@dataclass(frozen=True, slots=True)
class Pots:
    """The chips on the table: ``small`` left per deal, ``big``, this round's ``bets`` per
    seat, the ``carry`` brought into this hand and the ``carry_out`` left for the next."""

    small: tuple[int, ...]
    big: int
    bets: tuple[int, ...]
    carry: int
    carry_out: int


@dataclass(frozen=True, slots=True)
class BettingView:
    """A betting round (R-8): the ``level``, what the viewer would put in to call
    (``to_call``, None for a spectator), the lowest raise (or bet), ``max_bet``, which seats
    are still in or all-in, and the viewer's ``bet_range`` when it is their turn."""

    level: int
    to_call: int | None
    min_raise: int
    max_bet: int
    active: tuple[bool, ...]
    allin: tuple[bool, ...]
    bet_range: tuple[int, int] | None


@dataclass(frozen=True, slots=True)
class ShownPoint:
    """A point a seat declared at a showdown (R-9): its cards are public from then on."""

    seat: int
    cards: tuple[Card, ...]
    value: int
    pot: str
    deal: int | None


@dataclass(frozen=True, slots=True)
class ShowdownView:
    """The showdown in play: the ``order`` of showing, the points ``declared`` so far by
    seat, and who ``conceded``."""

    order: tuple[int, ...]
    declared: Mapping[int, Point]
    conceded: tuple[int, ...]

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled with ``declared`` as a dict (a read-only mapping proxy does not pickle), so
        a seat view crosses to a CPU player's worker process (``bot.thinking``)."""
        return _showdown_view, (self.order, dict(self.declared), self.conceded)


def _showdown_view(order: tuple[int, ...], declared: dict[int, Point],
                   conceded: tuple[int, ...]) -> ShowdownView:
    """A `ShowdownView` unpickled: ``declared`` read-only again."""
    return ShowdownView(order, MappingProxyType(declared), conceded)


@dataclass(frozen=True, slots=True)
class StoppaView:
    """The stoppa (R-12): every play on the ``table``, the plays of the open ``sequence``,
    the ``needed`` rank (None: the player to move opens), the ``closer`` (highest live rank),
    the ``last`` play, who chooses an opening (``to_act``) and the ``winner`` once closed."""

    table: tuple[tuple[Card, ...], ...]
    sequence: tuple[tuple[Card, ...], ...]
    needed: int | None
    closer: int | None
    last: tuple[Card, ...]
    to_act: int | None
    winner: int | None


@dataclass(frozen=True, slots=True)
class SeatPublic:
    """What everyone sees of one seat: chips, number of cards, this round's bet, whether it
    is still in the betting round (``status``: "in", "passed" or "allin"; "in" outside
    betting), whether it deals, and the points it has shown this hand."""

    seat: int
    chips: int
    card_count: int
    bet: int
    status: str
    dealer: bool
    shown: tuple[ShownPoint, ...]


@dataclass(frozen=True, slots=True)
class SeatView:
    """What ``seat`` (None: a spectator) may see of a hand. ``hand`` and ``eligible`` are the
    viewer's own cards in card order (all of them, and those usable for the current point:
    this deal's cards for a small point, R-7); ``best_point``
    is the best point of the eligible cards while a point is played (None in the stoppa and
    once over); ``legal`` and ``bet_range`` are filled only on the viewer's turn."""

    seat: int | None
    players: int
    dealer: int
    eldest: int
    phase: str
    point: str | None
    deal_no: int | None
    to_act: int | None
    your_turn: bool
    hand: tuple[Card, ...]
    eligible: tuple[Card, ...]
    best_point: Point | None
    legal: tuple[Action, ...]
    bet_range: tuple[int, int] | None
    seats: tuple[SeatPublic, ...]
    pots: Pots
    betting: BettingView | None
    showdown: ShowdownView | None
    declared: tuple[ShownPoint, ...]
    stoppa: StoppaView | None
    special: str | None
    result: tuple[int, ...] | None
    rules: Rules


def _shown(hand: Hand) -> tuple[ShownPoint, ...]:
    return hand.shown


def _betting(hand: Hand, seat: int | None) -> BettingView | None:
    betting = hand.betting
    if betting is None:
        return None
    rules = hand.rules
    return BettingView(
        level=betting.level,
        to_call=betting.to_call(seat) if seat is not None else None,
        min_raise=betting.level + rules.cip if betting.level else rules.cip,
        max_bet=rules.max_bet,
        active=tuple(betting.active),
        allin=tuple(betting.allin),
        bet_range=hand.bet_range(seat) if seat is not None else None,
    )


def _stoppa(hand: Hand) -> StoppaView | None:
    st = hand.stoppa
    if st is None:
        return None
    return StoppaView(
        table=tuple(tuple(play) for play in st.table),
        sequence=tuple(tuple(play) for play in st.sequence),
        needed=st.needed,
        closer=st.closer,
        last=tuple(st.last),
        to_act=st.to_act,
        winner=st.winner,
    )


def seat_view(hand: Hand, seat: int | None) -> SeatView:
    """The typed view of ``hand`` for ``seat`` (see ``SeatView``)."""
    n = hand.n
    mine = seat is not None and seat == hand.to_act
    playing_point = hand.phase not in ("stoppa", "over")
    shown = _shown(hand)
    betting = _betting(hand, seat)
    bets = hand.bets
    seats = []
    for s in range(n):
        status = "in"
        if betting is not None:
            status = "allin" if betting.allin[s] else "in" if betting.active[s] else "passed"
        seats.append(
            SeatPublic(
                seat=s,
                chips=hand.chips[s],
                card_count=hand.card_count(s),
                bet=bets[s],
                status=status,
                dealer=s == hand.dealer,
                shown=tuple(p for p in shown if p.seat == s),
            )
        )
    showdown = hand.showdown
    eligible = tuple(sorted(hand.eligible(seat))) if seat is not None and playing_point else ()
    return SeatView(
        seat=seat,
        players=n,
        dealer=hand.dealer,
        eldest=hand.eldest,
        phase=hand.phase,
        point=hand.point if playing_point else None,
        deal_no=hand.deal_no,
        to_act=hand.to_act,
        your_turn=mine,
        hand=tuple(hand.cards(seat)) if seat is not None else (),
        eligible=eligible,
        best_point=hand.best_point(seat) if seat is not None and eligible else None,
        legal=tuple(hand.legal_actions()) if mine else (),
        bet_range=hand.bet_range(seat) if seat is not None else None,
        seats=tuple(seats),
        pots=hand.pots,
        betting=betting,
        showdown=(
            ShowdownView(
                order=tuple(showdown.order),
                declared=MappingProxyType(dict(showdown.declared)),
                conceded=tuple(sorted(showdown.conceded)),
            )
            if showdown is not None
            else None
        ),
        declared=shown,
        stoppa=_stoppa(hand),
        special=hand.special,
        result=tuple(hand.result) if hand.result is not None else None,
        rules=hand.rules,
    )
