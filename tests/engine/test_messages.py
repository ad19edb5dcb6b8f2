"""IllegalAction messages: readable, catalogued in en and it under engine.<code>."""

from __future__ import annotations

import pytest

from bot.engine import MESSAGES, Bet, Hand, IllegalAction, Rules, parse_action, parse_cards
from bot.engine.actions import Call, Concede, Declare, Pass, Play, Raise
from bot.i18n import catalogue, placeholders, t


def test_every_code_is_catalogued_with_the_same_placeholders() -> None:
    for lang in ("en", "it"):
        cat = catalogue(lang)
        for code, text in MESSAGES.items():
            assert f"engine.{code}" in cat, (lang, code)
            assert placeholders(cat[f"engine.{code}"]) == placeholders(text)
    assert catalogue("en")["engine.not_your_turn"] == MESSAGES["not_your_turn"]


def test_messages_read_well() -> None:
    h = Hand.start(Rules(), [1000] * 4, 3, seed=1)
    with pytest.raises(IllegalAction) as err:
        h.act(2, Bet(10))
    assert str(err.value) == "It is not your turn: waiting for seat 0."
    assert err.value.params == {"seat": 0}
    assert t("engine.not_your_turn", "it", **err.value.params) == (
        "Non è il tuo turno: tocca al posto 0."
    )
    with pytest.raises(IllegalAction) as err:
        h.act(0, Bet(5))
    assert str(err.value) == "The minimum bet is 10."


@pytest.mark.parametrize(
    "action",
    [
        Pass(),
        Bet(30),
        Call(),
        Raise(60),
        Concede(),
        Declare(tuple(parse_cards("7d 6d"))),
        Play(tuple(parse_cards("5c 5d"))),
    ],
)
def test_action_text_round_trip(action: object) -> None:
    assert parse_action(str(action)) == action


def test_action_texts() -> None:
    assert str(Declare(tuple(parse_cards("7d 6d")))) == "declare 7d 6d"
    assert str(Play(tuple(parse_cards("5c 5d")))) == "play 5c 5d"
    assert Declare(parse_cards("7d")) == Declare(tuple(parse_cards("7d")))  # lists accepted
    for bad in ("", "bet", "bet x", "jump", "play 11c"):
        with pytest.raises(ValueError):
            parse_action(bad)
