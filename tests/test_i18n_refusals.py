"""The engine's refusals read the same on Discord and in the terminal: phases, actions and
cards by their names, never the engine's identifiers (issue 25)."""

from __future__ import annotations

import re

import pytest

from bot.engine import IllegalAction
from bot.engine.actions import MESSAGES
from bot.i18n import SUPPORTED
from bot.i18n.refusals import engine_refusal, readable
from cogs.table_text import refusal_text

IDENTIFIER = re.compile(r"\b[a-z]+_[a-z_]+\b")
SAMPLE = {"seat": 2, "action": "declare 7d 6d", "phase": "small_point", "min": 10, "max": 200,
          "card": "3c", "cards": "1d 1s"}


def test_the_phase_and_the_action_by_their_names() -> None:
    assert engine_refusal("wrong_phase", {"action": "declare 7d", "phase": "small_point"},
                          "it") == "Adesso non puoi dichiarare un punto (Punto piccolo)."
    assert engine_refusal("wrong_phase", {"action": "pass", "phase": "showdown"},
                          "en") == "You cannot pass now (Showdown)."


def test_cards_by_their_names() -> None:
    assert engine_refusal("card_not_held", {"card": "3c"}, "en") == (
        "You do not hold Three of Cups (3c).")
    assert engine_refusal("card_not_held", {"card": "3c"}, "it") == (
        "Non hai in mano Tre di Coppe (3c).")


def test_notices_keep_their_written_cards() -> None:
    """A notice's cards are text already: only a refusal's codes are named."""
    assert readable({"cards": "5c"}, "en")["cards"] == "5c"


@pytest.mark.parametrize("lang", SUPPORTED)
@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_every_refusal_reads_without_identifiers(code: str, lang: str) -> None:
    text = engine_refusal(code, SAMPLE, lang)
    assert not IDENTIFIER.search(text), text
    assert refusal_text(IllegalAction(code, **_params(code)), lang) == engine_refusal(
        code, _params(code), lang)


def _params(code: str) -> dict[str, object]:
    needed = set(re.findall(r"\{(\w+)\}", MESSAGES[code]))
    return {k: v for k, v in SAMPLE.items() if k in needed}
