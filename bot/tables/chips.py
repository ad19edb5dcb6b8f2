"""Chip movements: engine chip changes -> store `Move`s, and refunds when a table closes.

Sign convention of `Move.amount` (the store's): positive = from the player into the table's
escrow (ante, bet); negative = from the escrow back to the player (pot, payment, refund).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.engine import Event
from bot.engine.events import Paid, SpecialHand, Won
from bot.store import Move


def chip_moves(
    players: Sequence[int],
    before: Sequence[int],
    after: Sequence[int],
    events: Sequence[Event],
    hand_no: int,
    *,
    paying: str = "bet",
) -> list[Move]:
    """The `Move`s that turn each seat's engine chips from `before` into `after`.

    The engine's events of the step split each seat's change by reason: "win" events are
    pots won ("pot"), "payment" events are card payments at the close ("card_payment", or
    "special" when a special hand of R-11 paid them); what is left is what the seat put in
    (`paying`: "ante" at the start of a hand, else "bet"). The moves of a seat always sum to
    its chip change, whatever the events say. A seat that wins a pot and pays cards in the same
    step gets both moves (so the ledger says both): the store applies a save's moves as one net
    change per user, so its balance never has to dip below zero in between.
    """
    special = any(isinstance(e, SpecialHand) for e in events)
    payment_reason = "special" if special else "card_payment"
    n = len(players)
    pot_in = [0] * n
    pay_in = [0] * n
    pay_out = [0] * n
    for event in events:
        if isinstance(event, Won):
            pot_in[event.seat] += event.amount
        elif isinstance(event, Paid):
            pay_out[event.seat] += event.amount
            pay_in[event.to] += event.amount
    moves: list[Move] = []
    for seat, user in enumerate(players):
        delta = after[seat] - before[seat]  # + the seat gained chips
        if delta == 0 and not (pot_in[seat] or pay_in[seat] or pay_out[seat]):
            continue
        put_in = pot_in[seat] + pay_in[seat] - pay_out[seat] - delta
        parts = [
            (amount, reason)
            for amount, reason in (
                (put_in, paying if put_in > 0 else "refund"),
                (pay_out[seat], payment_reason),
                (-pay_in[seat], payment_reason),
                (-pot_in[seat], "pot"),
            )
            if amount
        ]
        moves.extend(Move(user, amount, reason, hand_no) for amount, reason in parts)
    return moves


def split_equally(amount: int, users: Sequence[int], first: int | None) -> dict[int, int]:
    """`amount` split equally among `users`; the remainder goes to `first` (or users[0])."""
    if amount <= 0 or not users:
        return {}
    share, rest = divmod(amount, len(users))
    out = {u: share for u in users}
    lucky = first if first in out else users[0]
    out[lucky] += rest
    return {u: v for u, v in out.items() if v}


def refunds(
    escrow: int,
    paid: Mapping[int, int],
    seats: Sequence[int],
    eldest: int | None,
    hand_no: int | None,
) -> list[Move]:
    """Moves that empty an escrow of `escrow` chips when a table closes.

    Each player gets back what they put in during the hand in progress (`paid`, net of what
    they already won); if that is more than the escrow holds (it cannot be, unless the state
    was damaged) the refunds are cut in proportion. The rest (a carried big pot) is split
    equally among `seats`, the remainder to `eldest` (reason "carry").
    """
    positive = {u: v for u, v in paid.items() if v > 0}
    total = sum(positive.values())
    if total > escrow:
        scaled = {u: v * escrow // total for u, v in positive.items()}
        short = escrow - sum(scaled.values())
        for u in sorted(positive, key=lambda u: -positive[u])[:short]:
            scaled[u] += 1
        positive = scaled
        total = escrow
    moves: list[Move] = []
    for user, amount in positive.items():
        if amount:
            moves.append(Move(user=user, amount=-amount, reason="refund", hand_no=hand_no))
    rest = escrow - total
    targets = list(seats) or list(positive)
    for user, amount in split_equally(rest, targets, eldest).items():
        moves.append(Move(user=user, amount=-amount, reason="carry", hand_no=hand_no))
    return moves
