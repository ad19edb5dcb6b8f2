"""What the service publishes: `TableState` snapshots, `Notice`s and `Update`s.

Everything here is plain data (no Discord types). User ids are ints; CPU seats have negative
ids. A `Notice` is a catalogue key plus params: the cog translates it per server with
`notice.text(lang, names)`, where `names` maps user ids to display names.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.engine import BettingView, Event, Pots, Rules, SeatView, StoppaView
from bot.engine import ShownPoint as DeclaredPoint
from bot.i18n import t
from bot.i18n.currency import Currency
from bot.store.privacy import forgotten_name, is_forgotten

if TYPE_CHECKING:  # the tournament's info, made by its policy (bot.tournaments imports us)
    from bot.tournaments.info import TournamentInfo


@dataclass(frozen=True, slots=True)
class Notice:
    """A ready-to-translate message: `t(key, lang, **params)`.

    `users` names the params that hold a user id; `text()` replaces them by display names.
    """

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)
    users: tuple[str, ...] = ()

    def text(
        self, lang: str = "en", names: Mapping[int, str] | None = None, *,
        currency: Currency | None = None,
    ) -> str:
        """The message in `lang`, user ids replaced by `names` (or `<@id>` / "CPU n"),
        amounts of chips in the server's `currency` (None: the bot's own words)."""
        params = dict(self.params)
        for name in self.users:
            params[name] = display_name(params[name], names)
        return t(self.key, lang, currency=currency, **params)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {"key": self.key, "params": dict(self.params), "users": list(self.users)}


def display_name(user: int, names: Mapping[int, str] | None = None) -> str:
    """A display name for `user`: from `names`, else a mention, else "CPU n" for CPU seats
    and "anon-n" for a forgotten member (docs/privacy.md)."""
    if names and user in names:
        return names[user]
    if user <= 0:  # a CPU seat (see bot.tables.cpus)
        return f"CPU {(-user) % 10}"
    if is_forgotten(user):
        return forgotten_name(user)
    return f"<@{user}>"


@dataclass(frozen=True, slots=True)
class SeatState:
    """One seat of a table as everyone may see it.

    status: "seated" (no hand running), "playing", "waiting" (joined during a hand),
    "sitting_out" (could not pay the ante), "leaving" (removed at the end of the hand).
    `away`: sat out after running out of time (their turns are passed until they are back).
    `left`: left a tournament table (sat out until eliminated, or their own "I'm back").
    """

    user_id: int
    cpu: str | None
    chips: int
    cards: int
    status: str
    seat: int | None = None  # engine seat in the current hand
    away: bool = False
    left: bool = False


@dataclass(frozen=True, slots=True)
class TableEvent:
    """A public engine event of the table's hand (never a deal), with the user of its seat
    (None for an event of no seat, or of a seat no longer at the table)."""

    event: Event
    user: int | None
    #: the JSON form, made once: the table's meta writes its last events at every commit
    #: (shared, never changed)
    json: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.json:
            object.__setattr__(self, "json", {**self.event.to_dict(), "user": self.user})

    @property
    def kind(self) -> str:
        """The engine event's kind (its JSON name: "bet", "win", "phase"...)."""
        return self.event.kind

    @property
    def seat(self) -> int | None:
        """The engine seat of the event, or None."""
        return self.event.seat

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableEvent:
        """From the JSON-able form kept in the table's meta (`to_dict`)."""
        return cls(Event.from_dict(data), data.get("user"), data)

    def to_dict(self) -> Mapping[str, Any]:
        """JSON-able form: the engine event's, with the "user" added."""
        return self.json


