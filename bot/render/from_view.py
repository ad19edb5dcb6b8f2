"""Snapshots from the engine's typed `SeatView`: the renderer reads fields, never keys.

Every game fact drawn here comes from the view: each seat's status, bet and shown points, the
pots, the open stoppa sequence and the needed rank (R-12), the viewer's eligible cards and best
point (R-7). How a finished hand ended (who closed, the special hand and its proof, the
payments) is read from the public events the caller passes (`events`), and which seats are out
of the game, sit the hand out or are away is the table's business (`out`, `sitting_out`,
`away`). Between hands there is no view: `lobby_snapshot` draws the seated players.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from bot.engine import events as ev
from bot.engine.events import Event
from bot.engine.views import SeatPublic, SeatView, ShownPoint, StoppaView
from bot.render.points import point_info
from bot.render.snapshots import HandSnapshot, PaymentInfo, SeatInfo, TableSnapshot

#: at most this many shown cards are drawn under a seat (a point is 1-3 cards)
SHOWN_CARDS = 3


def _status(seat: SeatPublic, out: Collection[int], sitting_out: Collection[int]) -> str:
    if seat.seat in sitting_out:
        return "sitting_out"
    if seat.seat in out:
        return "out"
    return seat.status


def table_snapshot(
    view: SeatView,
    names: Sequence[str],
    *,
    lang: str,
    hand_no: int = 0,
    title: str = "",
    cpu: Sequence[bool] | None = None,
    events: Sequence[Event] = (),
    out: Collection[int] = (),
    sitting_out: Collection[int] = (),
    away: Collection[int] = (),
) -> TableSnapshot:
    """The public table snapshot of a view: never the viewer's own cards (only counts).

    `names` and `cpu` are per seat; `events` are the public events of the hand (read only once
    it is over); `out`, `sitting_out` and `away` are seat numbers.
    """
    seats = _seats(view, names, cpu, out, sitting_out, away)
    stoppa = view.stoppa
    ending = _ending(events, names) if view.phase == "over" else _Ending()
    return TableSnapshot(
        seats=seats,
        phase=view.phase,
        deal_no=view.deal_no,
        deals=len(view.rules.deals),
        small_pots=view.pots.small,
        big_pot=view.pots.big,
        carry=view.pots.carry,
        level=view.betting.level if view.betting is not None else 0,
        stoppa_table=(
            tuple(tuple(c.code for c in play) for play in stoppa.sequence if play)
            if stoppa is not None
            else ()
        ),
        stoppa_before=_closed_sequences(stoppa) if stoppa is not None else (),
        needed=stoppa.needed if stoppa is not None else None,
        hand_no=hand_no,
        title=title,
        lang=lang,
        winner=ending.winner,
        special=ending.special,
        proof=ending.proof,
        payments=ending.payments,
    )


def _seats(view: SeatView, names: Sequence[str], cpu: Sequence[bool] | None,
           out: Collection[int], sitting_out: Collection[int],
           away: Collection[int]) -> tuple[SeatInfo, ...]:
    """The seats of `table_snapshot`: each with the points it showed this round."""
    shown: dict[int, tuple[str, ...]] = {}
    shown_value: dict[int, int] = {}
    for point in view.declared:
        if of_this_round(point, view):
            shown[point.seat] = tuple(c.code for c in point.cards)[:SHOWN_CARDS]
            shown_value[point.seat] = point.value
    stoppa = view.stoppa
    to_act = view.to_act
    if to_act is None and stoppa is not None:
        to_act = stoppa.to_act
    if view.phase == "over":  # nobody acts once the hand is over
        to_act = None
    cpu_flags = list(cpu or ())
    return tuple(
        SeatInfo(
            name=str(names[i]) if i < len(names) else "?",
            chips=seat.chips,
            cards=seat.card_count,
            dealer=seat.dealer,
            to_act=to_act == i,
            status=_status(seat, out, sitting_out),
            bet=seat.bet,
            shown=shown.get(i, ()),
            cpu=i < len(cpu_flags) and bool(cpu_flags[i]),
            shown_value=shown_value.get(i),
            away=i in away,
        )
        for i, seat in enumerate(view.seats[:view.players])
    )


def of_this_round(point: ShownPoint, view: SeatView) -> bool:
    """Whether `point` was declared for the pot being played now (a small point's deal, or
    the big point); in the stoppa and once over no round's point is drawn (issue 25: seats
    showed points of different rounds side by side, with no word of which)."""
    if view.phase not in ("small_point", "big_point", "showdown"):
        return False
    if view.deal_no is not None:
        return point.pot == "small" and point.deal == view.deal_no
    return point.pot == "big"


def _closed_sequences(stoppa: StoppaView) -> tuple[str, ...]:
    """The cards of the stoppa's sequences closed before the open one, in play order."""
    closed = stoppa.table[: len(stoppa.table) - len(stoppa.sequence)]
    return tuple(c.code for play in closed for c in play)


def lobby_snapshot(
    names: Sequence[str],
    chips: Sequence[int],
    *,
    lang: str,
    hand_no: int = 0,
    title: str = "",
    cpu: Sequence[bool] = (),
) -> TableSnapshot:
    """The table between hands: the seated players (`names`, `chips` and `cpu` per seat), no
    cards, no pots."""
    seats = tuple(
        SeatInfo(name=str(name), chips=amount, cards=0, cpu=i < len(cpu) and bool(cpu[i]))
        for i, (name, amount) in enumerate(zip(names, chips, strict=True))
    )
    return TableSnapshot(seats=seats, phase="lobby", hand_no=hand_no, title=title, lang=lang)


@dataclass
class _Ending:
    """How a hand ended, read from its public events (phase "over")."""

    winner: str = ""
    special: str | None = None
    proof: tuple[str, ...] = ()
    payments: tuple[PaymentInfo, ...] = ()


def _ending(events: Sequence[Event], names: Sequence[str]) -> _Ending:
    def name(seat: int | None) -> str | None:
        return str(names[seat]) if seat is not None and 0 <= seat < len(names) else None

    out = _Ending()
    payments = []
    for event in events:
        who = name(event.seat)
        if isinstance(event, ev.Closed) and who:
            out.winner = who
        elif isinstance(event, ev.SpecialHand) and who:
            out.winner, out.special, out.proof = who, event.name, event.cards
        elif isinstance(event, ev.Paid):
            to = name(event.to)
            if who and to and event.amount:
                payments.append(PaymentInfo(who, to, event.amount))
    out.payments = tuple(payments)
    return out


def hand_snapshot(view: SeatView, *, lang: str, player: str = "") -> HandSnapshot:
    """The viewer's own hand snapshot, with the engine's best point for display.

    The cards of the deal being played are tagged new while a small point (or its showdown)
    is on; the best point is the view's (of the deal's cards in a small point, of the whole
    hand in the big point; none in the stoppa and once over).
    """
    new = tuple(c.code for c in view.eligible) if view.deal_no is not None else ()
    return HandSnapshot(
        cards=tuple(c.code for c in view.hand),
        new_cards=new,
        phase=view.phase,
        best=point_info(view.best_point) if view.best_point is not None else None,
        player=player,
        your_turn=view.your_turn,
        lang=lang,
    )
