"""`match.phase_ledger`: where a seat's chips of a hand went; its parts add up to the hand's
result (no chip counted twice or lost), and a duel's ledgers total its scores."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import Rules
from bot.players import make_player
from bot.players.match import duel_ledgers, duel_scores, phase_ledger, play_hand

PARTS = ("ante", "small", "big", "stoppa", "special")


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(3, 6),
       level=st.sampled_from(["random", "easy"]))
def test_R15_the_ledgers_parts_add_up_to_each_seats_result(
    seed: int, players: int, level: str
) -> None:
    cpus = [make_player(level, seed + s) for s in range(players)]
    hand = play_hand(Rules(players=players), cpus, seed % players, seed=seed)
    assert hand.result is not None
    ledger = phase_ledger(hand, range(players))
    for seat, chips in ledger.items():
        assert chips["total"] == hand.result[seat]
        assert sum(chips.get(part, 0.0) for part in PARTS) == hand.result[seat]
        for kind in ("small", "big"):  # the outcomes split each kind of round exactly
            split = sum(v for k, v in chips.items() if k.startswith(f"{kind}:"))
            assert split == chips.get(kind, 0.0)
    assert sum(chips["total"] for chips in ledger.values()) == 0


def test_a_duels_ledgers_total_its_scores() -> None:
    ledgers = duel_ledgers("easy", "random", 3, seed=5)
    assert [row["total"] for row in ledgers] == duel_scores("easy", "random", 3, seed=5)