@dataclass(frozen=True, slots=True)
class TableState:
    """The public snapshot of a table, published after every committed change.

    `turn` is the action counter to send back as `expected_turn` (with `hand_no` as
    `expected_hand`) so that a stale button or a double click is refused.
    `view` is the engine's spectator view of the hand (`hand.seat_view(None)`: no cards of
    anyone, every derived fact of the rules), or None between hands; `pots`, `betting`,
    `stoppa` and `declared` are its parts. `events` are the table's last public events (across
    hands); `hand_events` the public events of the hand (a special hand's cards cut to the
    proof its holder lays down), from which the image tells how a finished hand ended.
    `stakes` are the table's stakes and variants as the engine's `Rules` (its `players` is the
    default; a running hand's own rules are `view.rules`).
    """

    table_id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    status: str
    seats: tuple[SeatState, ...]
    players: tuple[int, ...]
    dealer: int | None
    eldest: int | None
    hand_no: int
    turn: int
    phase: str | None
    deal_no: int | None
    to_act: int | None
    deadline: float | None
    view: SeatView | None
    events: tuple[TableEvent, ...]
    stakes: Rules
    carry: int
    round_called: bool
    #: the public events of the hand (see the class docstring)
    hand_events: tuple[Event, ...] = ()
    #: how the last hand ended, until a human's first decision in the next hand (a CPU's
    #: move does not hide it; None otherwise)
    last_hand: HandOver | None = None
    #: when the next hand is dealt (epoch seconds on the service's clock) while the table
    #: pauses between two hands (the server's `/settings pause`); None otherwise
    next_deal: float | None = None
    #: the table opened its own thread (`channel_id`), archived when the table closes
    own_thread: bool = False
    #: the fair deal (docs/fairness.md): the commitment (64 hex digits) shown from the
    #: table's opening, and the secret, set only once the table closed and revealed it
    commitment: str | None = None
    revealed_secret: str | None = None
    #: the tournament this table plays (None at an ordinary table)
    tournament: TournamentInfo | None = None
    #: the language ("it"/"en") each seated human sat in (kept in the table's meta; a seat
    #: missing here sat before it was kept)
    languages: Mapping[int, str] = field(default_factory=dict)

    def seat_of(self, user: int) -> SeatState | None:
        """The seat of `user`, if seated."""
        return next((s for s in self.seats if s.user_id == user), None)

    @property
    def pots(self) -> Pots | None:
        """The pots of the hand in progress (None between hands)."""
        return self.view.pots if self.view is not None else None

    @property
    def betting(self) -> BettingView | None:
        """The betting round in progress, if any."""
        return self.view.betting if self.view is not None else None

    @property
    def stoppa(self) -> StoppaView | None:
        """The stoppa in progress, if any (R-12)."""
        return self.view.stoppa if self.view is not None else None

    @property
    def declared(self) -> tuple[DeclaredPoint, ...]:
        """Every point shown this hand (engine seats: `players[seat]` is the user)."""
        return self.view.declared if self.view is not None else ()


@dataclass(frozen=True, slots=True)
class Update:
    """One committed change of a table, for the listeners (`service.subscribe`).

    kind: "opened", "joined", "cpu_added", "left", "kicked", "started", "action" (a human),
    "cpu" (a CPU seat), "timeout", "round_called", "hand_over", "lobby" (waiting for
    players), "tournament_over" (a tournament table's last hand is played and its prizes
    paid: `state.tournament` has the places and payouts), "closed".
    `events` are the public engine events of the change;
    `to_act` is the user who must act next (None if nobody). `channel_table` False: a
    member's own (practice) table, which no listener hears (its member's clicks answer).
    """

    kind: str
    table_id: int
    guild_id: int
    channel_id: int
    state: TableState
    events: tuple[TableEvent, ...]
    notices: list[Notice]
    to_act: int | None
    channel_table: bool = True


@dataclass(frozen=True, slots=True)
class ShownPoint:
    """A point declared at a showdown: who, for which pot, the cards and their value."""

    user: int
    pot: str  # "small" or "big"
    deal: int | None
    cards: tuple[str, ...]
    value: int


