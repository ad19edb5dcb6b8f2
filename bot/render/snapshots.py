"""Plain, frozen snapshots that the renderer draws: no engine objects, no discord types.

Every field is a plain JSON-friendly type (str, int, bool, tuples of those): `from_view` builds
them from the engine's typed `SeatView`, and tests can write them by hand.
Card codes use the notation of docs/rules-spec.md R-1: `7d`, `1s`, `10c`.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n.currency import Currency

PHASES: tuple[str, ...] = ("lobby", "small_point", "big_point", "showdown", "stoppa", "over")
STATUSES: tuple[str, ...] = ("in", "passed", "allin", "out", "sitting_out")


@dataclass(frozen=True, slots=True)
class PointInfo:
    """A point: 1-3 cards of one suit, their primiera value and the suit letter."""

    cards: tuple[str, ...]
    value: int
    suit: str


@dataclass(frozen=True, slots=True)
class HandSnapshot:
    """One player's own cards (sent ephemerally to that player only)."""

    cards: tuple[str, ...]
    new_cards: tuple[str, ...] = ()
    phase: str = "small_point"
    best: PointInfo | None = None
    player: str = ""
    your_turn: bool = False
    lang: str = "en"


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """The public state of one seat: never its cards, only how many it holds."""

    name: str
    chips: int
    cards: int
    dealer: bool = False
    to_act: bool = False
    status: str = "in"
    bet: int = 0
    shown: tuple[str, ...] = ()
    cpu: bool = False
    #: the value of the point whose cards are `shown` (drawn as their label)
    shown_value: int | None = None
    #: sat out after running out of time: their turns are passed until they are back
    away: bool = False


@dataclass(frozen=True, slots=True)
class PaymentInfo:
    """Chips paid at the end of a hand: who paid whom, how many."""

    payer: str
    to: str
    amount: int


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    """The public state of a table: seats, pots, phase, and the stoppa sequence."""

    seats: tuple[SeatInfo, ...]
    phase: str
    deal_no: int | None = None
    deals: int = 0
    small_pots: tuple[int, ...] = ()
    big_pot: int = 0
    carry: int = 0
    level: int = 0
    #: the plays of the stoppa's open sequence, and the cards of the sequences closed before it
    stoppa_table: tuple[tuple[str, ...], ...] = ()
    stoppa_before: tuple[str, ...] = ()
    needed: int | None = None
    hand_no: int = 0
    title: str = ""
    lang: str = "en"
    #: at the end of a hand (phase "over"): who closed the stoppa or holds the special hand,
    #: which special hand ("ricchezza", "misera", "assi") with the cards that prove it, and
    #: the payments
    winner: str = ""
    special: str | None = None
    proof: tuple[str, ...] = ()
    payments: tuple[PaymentInfo, ...] = ()
    #: the server's currency (issue 20); None: the bot's own words
    currency_name: str | None = None
    currency_emoji: str | None = None

    @property
    def currency(self) -> Currency:
        """The currency the chips of this table are written in."""
        return Currency(self.currency_name, self.currency_emoji)


@dataclass(frozen=True, slots=True)
class LeaderRowInfo:
    """One row of a leaderboard: position, display name and the figure ranked by."""

    rank: int
    name: str
    value: int


@dataclass(frozen=True, slots=True)
class LeaderboardSnapshot:
    """One page of a server's leaderboard; `by` is "balance", "net" or "closes"."""

    rows: tuple[LeaderRowInfo, ...]
    by: str = "balance"
    server: str = ""
    page: int = 1
    lang: str = "en"
    #: the server's currency (issue 20); None: the bot's own words
    currency_name: str | None = None
    currency_emoji: str | None = None

    @property
    def currency(self) -> Currency:
        """The currency the board's balances are written in."""
        return Currency(self.currency_name, self.currency_emoji)
