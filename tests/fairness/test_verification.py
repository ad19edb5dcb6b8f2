"""A stored hand's dealt, shown and played cards are checked against its recomputed deck, for
whole hands played by CPU players on a fair deck, and a tampered log is caught."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import Hand, Rules
from bot.engine.events import Event
from bot.fairness import (
    Commitment,
    DealInputs,
    HandToCheck,
    TableSecret,
    first_dealer,
    verify_hand,
    verify_table,
)
from bot.fairness.pasted import hands_by_priority
from bot.players import make_player

RULES = [Rules(players=p) for p in (3, 4, 5, 6)] + [Rules(players=3, three_players="suit")]


def _played(inputs: DealInputs, rules: Rules, seed: int) -> Hand:
    """A whole hand dealt from ``inputs``, played by CPU players."""
    n = rules.players
    dealer = first_dealer(inputs.secret, n)
    hand = Hand.start(rules, [2000] * n, dealer, deck=inputs.deck(rules.deck()))
    cpus = [make_player("easy", seed + s) for s in range(n)]
    while hand.to_act is not None:
        seat = hand.to_act
        hand.act(seat, cpus[seat].choose(hand.seat_view(seat), hand.legal_actions(),
                                          hand.events_for(seat)))
    return hand


def _stored(hand: Hand) -> list[Event]:
    """The event log as the store keeps it (JSON text) and reads it back."""
    return [Event.from_dict(e) for e in json.loads(json.dumps([e.to_dict() for e in hand.events]))]


@settings(max_examples=10, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.integers(1, 500), st.sampled_from(RULES),
       st.lists(st.text(max_size=5), max_size=6), st.integers(0, 1000))
def test_a_played_hand_verifies(secret, k, rules, words, seed) -> None:
    inputs = DealInputs(TableSecret(secret), 77, k, tuple(words))
    hand = _played(inputs, rules, seed)
    result = verify_hand(inputs, rules.deck(), _stored(hand))
    assert result.ok, result.mismatches
    played_cards = [c for e in hand.events if e.kind == "play" for c in e.data()["cards"]]
    assert [c for check in result.played for c in check.cards] == played_cards
    assert [c.code for c in result.deck] == [c.code for c in hand.deck]
    assert sum(len(c.cards) for c in result.dealt) == len(rules.deck())  # all dealt
    # the deal helper of `python -m bot verify` matches the engine's dealing
    by_place = hands_by_priority(hand.deck, rules.deals, rules.players)
    dealer = hand.dealer
    for place, cards in enumerate(by_place):
        seat = (dealer + 1 + place) % rules.players
        dealt = [c for e in hand.events if e.kind == "deal" and e.seat == seat
                 for c in e.data()["cards"]]
        assert sorted(dealt) == sorted(c.code for c in cards)


def test_an_aborted_hand_verifies_on_what_was_dealt() -> None:
    inputs = DealInputs(TableSecret(bytes(range(32))), 5, 1)
    rules = Rules(players=4)
    hand = Hand.start(rules, [1000] * 4, 0, deck=inputs.deck(rules.deck()))
    result = verify_hand(inputs, rules.deck_mask(), _stored(hand))
    assert result.ok and len(result.dealt) == 4 and not result.played


@pytest.fixture(scope="module")
def played() -> tuple[DealInputs, Rules, list[dict]]:
    inputs = DealInputs(TableSecret(bytes(range(1, 33))), 12, 4, ("hello",))
    rules = Rules(players=4)
    return inputs, rules, _stored(_played(inputs, rules, 3))


def test_another_secret_or_word_does_not_verify(played) -> None:
    inputs, rules, events = played
    wrong_word = DealInputs(inputs.secret, 12, 4, ("hullo",))
    assert not verify_hand(wrong_word, rules.deck(), events).ok
    wrong_hand = DealInputs(inputs.secret, 12, 5, ("hello",))
    assert not verify_hand(wrong_hand, rules.deck(), events).ok


def test_a_changed_deal_is_caught(played) -> None:
    inputs, rules, events = played
    events = [e.to_dict() for e in events]
    first = next(i for i, e in enumerate(events) if e["kind"] == "deal")
    events[first]["data"]["cards"] = list(reversed(events[first]["data"]["cards"]))
    result = verify_hand(inputs, rules.deck(), [Event.from_dict(e) for e in events])
    assert not result.ok
    assert [c.event for c in result.mismatches] == [first]
    assert result.mismatches[0].kind == "deal"


def test_a_played_card_the_seat_was_not_dealt_is_caught(played) -> None:
    inputs, rules, events = played
    events = [e.to_dict() for e in events]
    at = next(i for i, e in enumerate(events) if e["kind"] == "play")
    seat = events[at]["seat"]
    others = {c for e in events if e["kind"] == "deal" and e["seat"] != seat
              for c in e["data"]["cards"]}
    events[at]["data"]["cards"] = [random.Random(1).choice(sorted(others))]
    result = verify_hand(inputs, rules.deck(), [Event.from_dict(e) for e in events])
    assert [(c.event, c.kind) for c in result.mismatches] == [(at, "play")]
    assert not result.ok and all(c.ok for c in result.dealt)


def test_a_whole_table_verifies_and_a_changed_hand_is_named() -> None:
    secret = TableSecret(bytes(range(5, 37)))
    rules = Rules(players=3)
    words = [("ciao",), (), ("ciao", "Zoë")]
    hands = [
        HandToCheck(k, w, rules.deck_mask(), _stored(_played(DealInputs(secret, 31, k, w),
                                                               rules, k)))
        for k, w in enumerate(words, 1)
    ]
    commitment = Commitment.of(secret, 31)
    result = verify_table(commitment, secret, 31, hands)
    assert result.ok and result.commitment_ok and len(result.hands) == 3
    assert [h.inputs.hand_no for h in result.hands] == [1, 2, 3]
    assert not verify_table(Commitment.of(secret, 32), secret, 31, hands).ok
    swapped = [hands[0], HandToCheck(2, ("x",), hands[1].used, hands[1].events), hands[2]]
    checked = verify_table(commitment, secret, 31, swapped)
    assert [h.ok for h in checked.hands] == [True, False, True] and checked.commitment_ok