@dataclass(frozen=True, slots=True)
class PotWon:
    """Who took a pot (or one layer of it) and how: `reason` "no_bet" (nobody bet: the
    dealer takes it), "alone" (everybody else passed), or None (the showdown)."""

    user: int
    pot: str
    deal: int | None
    amount: int
    shown: bool
    reason: str | None


@dataclass(frozen=True, slots=True)
class Payment:
    """Chips one player paid another at the end of the hand (R-11, R-13)."""

    payer: int
    to: int
    amount: int
    cards: int


@dataclass(frozen=True, slots=True)
class HandOver:
    """How the last hand ended, shown on the table until the next hand's first action.

    `points` are every declared point, `pots` who won each pot, `special` the special hand
    (R-11: "ricchezza", "misera" or "assi") with `proof` the cards a player shows to claim it,
    `closer` who went out in the stoppa, `payments` the chips paid to the closer or holder,
    `carry` the big pot carried into the next hand. `turn` is the table's action counter at
    the hand's end (the next hand's deal is turn + 1, its first action turn + 2).
    """

    hand_no: int
    turn: int
    points: tuple[ShownPoint, ...] = ()
    pots: tuple[PotWon, ...] = ()
    special: str | None = None
    holder: int | None = None
    proof: tuple[str, ...] = ()
    closer: int | None = None
    payments: tuple[Payment, ...] = ()
    carry: int = 0
    #: what the hand won (+) or cost (-) each player, as (user, chips) (a panel says it)
    nets: tuple[tuple[int, int], ...] = ()

    def net_of(self, user: int) -> int | None:
        """What the hand won or cost `user` (None: not dealt in, or an older record)."""
        return next((chips for who, chips in self.nets if who == user), None)

    @property
    def winner(self) -> int | None:
        """Who won the hand's last phase: the closer of the stoppa or the special hand's
        holder (None when neither, e.g. a stoppa di assi has a holder but no payment)."""
        return self.closer if self.closer is not None else self.holder

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (kept in the table's meta, so a restart shows it too); `nets` only
        when known (a meta written before them reads back as the same JSON)."""
        data = {
            "hand_no": self.hand_no,
            "turn": self.turn,
            "points": [
                {"user": p.user, "pot": p.pot, "deal": p.deal, "cards": list(p.cards),
                 "value": p.value}
                for p in self.points
            ],
            "pots": [
                {"user": w.user, "pot": w.pot, "deal": w.deal, "amount": w.amount,
                 "shown": w.shown, "reason": w.reason}
                for w in self.pots
            ],
            "special": self.special,
            "holder": self.holder,
            "proof": list(self.proof),
            "closer": self.closer,
            "payments": [
                {"payer": p.payer, "to": p.to, "amount": p.amount, "cards": p.cards}
                for p in self.payments
            ],
            "carry": self.carry,
        }
        if self.nets:
            data["nets"] = [[user, chips] for user, chips in self.nets]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HandOver:
        """Inverse of `to_dict`."""
        return cls(
            hand_no=int(data["hand_no"]),
            turn=int(data["turn"]),
            points=tuple(
                ShownPoint(int(p["user"]), str(p["pot"]), p.get("deal"), tuple(p["cards"]),
                           int(p["value"]))
                for p in data.get("points") or ()
            ),
            pots=tuple(
                PotWon(int(w["user"]), str(w["pot"]), w.get("deal"), int(w["amount"]),
                       bool(w.get("shown")), w.get("reason"))
                for w in data.get("pots") or ()
            ),
            special=data.get("special"),
            holder=data.get("holder"),
            proof=tuple(data.get("proof") or ()),
            closer=data.get("closer"),
            payments=tuple(
                Payment(int(p["payer"]), int(p["to"]), int(p["amount"]), int(p["cards"]))
                for p in data.get("payments") or ()
            ),
            carry=int(data.get("carry") or 0),
            nets=tuple((int(user), int(chips)) for user, chips in data.get("nets") or ()),
        )
