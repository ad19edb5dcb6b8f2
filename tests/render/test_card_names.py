"""Card, suit and rank names in both languages (bot/i18n/cards.py), notation of R-1."""

from __future__ import annotations

import pytest

from bot.i18n.cards import (
    RANKS,
    SUITS,
    card_name,
    cards_text,
    parse_code,
    rank_name,
    suit_name,
)

CODES = [f"{rank}{suit}" for suit in SUITS for rank in RANKS]


@pytest.mark.parametrize(
    ("code", "it", "en"),
    [
        ("1c", "Asso di Coppe", "Ace of Cups"),
        ("8d", "Fante di Denari", "Jack of Coins"),
        ("9s", "Cavallo di Spade", "Knight of Swords"),
        ("10b", "Re di Bastoni", "King of Clubs"),
        ("7d", "Sette di Denari", "Seven of Coins"),
    ],
)
def test_R1_card_names_follow_the_glossary(code: str, it: str, en: str) -> None:
    assert card_name(code, "it") == it
    assert card_name(code, "en") == en


@pytest.mark.parametrize("lang", ["it", "en"])
def test_R1_forty_distinct_names(lang: str) -> None:
    names = {card_name(code, lang) for code in CODES}
    assert len(names) == 40


def test_R1_parse_round_trips_every_code() -> None:
    for code in CODES:
        rank, suit = parse_code(code)
        assert f"{rank}{suit}" == code


@pytest.mark.parametrize("bad", ["", "11c", "0d", "7x", "07d", "d", "10", "1 c"])
def test_R1_parse_rejects_non_cards(bad: str) -> None:
    with pytest.raises(ValueError):
        parse_code(bad)


def test_suit_and_rank_names() -> None:
    assert [suit_name(s, "it") for s in SUITS] == ["Coppe", "Denari", "Spade", "Bastoni"]
    assert [suit_name(s, "en") for s in SUITS] == ["Cups", "Coins", "Swords", "Clubs"]
    assert rank_name(9, "it") == "Cavallo" and rank_name(9, "en") == "Knight"
    with pytest.raises(ValueError):
        rank_name(11, "en")
    with pytest.raises(ValueError):
        suit_name("x", "en")


def test_cards_text_names_and_codes() -> None:
    assert cards_text(["1c", "7d"], "en") == "Ace of Cups (1c), Seven of Coins (7d)"
    assert cards_text(["10b"], "it") == "Re di Bastoni (10b)"
    assert cards_text([], "it") == "nessuna carta"
