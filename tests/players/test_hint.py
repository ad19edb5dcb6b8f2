"""The practice tables' hint: the hard CPU's move in the member's seat, from that seat's view
only (hypothesis: a hint never names a card the member cannot see, and it is a legal move)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import Hand, Rules
from bot.engine.actions import Action, Bet, Raise
from bot.engine.views import SeatView
from bot.players.hint import hint

CODE = re.compile(r"\b(?:10|[1-9])[cdsb]\b")


def visible_codes(view: SeatView) -> set[str]:
    """The cards the seat may see: its own, the points shown, the stoppa's plays."""
    codes = {c.code for c in view.hand}
    codes |= {c.code for p in view.declared for c in p.cards}
    if view.stoppa is not None:
        codes |= {c.code for play in view.stoppa.table for c in play}
    return codes


def _legal_for(hand: Hand, action: Action) -> bool:
    legal = hand.legal_actions()
    if isinstance(action, Bet | Raise):
        seat = hand.to_act
        assert seat is not None
        low, high = hand.seat_view(seat).bet_range or (0, 0)
        amount = action.amount if isinstance(action, Bet) else action.to
        return any(type(a) is type(action) for a in legal) and low <= amount <= high
    return action in legal


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(3, 6), stop=st.integers(0, 40),
       lang=st.sampled_from(["en", "it"]))
def test_a_hint_is_legal_and_names_only_cards_the_seat_sees(
    seed: int, players: int, stop: int, lang: str
) -> None:
    hand = Hand.start(Rules(players=players), [1000] * players, 0, seed=seed)
    steps = 0
    while hand.to_act is not None:
        seat = hand.to_act
        view = hand.seat_view(seat)
        given_hint = hint(view, hand.legal_actions(), hand.events_for(seat))
        assert _legal_for(hand, given_hint.action)
        named = set(CODE.findall(given_hint.text(lang)))
        assert named <= visible_codes(view), named - visible_codes(view)
        if steps >= stop:
            return
        hand.act(seat, given_hint.action)
        steps += 1


def test_the_same_view_gets_the_same_hint() -> None:
    hand = Hand.start(Rules(), [1000] * 4, 1, seed=9)
    seat = hand.to_act
    assert seat is not None
    view = hand.seat_view(seat)
    assert hint(view, hand.legal_actions()) == hint(view, hand.legal_actions())
