"""How each phase of a finished hand went for one seat, read from the hand's public events.

Used by the history pages (one line per hand) and by `/stats` (figures over the last hands).
Only public events are read (wins, payments, closes, special hands), never a deal.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.engine import events as ev
from bot.engine.events import Event


@dataclass(frozen=True, slots=True)
class PhaseSummary:
    """One seat's hand, phase by phase.

    `big` is "won", "lost" (bet or called and lost it) or "out" (passed, or nobody bet);
    `special` is the kind of special hand held by this seat, `special_paid` the kind that
    made it pay; `paid` are the chips paid at the close or for a special hand.
    """

    small_won: int
    small_total: int
    big: str
    closed: bool
    paid: int
    received: int
    special: str | None
    special_paid: str | None
    net: int


@dataclass(frozen=True, slots=True)
class PhaseFigures:
    """Per-phase figures over several hands (for `/stats`)."""

    hands: int
    small_won_pct: float
    big_won_pct: float
    closes: int
    average_paid: float


def summarize(events: Iterable[Event], seat: int) -> PhaseSummary:
    """The phases of the hand for `seat`."""
    small_won = small_total = 0
    big = "out"
    in_big = False
    closed = False
    paid = received = 0
    special: str | None = None
    special_paid: str | None = None
    special_kind: str | None = None
    net = 0
    point = ""
    for e in events:
        if isinstance(e, ev.SmallPointBegan):
            small_total += 1
            point = "small"
        elif isinstance(e, ev.BigPointBegan):
            point = "big"
        elif isinstance(e, ev.HandEnded):
            net = e.result[seat] if seat < len(e.result) else 0
        elif isinstance(e, ev.Wager) and e.seat == seat and point == "big":
            in_big = True
        elif isinstance(e, ev.Won) and e.seat == seat:
            if e.pot == "big":
                big = "won"
            else:
                small_won += 1
        elif isinstance(e, ev.Closed) and e.seat == seat:
            closed = True
        elif isinstance(e, ev.SpecialHand):
            special_kind = e.name
            if e.seat == seat:
                special = special_kind
        elif isinstance(e, ev.Paid):
            if e.seat == seat:
                paid += e.amount
                special_paid = special_kind
            if e.to == seat:
                received += e.amount
    if big != "won" and in_big:
        big = "lost"
    return PhaseSummary(
        small_won=small_won, small_total=small_total, big=big, closed=closed, paid=paid,
        received=received, special=special, special_paid=special_paid, net=net,
    )


def phase_figures(summaries: Sequence[PhaseSummary]) -> PhaseFigures:
    """Small points won %, big points won %, stoppa closes and average paid (per hand in
    which something was paid) over `summaries`."""
    hands = len(summaries)
    small_total = sum(s.small_total for s in summaries)
    small_won = sum(s.small_won for s in summaries)
    payers = [s.paid for s in summaries if s.paid]
    return PhaseFigures(
        hands=hands,
        small_won_pct=100.0 * small_won / small_total if small_total else 0.0,
        big_won_pct=100.0 * sum(s.big == "won" for s in summaries) / hands if hands else 0.0,
        closes=sum(s.closed for s in summaries),
        average_paid=sum(payers) / len(payers) if payers else 0.0,
    )
