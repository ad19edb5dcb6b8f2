"""Chip movement helpers: engine chip changes -> store moves, and refunds at close (R-15)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.events import Called, Paid, SpecialHand, Won
from bot.store import Move, Store
from bot.store.models import TableSave
from bot.tables.chips import chip_moves, refunds, split_equally


def test_R13_card_payments_and_pots_get_their_reasons() -> None:
    events = [
        Called(0, 20, 20),
        Won(1, "big", None, 250, True),
        Paid(0, 2, 30, 30, 3),
        Paid(1, 2, 10, 10, 1),
    ]
    before = [500, 500, 500]
    after = [500 - 20 - 30, 500 + 250 - 10, 500 + 40]
    moves = chip_moves([11, 12, 13], before, after, events, 3)
    by_user: dict[int, list[tuple[int, str]]] = {}
    for move in moves:
        assert move.hand_no == 3
        by_user.setdefault(move.user, []).append((move.amount, move.reason))
    assert sorted(by_user[11]) == [(20, "bet"), (30, "card_payment")]
    # won the big pot and paid a card in the same step: both moves, in the ledger too
    assert sorted(by_user[12]) == [(-250, "pot"), (10, "card_payment")]
    assert by_user[13] == [(-40, "card_payment")]
    for seat, user in enumerate([11, 12, 13]):
        assert -sum(a for a, _ in by_user[user]) == after[seat] - before[seat]


def test_R13_a_seat_that_wins_then_pays_gets_both_ledger_moves() -> None:
    """A seat that wins 100 and pays 30 at the close in one step: a pot move and a payment
    move (the ledger names both); they sum to the seat's chip change."""
    events = [
        Won(0, "big", None, 100, False),
        Paid(0, 1, 30, 30, 3),
    ]
    moves = chip_moves([1, 2], [5, 500], [75, 530], events, 1)
    assert sorted((m.user, m.amount, m.reason) for m in moves) == [
        (1, -100, "pot"),
        (1, 30, "card_payment"),
        (2, -30, "card_payment"),
    ]


async def test_R13_win_and_pay_in_one_save_needs_no_chips_the_seat_lacks(tmp_path) -> None:
    """Through the real store: the seat holds 5 chips, wins 100 and pays 30 in one save."""
    store = await Store.open(str(tmp_path / "t.db"))
    try:
        row = await store.create_table(1, 1, settings={}, seats=[1, 2])
        await store.grant(1, 1, -995, reason="test", by=0)  # seat 1 keeps 5 chips
        funded = await store.save_table(row.id, TableSave(0, moves=[Move(2, 100, "bet", 1)]))
        events = [
            Won(0, "big", None, 100, False),
            Paid(0, 1, 30, 30, 3),
        ]
        moves = chip_moves([1, 2], [5, 400], [75, 430], events, 1)
        saved = await store.save_table(row.id, TableSave(funded.version, moves=moves))
        assert saved.escrow == 0
        assert await store.balances(1, [1, 2]) == {1: 75, 2: 930}
        assert await store.audit() == []
    finally:
        await store.close()


def test_R11_special_payments_are_marked_special() -> None:
    events = [
        Paid(1, 0, 60, 60, 6),
        SpecialHand(0, "misera", (), ()),
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
