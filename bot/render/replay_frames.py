"""The frames of a hand's replay, as data: what the table saw at each moment of a finished hand.

A replay is built from the hand's event log (the `hands` record, or `Hand.events`), never from
the engine's state, and only from the events the viewer could see (`Event.visible_to`): the
deals of other seats are dropped before anything is read, so their cards cannot reach a frame.
What a frame shows of the cards:
- `table.seats[i].shown`: the cards seat i declared at the current showdown (the table saw them);
- `table.stoppa_table` and `table.stoppa_before`: the cards played in the stoppa so far (the
  open sequence, and the sequences closed before it);
- `proof`: the whole hand of a special-hand holder (ricchezza, misera, assi), shown as proof;
- `own`: the viewer's own cards at that moment (empty in a public replay).
Card counts are public (everyone sees how many cards each seat holds) and chips are each
seat's net for the hand so far (the record keeps nets, not stacks).
A frame marks the seat whose action its caption tells; once the stoppa is closed or a special
hand shown nobody acts any more: the frames from then on mark no seat, say who won instead of
what the sequence needs, and list the payments made so far (issue 25).

Tests check these frames (`ReplayFrame.visible_cards`), not the pixels drawn from them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bot.engine import events as ev
from bot.engine.events import Event
from bot.i18n import t
from bot.i18n.numbers import format_number
from bot.render.narration import payment_key
from bot.render.snapshots import PaymentInfo, SeatInfo, TableSnapshot
from bot.render.stoppa_row import opens_sequence

#: how long each kind of frame stays on screen (ms)
HOLD_MS: dict[str, int] = {
    "deal": 1300, "bet": 800, "showdown": 1000, "declare": 1300, "win": 1400, "special": 2600,
    "turn": 1200, "close": 1500, "payment": 1000, "over": 4000, "carry": 1200,
}
AREA = "history.replay"


@dataclass(frozen=True, slots=True)
class ReplaySetup:
    """Everything a replay is made from: the event log, who sat where, and who watches.

    `viewer` is the seat whose own cards may be shown (the asker, answered ephemerally);
    None makes a public replay.
    """

    events: tuple[Event, ...]
    names: tuple[str, ...]
    hand_no: int = 0
    viewer: int | None = None
    lang: str = "en"
    cpu: tuple[bool, ...] = ()


@dataclass(frozen=True, slots=True)
class ReplayFrame:
    """One frame: the public table, the caption, and the cards shown beside it."""

    table: TableSnapshot
    caption: str
    duration: int
    own: tuple[str, ...] = ()
    proof: tuple[str, ...] = ()
    proof_of: str = ""

    def visible_cards(self) -> frozenset[str]:
        """Every card code this frame shows, wherever it is drawn."""
        cards = {c for seat in self.table.seats for c in seat.shown}
        cards.update(c for play in self.table.stoppa_table for c in play)
        cards.update(self.table.stoppa_before)
        cards.update(self.own)
        cards.update(self.proof)
        return frozenset(cards)


def dealer_of(events: Sequence[Event], players: int) -> int:
    """The dealer: the seat before the first one dealt to (R-3). Only seat numbers are read."""
    for event in events:
        if isinstance(event, ev.Dealt):
            return (event.seat - 1) % players
        if isinstance(event, ev.Passed | ev.BetMade | ev.Called | ev.Raised):
            return (event.seat - 1) % players  # a log without deals: the first to speak
    return players - 1


@dataclass(slots=True)
class _Seat:
    net: int = 0
    cards: int = 0
    status: str = "in"
    bet: int = 0
    shown: tuple[str, ...] = ()
    shown_value: int | None = None


@dataclass(slots=True)
class _Builder:
    """Walks the visible events once, keeping the public state and emitting frames."""

    setup: ReplaySetup
    dealer: int
    bases: dict[tuple[str, int | None], int]
    deals: int
    seats: list[_Seat] = field(default_factory=list)
    own: list[str] = field(default_factory=list)
    frames: list[ReplayFrame] = field(default_factory=list)
    phase: str = "small_point"
    deal_no: int | None = 0
    small: list[int] = field(default_factory=list)
    big: int = 0
    level: int = 0
    stoppa: list[tuple[str, ...]] = field(default_factory=list)
    stoppa_before: list[str] = field(default_factory=list)
    needed: int | None = None
    #: who closed the stoppa or showed a special hand ("" until then), which special hand,
    #: and the payments made since
    winner: str = ""
    special: str | None = None
    payments: list[PaymentInfo] = field(default_factory=list)
    turn_seat: int | None = None
    turn: list[str] = field(default_factory=list)
    prev: Event | None = None
    last_kind: str = ""

    def text(self, key: str, **params: Any) -> str:
        return t(f"{AREA}.{key}", self.setup.lang, **params)

    def name(self, seat: int | None) -> str:
        names = self.setup.names
        return names[seat] if seat is not None and 0 <= seat < len(names) else ""

    def pot_name(self, pot: str, deal: int | None) -> str:
        if pot == "big":
            return self.text("pot_big")
        return self.text("pot_small", number=(deal or 0) + 1)

    def emit(self, kind: str, caption: str, *, acting: int | None = None,
             proof: tuple[str, ...] = (), proof_of: str = "") -> None:
        cpu = self.setup.cpu
        self.last_kind = kind
        if self.winner:  # the hand is decided: nobody is to act
            acting = None
        seats = tuple(
            SeatInfo(
                name=self.text("you", name=self.name(i)) if i == self.setup.viewer
                else self.name(i),
                chips=s.net,
                cards=s.cards,
                dealer=i == self.dealer,
                to_act=i == acting,
                status=s.status,
                bet=s.bet,
                shown=s.shown,
                shown_value=s.shown_value if s.shown else None,
                cpu=bool(cpu[i]) if i < len(cpu) else False,
            )
            for i, s in enumerate(self.seats)
        )
        table = TableSnapshot(
            seats=seats,
            phase=self.phase,
            deal_no=self.deal_no,
            deals=self.deals,
            small_pots=tuple(self.small),
            big_pot=self.big,
            level=self.level,
            stoppa_table=tuple(self.stoppa),
            stoppa_before=tuple(self.stoppa_before),
            needed=self.needed,
            hand_no=self.setup.hand_no,
            title=self.text("title" if self.setup.viewer is None else "title_private"),
            lang=self.setup.lang,
            winner=self.winner,
            special=self.special,
            payments=tuple(self.payments),
        )
        self.frames.append(ReplayFrame(
            table=table,
            caption=caption,
            duration=HOLD_MS[kind],
            own=tuple(self.own),
            proof=proof,
            proof_of=proof_of,
        ))

    def new_round(self) -> None:
        self.level = 0
        self.clear_seats()

    def clear_seats(self) -> None:
        """No bet, no status and no shown point left from the round before."""
        for s in self.seats:
            s.status, s.bet, s.shown, s.shown_value = "in", 0, (), None

    def flush_turn(self, ending: str) -> None:
        """Emit the stoppa turn in progress ("Anna: 5-6-7-8 senza 9")."""
        if self.turn_seat is None:
            return
        plays = "-".join(self.turn)
        text = f"{plays} {ending}".strip() if plays else ending
        seat = self.turn_seat
        self.turn_seat, self.turn = None, []
        self.emit("turn", self.text("turn", player=self.name(seat), plays=text), acting=seat)

    def step(self, e: Event) -> None:
        seat, who = e.seat, self.name(e.seat)
        if isinstance(e, ev.Anted):
            self.seats[e.seat].net -= e.amount
        elif isinstance(e, ev.Carried):
            if e.into == "next":
                self.big = 0
                self.emit("carry", self.text("carry_next", amount=e.amount))
        elif isinstance(e, ev.PhaseBegan):
            self.phase_event(e)
        elif isinstance(e, ev.Dealt):  # only the viewer's own deals are visible here
            self.own.extend(e.cards)
            if self.frames and self.last_kind == "deal":  # the deal frame shows them
                self.frames[-1] = replace(self.frames[-1], own=tuple(self.own))
        elif isinstance(e, ev.Passed):
            self.seats[e.seat].status = "passed"
            key = "pass_forced" if e.forced else "pass"
            self.emit("bet", self.text(key, player=who), acting=seat)
        elif isinstance(e, ev.WentAllIn) and _marks_bet(self.prev, e):
            self.seats[e.seat].status = "allin"  # the bet just shown took the last chips
        elif isinstance(e, ev.Wager):
            self.wager(e)
        elif isinstance(e, ev.Declared):
            declarer = self.seats[e.seat]
            declarer.shown, declarer.shown_value = e.cards, e.value
            self.emit("declare", self.text("declare", player=who, value=e.value,
                                         cards=" ".join(e.cards)), acting=seat)
        elif isinstance(e, ev.Conceded):
            self.seats[e.seat].status = "passed"
            self.emit("declare", self.text("concede", player=who), acting=seat)
        elif isinstance(e, ev.Won):
            self.win(e)
        elif isinstance(e, ev.SpecialHand):
            self.phase = "over"
            self.clear_seats()
            self.winner, self.special = who, e.name
            self.stoppa, self.stoppa_before, self.needed = [], [], None
            self.emit("special", self.text(f"special_{e.name}", player=who), acting=seat,
                      proof=e.cards, proof_of=who)
        elif isinstance(e, ev.Played):
            self.play(e)
        elif isinstance(e, ev.Senza):
            if self.turn_seat not in (None, seat):
                self.flush_turn("")
            self.turn_seat = seat
            self.needed = e.needed or None
            self.flush_turn(self.text("senza", rank=e.needed))
        elif isinstance(e, ev.Closed):
            self.turn_seat = seat
            self.needed = None
            self.winner = who  # the closing frame shows the last cards and who closed
            self.flush_turn(self.text("close"))
            self.stoppa, self.stoppa_before = [], []  # the payments come next
        elif isinstance(e, ev.Paid):
            self.payment(e)
        elif isinstance(e, ev.Refunded):
            self.seats[e.seat].net += e.amount

    def wager(self, e: ev.Wager) -> None:
        s = self.seats[e.seat]
        s.net -= e.amount
        s.bet += e.amount
        self.level = max(self.level, e.level)
        if isinstance(e, ev.WentAllIn):
            s.status = "allin"
        params = {"player": self.name(e.seat), "amount": e.amount, "level": e.level}
        self.emit("bet", self.text(e.kind, **params), acting=e.seat)

    def phase_event(self, e: ev.PhaseBegan) -> None:
        if isinstance(e, ev.SmallPointBegan):
            self.phase, self.deal_no = "small_point", e.deal
            self.new_round()
            for s in self.seats:
                s.cards += e.cards
            key = "deal_one" if e.cards == 1 else "deal"
            self.emit("deal", self.text(key, number=e.deal + 1, cards=e.cards))
        elif isinstance(e, ev.BigPointBegan):
            self.phase, self.deal_no = "big_point", None
            self.new_round()
            self.emit("deal", self.text("big_point"))
        elif isinstance(e, ev.ShowdownBegan):
            self.phase = "showdown"
            order = ", ".join(self.name(s) for s in e.order)
            self.emit("showdown", self.text("showdown", pot=self.pot_name(e.pot, e.deal),
                                          players=order))
        elif isinstance(e, ev.StoppaBegan):
            self.phase, self.deal_no = "stoppa", None
            self.new_round()
            self.emit("deal", self.text("stoppa"))
        elif isinstance(e, ev.HandEnded):
            self.flush_turn("")
            self.phase = "over"
            self.clear_seats()
            self.needed = None
            results = ", ".join(
                self.text("result", player=self.name(i),
                          delta=format_number(r, self.setup.lang, sign=True))
                for i, r in enumerate(e.result)
            )
            self.emit("over", self.text("over", results=results))

    def win(self, e: ev.Won) -> None:
        self.seats[e.seat].net += e.amount
        if e.pot == "big":
            self.big = 0
        elif e.deal is not None and 0 <= e.deal < len(self.small):
            self.small[e.deal] = 0
        for s in self.seats:
            s.bet = 0
        self.level = 0
        key = {"no_bet": "win_no_bet", "alone": "win_alone"}.get(e.reason or "", "win")
        self.emit("win", self.text(key, player=self.name(e.seat),
                                 pot=self.pot_name(e.pot, e.deal), amount=e.amount),
                  acting=e.seat)

    def play(self, e: ev.Played) -> None:
        seat, cards = e.seat, e.cards
        if self.turn_seat not in (None, seat):
            self.flush_turn("")
        if self.stoppa and opens_sequence(self.stoppa[-1], cards):
            self.stoppa_before.extend(c for play in self.stoppa for c in play)
            self.stoppa = []
        self.turn_seat = seat
        self.turn.extend(str(int(c[:-1])) for c in cards)
        self.stoppa.append(cards)
        self.seats[seat].cards -= len(cards)
        self.own = [c for c in self.own if c not in cards]

    def payment(self, e: ev.Paid) -> None:
        payer, to, amount = e.seat, e.to, e.amount
        self.seats[payer].net -= amount
        self.seats[to].net += amount
        if amount:
            self.payments.append(PaymentInfo(self.name(payer), self.name(to), amount))
        self.emit("payment", self.text(payment_key(e), player=self.name(payer), amount=amount,
                                       owed=e.owed, to=self.name(to), cards=e.cards),
                  acting=payer)


def _marks_bet(prev: Event | None, e: Event) -> bool:
    """Whether the all-in event `e` only marks the bet or raise just before it (same chips)."""
    return (
        isinstance(prev, ev.BetMade | ev.Raised) and isinstance(e, ev.WentAllIn)
        and prev.seat == e.seat and prev.amount == e.amount
    )


def _pot_bases(events: Sequence[Event]) -> tuple[dict[tuple[str, int | None], int], int]:
    """The chips each pot held before its betting round, from the public wins and bets.

    A pot's winnings are its base plus every bet of its round, so base = won - bets. Returns
    ({(pot, deal): base}, number of deals).
    """
    bases: dict[tuple[str, int | None], int] = {}
    bets = 0
    deals = 0
    prev: Event | None = None
    for e in events:
        if isinstance(e, ev.SmallPointBegan | ev.BigPointBegan):
            bets = 0
            deals += isinstance(e, ev.SmallPointBegan)
        elif isinstance(e, ev.Wager) and not _marks_bet(prev, e):
            bets += e.amount
        elif isinstance(e, ev.Won):
            key = ("big", None) if e.pot == "big" else ("small", e.deal)
            bases[key] = bases.get(key, 0) + e.amount - bets
            bets = 0
        elif isinstance(e, ev.Carried) and e.into == "next":
            bases[("big", None)] = e.amount
        prev = e
    return bases, deals


def replay_frames(setup: ReplaySetup) -> tuple[ReplayFrame, ...]:
    """The frames of the replay of `setup`'s hand, seen by `setup.viewer` (None: public)."""
    players = len(setup.names)
    dealer = dealer_of(setup.events, players)
    visible = [e for e in setup.events if e.visible_to(setup.viewer)]
    bases, deals = _pot_bases(visible)
    builder = _Builder(setup=setup, dealer=dealer, bases=bases, deals=deals)
    builder.seats = [_Seat() for _ in range(players)]
    builder.small = [bases.get(("small", i), 0) for i in range(deals)]
    builder.big = bases.get(("big", None), 0)
    for event in visible:
        builder.step(event)
        builder.prev = event
    if builder.turn_seat is not None:
        builder.flush_turn("")
    if not builder.frames:
        builder.emit("over", builder.text("empty"))
    frames = builder.frames
    # the last frame stays longest, whatever it shows
    frames[-1] = replace(frames[-1], duration=max(frames[-1].duration, HOLD_MS["over"]))
    return tuple(frames)
