"""Chip movement helpers: engine chip changes -> store moves, and refunds at close (R-15)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import Event
from bot.tables.chips import chip_moves, refunds, split_equally


def test_R13_card_payments_and_pots_get_their_reasons() -> None:
    events = [
        Event("call", 0, {"amount": 20, "level": 20}),
        Event("win", 1, {"pot": "big", "amount": 250, "shown": True}),
        Event("payment", 0, {"to": 2, "amount": 30, "owed": 30, "cards": 3}),
        Event("payment", 1, {"to": 2, "amount": 10, "owed": 10, "cards": 1}),
    ]
    before = [500, 500, 500]
    after = [500 - 20 - 30, 500 + 250 - 10, 500 + 40]
    moves = chip_moves([11, 12, 13], before, after, events, 3)
    by_user: dict[int, list[tuple[int, str]]] = {}
    for move in moves:
        assert move.hand_no == 3
        by_user.setdefault(move.user, []).append((move.amount, move.reason))
    assert sorted(by_user[11]) == [(20, "bet"), (30, "card_payment")]
    # won the big pot and paid a card in the same step: one net move
    assert by_user[12] == [(-240, "pot")]
    assert by_user[13] == [(-40, "card_payment")]
    for seat, user in enumerate([11, 12, 13]):
        assert -sum(a for a, _ in by_user[user]) == after[seat] - before[seat]


def test_R15_a_seat_that_wins_then_pays_never_needs_chips_it_lacks() -> None:
    """The store applies payments before payouts: a seat with 5 chips that wins 100 and pays
    30 at the close must be a single move of -70, never +30 then -100."""
    events = [
        Event("win", 0, {"pot": "big", "amount": 100, "shown": False}),
        Event("payment", 0, {"to": 1, "amount": 30, "owed": 30, "cards": 3}),
    ]
    moves = chip_moves([1, 2], [5, 500], [75, 530], events, 1)
    assert [(m.user, m.amount) for m in moves] == [(1, -70), (2, -30)]


def test_R11_special_payments_are_marked_special() -> None:
    events = [
        Event("payment", 1, {"to": 0, "amount": 60, "owed": 60, "cards": 6}),
        Event("special", 0, {"kind": "misera", "payments": [], "cards": []}),
    ]
    moves = chip_moves([1, 2], [100, 100], [160, 40], events, 1)
    assert {(m.user, m.amount, m.reason) for m in moves} == {
        (1, -60, "special"),
        (2, 60, "special"),
    }


def test_antes_at_hand_start() -> None:
    moves = chip_moves([1, 2, 3], [100] * 3, [40] * 3, [], 1, paying="ante")
    assert [(m.amount, m.reason) for m in moves] == [(60, "ante")] * 3


def test_split_equally_gives_the_remainder_to_the_eldest() -> None:
    assert split_equally(203, [1, 2, 3, 4], 3) == {1: 50, 2: 50, 3: 53, 4: 50}
    assert split_equally(0, [1, 2], 1) == {}


@settings(max_examples=200, deadline=None)
@given(
    paid=st.dictionaries(st.integers(1, 8), st.integers(-300, 300), max_size=6),
    carry=st.integers(0, 500),
    seats=st.lists(st.integers(1, 8), min_size=1, max_size=6, unique=True),
)
def test_R15_refunds_empty_the_escrow_exactly(
    paid: dict[int, int], carry: int, seats: list[int]
) -> None:
    escrow = max(0, sum(paid.values())) + carry
    moves = refunds(escrow, paid, seats, seats[0], 1)
    assert all(m.amount < 0 for m in moves)
    assert -sum(m.amount for m in moves) == escrow
    back = {m.user: 0 for m in moves}
    for m in moves:
        if m.reason == "refund":
            back[m.user] -= m.amount
    positive = sum(v for v in paid.values() if v > 0)
    if positive <= escrow:  # everyone who put chips in gets exactly that back
        for user, amount in paid.items():
            assert back.get(user, 0) == max(0, amount)
