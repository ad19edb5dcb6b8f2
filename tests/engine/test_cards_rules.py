"""R-1 cards, R-2 table layouts, R-3 dealing, R-4 stake validation."""

from __future__ import annotations

import json

import pytest

from bot.engine import Card, Hand, Rules, build_deck, can_pay_ante, parse_cards
from bot.engine.rules import VARIANTS
from tests.engine.behaviour_hash import view as json_view

from .util import deck_for


def test_R1_card_text_round_trip() -> None:
    for text in ("7d", "1s", "10c", "8b"):
        assert str(Card.parse(text)) == text
    c = Card.parse("10c")
    assert (c.rank, c.suit) == (10, "c")
    assert Card.parse("7D") is Card.parse("7d")
    assert [str(c) for c in parse_cards("7d, 6d 1d")] == ["7d", "6d", "1d"]


@pytest.mark.parametrize("bad", ["", "0c", "11d", "7x", "d7", "x", "٣c", "７d", "²s"])
def test_R1_bad_card_text(bad: str) -> None:
    with pytest.raises(ValueError):
        Card.parse(bad)


def test_R1_primiera_values() -> None:
    expected = {7: 21, 6: 18, 1: 16, 5: 15, 4: 14, 3: 13, 2: 12, 8: 10, 9: 10, 10: 10}
    for rank, value in expected.items():
        assert Card.parse(f"{rank}c").primiera == value


def test_R1_cards_are_ordered_and_hashable() -> None:
    cards = parse_cards("10b 1c 7d 7c")
    assert [str(c) for c in sorted(cards)] == ["1c", "7c", "7d", "10b"]
    assert len({Card.parse("7d"), Card.parse("7d")}) == 1


def test_R1_card_names() -> None:
    assert Card.parse("1c").name("it") == "Asso di Coppe"
    assert Card.parse("8d").name("it") == "Fante di Denari"
    assert Card.parse("9s").name("en") == "Knight of Swords"
    assert Card.parse("10b").name("en") == "King of Clubs"


@pytest.mark.parametrize(
    ("players", "variant", "cards", "each", "deals"),
    [
        (3, "king", 39, 13, (3, 3, 3, 3, 1)),
        (3, "suit", 30, 10, (3, 3, 3, 1)),
        (4, "king", 40, 10, (3, 3, 3, 1)),
        (5, "king", 40, 8, (3, 3, 2)),
        (6, "king", 36, 6, (3, 3)),
    ],
)
def test_R2_table_layouts(players: int, variant: str, cards: int, each: int, deals: tuple) -> None:
    rules = Rules(players=players, three_players=variant, ante=100)
    assert len(rules.deck()) == cards
    assert len(set(rules.deck())) == cards
    assert rules.deals == deals
    assert rules.hand_size == each
    assert sum(deals) * players == cards  # every card is dealt


def test_R2_removed_cards() -> None:
    assert Card.parse("10b") not in build_deck(3)
    assert Card.parse("10c") in build_deck(3)
    assert Card.parse("10c") not in build_deck(3, "king", "c")
    assert all(c.suit != "d" for c in build_deck(3, "suit", "d"))
    assert all(c.rank != 10 for c in build_deck(6))
    assert Rules(players=3).rank_counts()[10] == 3
    assert Rules(players=3, three_players="suit").rank_counts()[4] == 3
    assert Rules(players=6).rank_counts()[10] == 0


def test_R3_priority_and_dealing_with_explicit_deck() -> None:
    rules = Rules(players=4)
    deck = list(rules.deck())  # 1c 2c 3c ... in index order
    h = Hand.start(rules, [1000] * 4, dealer=2, deck=deck)
    assert h.eldest == 3
    # the eldest hand (seat 3) gets the first three cards, then 0, 1, and the dealer last
    assert json_view(h, 3)["new_cards"] == ["1c", "2c", "3c"]
    assert json_view(h, 0)["new_cards"] == ["4c", "5c", "6c"]
    assert json_view(h, 1)["new_cards"] == ["7c", "8c", "9c"]
    assert json_view(h, 2)["new_cards"] == ["10c", "1d", "2d"]
    assert h.to_act == 3
    deals = [e for e in h.events if e.kind == "deal"]
    assert [e.seat for e in deals] == [3, 0, 1, 2]


