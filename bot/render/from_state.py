"""Snapshots from the table service's public dict (`TableState.view`, or a lobby built from the
seats): the cogs' path until the service's table state carries the engine's typed `SeatView`
(then `from_view` is the only reader and this module goes).

Keys read: seat, players, dealer, phase, deal_no, to_act, hand, new_cards, chips, card_counts,
pots {small, big, bets, carry}, betting {level, active, allin} or None, declared [{seat, cards,
value}], stoppa {table, needed, ...} or None, rules {ranking, deals}, events; optional out /
sitting_out (lists of seats or of bools). Missing keys fall back to empty values.
The one rule restated here, `current_sequence`, is the engine's R-12 open sequence
(`StoppaView.sequence`), which the dict does not carry; the best point is the engine's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine import Card
from bot.render.points import best_point
from bot.render.snapshots import HandSnapshot, PaymentInfo, SeatInfo, TableSnapshot


def _list(value: Any, length: int, default: Any) -> list[Any]:
    items = list(value) if isinstance(value, Sequence) and not isinstance(value, str) else []
    return (items + [default] * length)[:length]


def _int(value: Any, default: int = 0) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _seat_flags(value: Any, count: int) -> list[bool]:
    """A list of bools per seat from either bools per seat or a list of seat numbers."""
    if not isinstance(value, Sequence) or isinstance(value, str):
        return [False] * count
    items = list(value)
    if items and all(isinstance(v, bool) for v in items):
        return _list(items, count, False)
    seats = {v for v in items if isinstance(v, int)}
    return [i in seats for i in range(count)]


def current_sequence(plays: Sequence[Sequence[str]]) -> tuple[tuple[str, ...], ...]:
    """The plays of the sequence still open: after the last play that did not go up in rank.

    A sequence climbs (aces may join aces); a play whose rank is not above the previous one
    (except an ace on an ace) starts a new sequence.
    """
    start = 0
    previous = 0
    for i, play in enumerate(plays):
        if not play:
            continue
        rank = Card.parse(play[0]).rank
        if i and not (rank > previous or (rank == 1 and previous == 1)):
            start = i
        previous = rank
    return tuple(tuple(play) for play in plays[start:] if play)


def _deals(view: Mapping[str, Any], small_pots: Sequence[int]) -> int:
    deals = (view.get("rules") or {}).get("deals")
    if isinstance(deals, Sequence) and not isinstance(deals, str):
        return len(deals)
    if isinstance(deals, int):
        return deals
    return len(small_pots)


def table_snapshot(
    view: Mapping[str, Any],
    names: list[str],
    *,
    lang: str,
    hand_no: int = 0,
    title: str = "",
    cpu: list[bool] | None = None,
) -> TableSnapshot:
    """The public table snapshot from a view: never the viewer's own cards (only counts)."""
    count = _int(view.get("players"), len(names)) or len(names)
    names = _list(names, count, "?")
    chips = _list(view.get("chips"), count, 0)
    cards = _list(view.get("card_counts"), count, 0)
    stoppa = view.get("stoppa") or {}
    if stoppa.get("card_counts"):
        cards = _list(stoppa.get("card_counts"), count, 0)
    pots = view.get("pots") or {}
    bets = _list(pots.get("bets"), count, 0)
    betting = view.get("betting") or {}
    active = _list(betting.get("active"), count, True) if betting.get("active") else [True] * count
    allin = _seat_flags(betting.get("allin"), count)
    out = _seat_flags(view.get("out"), count)
    sitting = _seat_flags(view.get("sitting_out"), count)
    away = _seat_flags(view.get("away"), count)
    shown: dict[int, tuple[str, ...]] = {}
    shown_value: dict[int, int] = {}
    for item in view.get("declared") or []:
        seat = item.get("seat") if isinstance(item, Mapping) else None
        if isinstance(seat, int) and 0 <= seat < count:
            shown[seat] = tuple(str(c) for c in item.get("cards") or ())[:3]
            if isinstance(item.get("value"), int):
                shown_value[seat] = item["value"]
    to_act = view.get("to_act")
    if to_act is None and stoppa:
        to_act = stoppa.get("to_act")
    cpu_flags = _list(cpu, count, False)
    seats = []
    for i in range(count):
        if sitting[i]:
            status = "sitting_out"
        elif out[i]:
            status = "out"
        elif allin[i]:
            status = "allin"
        elif not active[i]:
            status = "passed"
        else:
            status = "in"
        seats.append(SeatInfo(
            name=str(names[i]), chips=_int(chips[i]), cards=_int(cards[i]),
            dealer=view.get("dealer") == i, to_act=to_act == i, status=status,
            bet=_int(bets[i]), shown=shown.get(i, ()), cpu=bool(cpu_flags[i]),
            shown_value=shown_value.get(i), away=away[i],
        ))
    phase = str(view.get("phase") or "lobby")
    ending = _ending(view, names) if phase == "over" else _Ending()
    small_pots = tuple(_int(p) for p in pots.get("small") or ())
    deal_no = view.get("deal_no")
    needed = stoppa.get("needed")
    return TableSnapshot(
        seats=tuple(seats),
        phase=phase,
        deal_no=deal_no if isinstance(deal_no, int) else None,
        deals=_deals(view, small_pots),
        small_pots=small_pots,
        big_pot=_int(pots.get("big")),
        carry=_int(pots.get("carry")),
        level=_int(betting.get("level")),
        stoppa_table=current_sequence(stoppa.get("table") or ()),
        needed=needed if isinstance(needed, int) else None,
        hand_no=hand_no,
        title=title,
        lang=lang,
        winner=ending.winner,
        special=ending.special,
        proof=ending.proof,
        payments=ending.payments,
    )


