"""The engine's refusals as a player reads them, one way for Discord and the terminal.

`IllegalAction` carries a code and params made of the engine's identifiers: a phase
("small_point"), an action kind or text ("declare 7d 6d"), card codes ("3c"). A person must
read none of them, so both the cogs and `python -m bot play` name them here: the phase by its
name ("Punto piccolo"), the action by its verb ("dichiarare un punto"), a card by its name
("Tre di Coppe (3c)").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.i18n import has, t
from bot.i18n.cards import cards_text

#: the params of a refusal that hold card codes, one ("card") or several ("cards")
CARD_PARAMS = ("card", "cards")


def action_name(kind: object, lang: str) -> str:
    """An engine action kind ("declare") as a person reads it ("declare a point")."""
    name_key = f"names.action.{kind}"
    return t(name_key, lang) if has(name_key, lang) else t("names.action.act", lang)


def phase_name(phase: object, lang: str) -> str:
    """An engine phase ("small_point") by its name ("Punto piccolo"); an unknown one as
    "this phase" rather than the identifier."""
    key = f"render.phase.{phase}"
    return t(key, lang) if has(key, lang) else t("names.phase_unknown", lang)


def _cards(value: object, lang: str) -> str:
    codes = str(value).split()
    try:
        return cards_text(codes, lang) if codes and value != "nothing" else t("cards.none", lang)
    except ValueError:  # not card codes: the text as the engine gave it
        return str(value)


def readable(params: Mapping[str, Any], lang: str, *, cards: bool = False) -> dict[str, Any]:
    """Refusal (or notice) params with the engine's identifiers named in `lang`; with `cards`,
    the card codes of an engine refusal too (a notice's cards are written already)."""
    out = dict(params)
    if "phase" in out:
        out["phase"] = phase_name(out["phase"], lang)
    if "action" in out:  # a kind ("declare") or an action's text ("declare 7d 6d")
        words = str(out["action"]).split()
        out["action"] = action_name(words[0] if words else "act", lang)
    for name in CARD_PARAMS if cards else ():
        if name in out and isinstance(out[name], str):
            out[name] = _cards(out[name], lang)
    return out


def engine_refusal(code: str, params: Mapping[str, Any], lang: str) -> str:
    """The text of the engine's refusal `code` in `lang`, every identifier named."""
    return t(f"engine.{code}", lang, **readable(params, lang, cards=True))