def test_R3_deck_for_helper_deals_the_chosen_hands() -> None:
    rules = Rules(players=5)
    deck = deck_for(rules, 4, {0: "7d 6d 1d 7c 6c 1c 5d 5c"})
    h = Hand.start(rules, [1000] * 5, dealer=4, deck=deck)
    assert json_view(h, 0)["hand"] == sorted(json_view(h, 0)["hand"], key=lambda t: Card.parse(t))
    assert set(json_view(h, 0)["new_cards"]) == {"7d", "6d", "1d"}


def test_R3_seeded_shuffle_is_deterministic() -> None:
    a = Hand.start(Rules(), [1000] * 4, 0, seed=42)
    b = Hand.start(Rules(), [1000] * 4, 0, seed=42)
    c = Hand.start(Rules(), [1000] * 4, 0, seed=43)
    assert a.deck == b.deck
    assert a.deck != c.deck


def test_R4_defaults() -> None:
    r = Rules()
    assert (r.ante, r.small_point, r.cip, r.max_bet, r.card_rate, r.cards_per_payment) == (
        60,
        10,
        10,
        200,
        10,
        1,
    )
    assert r.big_pot == 4 * 60 - 4 * 10
    assert (r.three_players, r.ranking, r.unclaimed_big_pot) == ("king", "count", "dealer")
    assert (r.blocked_stoppa, r.special_payout, r.three_aces_jump, r.removed_suit) == (
        "four_aces",
        "cards",
        False,
        "b",
    )


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"ante": 10}, "antes"),
        ({"players": 3, "ante": 16}, "antes"),
        ({"cip": 50, "max_bet": 40}, "max_bet"),
        ({"ante": 0}, "ante must be positive"),
        ({"card_rate": -1}, "card_rate must be positive"),
        ({"players": 7}, "players must be 3 to 6"),
        ({"ranking": "sum"}, "unknown ranking"),
        ({"blocked_stoppa": "five_aces"}, "unknown blocked_stoppa"),
        ({"cards_per_payment": 4}, "cards_per_payment"),
        ({"removed_suit": "x"}, "unknown removed_suit"),
    ],
)
def test_R4_bad_settings_refused(settings: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Rules(**settings)


def test_R4_rules_dict_round_trip() -> None:
    r = Rules(players=5, ante=80, ranking="total", three_aces_jump=True)
    assert Rules.from_dict(json.loads(json.dumps(r.to_dict()))) == r
    with pytest.raises(ValueError, match="unknown settings"):
        Rules.from_dict({"colour": "red"})
    assert Rules.variant_choices()["blocked_stoppa"] == VARIANTS["blocked_stoppa"]
    assert VARIANTS["removed_suit"][0] == "b"


def test_R5_ante_paid_and_pots_split() -> None:
    h = Hand.start(Rules(), [100, 200, 300, 60], 0, seed=1)
    assert h.start_chips == [100, 200, 300, 60]
    assert h.pots.small == (10, 10, 10, 10)
    assert h.pots.big == 200
    assert sum(h.chips) + h.pot_total() == 660


def test_R5_seat_that_cannot_pay_the_ante_is_refused() -> None:
    with pytest.raises(ValueError, match="seat 2 cannot pay the ante"):
        Hand.start(Rules(), [100, 100, 59, 100], 0)
    assert can_pay_ante(Rules(), [100, 59, 60]) == [True, False, True]


def test_R2_wrong_deck_refused() -> None:
    rules = Rules(players=6)
    with pytest.raises(ValueError, match="36 cards"):
        Hand.start(rules, [1000] * 6, 0, deck=Rules().deck())


@pytest.mark.parametrize("text", ["bet ٣", "raise ３０", "bet ²", "bet 5²"])
def test_an_action_amount_is_ascii_digits(text: str) -> None:
    """A typed amount is read as every typed number is (issue 34): `int()` reads "٣" as 3."""
    from bot.engine import parse_action

    with pytest.raises(ValueError):
        parse_action(text)
