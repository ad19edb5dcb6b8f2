"""Building the public `TableState` snapshot from the row, the meta and the engine hand."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from bot.engine import Card, Event, Hand, Rules, SeatView
from bot.engine.events import Carried, Closed, Paid, SpecialHand, Won
from bot.store.models import TableRow
from bot.tables.meta import TableMeta
from bot.tables.updates import (
    HandOver,
    Payment,
    PotWon,
    SeatState,
    ShownPoint,
    TableEvent,
    TableState,
)


def public_hand_events(hand: Hand) -> tuple[Event, ...]:
    """The events everyone may see of `hand`, a "special" event keeping only the cards its
    holder lays down (`special_proof`): the rest of that hand was never on the table."""
    variant = hand.rules.blocked_stoppa
    return tuple(_proof_only(e, variant) for e in hand.events_for(None))


def _proof_only(event: Event, blocked_stoppa: str) -> Event:
    if not isinstance(event, SpecialHand):
        return event
    proof = special_proof(event.name, event.cards, blocked_stoppa)
    return SpecialHand(event.seat, event.name, proof, event.payments)


def public_events(events: Iterable[Event], players: Sequence[int]) -> list[TableEvent]:
    """The events everyone may see (never a deal), each with the user of its seat."""
    return [TableEvent(event, _user(players, event.seat)) for event in events
            if not event.private]


KING, ACE = 10, 1


def special_proof(kind: str, cards: Sequence[str], blocked_stoppa: str = "four_aces") -> tuple[
    str, ...
]:
    """The cards a player lays down to claim a special hand (R-11), as at a real table: the
    kings for a stoppa di re, the aces for a stoppa di assi, and the whole hand when the claim
    is that something is missing (stoppa povera: no figure; the `*_no_king` variants)."""
    if kind == "ricchezza":
        return tuple(c for c in cards if Card.parse(c).rank == KING)
    if kind == "assi" and not blocked_stoppa.endswith("_no_king"):
        return tuple(c for c in cards if Card.parse(c).rank == ACE)
    return tuple(cards)


def _user(players: Sequence[int], seat: int | None) -> int | None:
    return players[seat] if seat is not None and 0 <= seat < len(players) else None


def hand_over(hand: Hand, players: Sequence[int], *, hand_no: int, turn: int,
              blocked_stoppa: str = "four_aces") -> HandOver:
    """How the finished `hand` ended (see `HandOver`), from its public events and shown
    points; `players[seat]` is the user of each engine seat."""
    points = []
    for shown in hand.shown:
        user = _user(players, shown.seat)
        if user is not None:
            points.append(ShownPoint(user, shown.pot, shown.deal,
                                     tuple(c.code for c in shown.cards), shown.value))
    pots: list[PotWon] = []
    payments: list[Payment] = []
    special = holder = closer = None
    proof: tuple[str, ...] = ()
    carry = 0
    for event in hand.events:
        user = _user(players, event.seat)
        if isinstance(event, Won) and user is not None:
            pots.append(PotWon(user, event.pot, event.deal, event.amount, event.shown,
                               event.reason))
        elif isinstance(event, Carried):
            carry = event.amount
        elif isinstance(event, Closed):
            closer = user
        elif isinstance(event, SpecialHand) and user is not None:
            special, holder = event.name, user
            proof = special_proof(special, event.cards, blocked_stoppa)
        elif isinstance(event, Paid):
            to = _user(players, event.to)
            if user is not None and to is not None:
                payments.append(Payment(user, to, event.amount, event.cards))
    return HandOver(
        hand_no=hand_no, turn=turn, points=tuple(points), pots=tuple(pots), special=special,
        holder=holder, proof=proof, closer=closer, payments=tuple(payments), carry=carry,
        nets=tuple((user, int(chips)) for seat, chips in enumerate(hand.result or ())
                   if (user := _user(players, seat)) is not None),
    )


def shown_hand_over(meta: TableMeta) -> HandOver | None:
    """The last hand's ending (see `HandOver`), kept until a human's first decision in the
    next hand (`TableMeta.moved_on`): CPU moves and sat-out players' passes do not hide it."""
    return meta.last_hand


def seat_state(
    user: int, meta: TableMeta, players: Sequence[int], view: SeatView | None, in_hand: bool,
    balances: Mapping[int, int],
) -> SeatState:
    """What the snapshot shows of `user`'s seat: in the hand (the engine's chips and cards)
    or out of it (their chips between hands, and why they wait)."""
    seat = players.index(user) if user in players else None
    if seat is not None and view is not None:
        status = "leaving" if user in meta.in_play.leaving else ("playing" if in_hand else "seated")
        chip_count = view.seats[seat].chips
        cards = view.seats[seat].card_count
    else:
        if user in meta.in_play.sitting_out and in_hand:
            status = "sitting_out"
        elif in_hand:
            status = "waiting"
        else:
            status = "seated"
        chip_count = int(balances.get(user, 0))
        cards = 0
    return SeatState(
        user, meta.cpus.level(user), chip_count, cards, status, seat if in_hand else None,
        away=meta.absence.is_away(user), left=user in meta.absence.left,
    )


def build_state(
    row: TableRow, meta: TableMeta, hand: Hand | None, balances: Mapping[int, int]
) -> TableState:
    """The snapshot of a table (`row` is the store's TableRow)."""
    in_play = meta.in_play
    players = in_play.players if hand is not None else ()
    view = hand.seat_view(None) if hand is not None else None
    in_hand = hand is not None and hand.phase != "over"
    seats = tuple(seat_state(user, meta, players, view, in_hand, balances) for user in row.seats)
    to_act = None
    if in_hand and view is not None and view.to_act is not None:
        to_act = players[view.to_act]
    eldest = in_play.eldest() if players else None
    return TableState(
        table_id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        message_id=row.message_id,
        status=row.status,
        seats=seats,
        players=players,
        dealer=in_play.dealer if players else None,
        eldest=eldest,
        hand_no=in_play.hand_no,
        turn=in_play.turn,
        phase=view.phase if view is not None else None,
        deal_no=view.deal_no if view is not None else None,
        to_act=to_act,
        deadline=row.deadline if in_hand else None,
        view=view,
        events=tuple(meta.last_events),
        stakes=Rules(**row.settings),
        carry=in_play.carry,
        round_called=meta.round.called_by is not None,
        hand_events=public_hand_events(hand) if hand is not None else (),
        last_hand=shown_hand_over(meta),
        next_deal=meta.deal_at if hand is None or hand.phase == "over" else None,
        own_thread=meta.own_thread,
        languages=dict(meta.languages),
        commitment=row.commitment.hex() if row.commitment is not None else None,
        revealed_secret=row.secret.hex() if row.revealed and row.secret is not None else None,
    )