@dataclass
class _Ending:
    """How a hand ended, read from the public events of its view (phase "over")."""

    winner: str = ""
    special: str | None = None
    proof: tuple[str, ...] = ()
    payments: tuple[PaymentInfo, ...] = ()


def _ending(view: Mapping[str, Any], names: Sequence[str]) -> _Ending:
    def name(seat: Any) -> str | None:
        return str(names[seat]) if isinstance(seat, int) and 0 <= seat < len(names) else None

    out = _Ending()
    payments = []
    for event in view.get("events") or ():
        if not isinstance(event, Mapping):
            continue
        kind, data = event.get("kind"), event.get("data") or {}
        who = name(event.get("seat"))
        if kind == "close" and who:
            out.winner = who
        elif kind == "special" and who:
            out.winner, out.special = who, str(data.get("kind"))
            out.proof = tuple(str(c) for c in data.get("cards") or ())
        elif kind == "payment":
            payer, to = name(data.get("from")), name(data.get("to"))
            if payer and to and _int(data.get("amount")):
                payments.append(PaymentInfo(payer, to, _int(data.get("amount"))))
    out.payments = tuple(payments)
    return out


def hand_snapshot(view: Mapping[str, Any], *, lang: str, player: str = "") -> HandSnapshot:
    """The viewer's own hand snapshot, with the best point computed for display.

    Small point (and its showdown, while `deal_no` is set): best of `new_cards`; big point and
    its showdown: best of the whole hand; stoppa, lobby, over: no point shown.
    """
    cards = tuple(str(c) for c in view.get("hand") or ())
    new = tuple(str(c) for c in view.get("new_cards") or ())
    phase = str(view.get("phase") or "lobby")
    ranking = str((view.get("rules") or {}).get("ranking", "count"))
    best = None
    if phase == "small_point" or (phase == "showdown" and view.get("deal_no") is not None):
        best = best_point(new, ranking)
    elif phase in ("big_point", "showdown"):
        best = best_point(cards, ranking)
    seat = view.get("seat")
    return HandSnapshot(
        cards=cards, new_cards=new, phase=phase, best=best, player=player,
        your_turn=seat is not None and view.get("to_act") == seat, lang=lang,
    )
