"""One word for chips in Italian: "fiches" (a "fiche" only when there is exactly one).

Italian card players say "fiches"; the catalogues once mixed "gettoni", "fiche" and "fiches",
sometimes in one message. The singular "fiche" is allowed only where exactly one is meant:
the singular form of a plural (`{n:fiche|fiches}`) or after "ogni"/"una"."""

from __future__ import annotations

import re

import pytest

from bot.i18n import catalogue, t

#: words that must never come back in the Italian catalogue
BANNED = re.compile(r"\b(gettone|gettoni|chip|chips)\b", re.IGNORECASE)
#: "fiche" where it is not the singular of a count, nor after "ogni"/"una"
LONE_FICHE = re.compile(r"(?<![|:])(?<!ogni )(?<!una )\bfiche\b(?!\|)", re.IGNORECASE)
#: English left inside Italian text (command words of `play` are quoted in the help only)
ENGLISH = re.compile(r"\b(the|you|your|chips?|seat|bet|raise|call|fold|Manage Server)\b")


def _prose(text: str) -> str:
    """The words a person reads: without `{placeholders}` and `code`."""
    return re.sub(r"`[^`]*`", "", re.sub(r"\{[^{}]*\}", "", text))


def test_italian_never_says_gettoni_or_chips() -> None:
    wrong = {k: v for k, v in catalogue("it").items() if BANNED.search(_prose(v))}
    assert not wrong


def test_italian_fiche_is_singular_only() -> None:
    wrong = {k: v for k, v in catalogue("it").items() if LONE_FICHE.search(v)}
    assert not wrong


def test_a_banned_word_would_be_caught() -> None:
    assert BANNED.search("Hai 5 gettoni") and LONE_FICHE.search("le tue fiche")
    assert not LONE_FICHE.search("{n:fiche|fiches}, ogni fiche, una fiche")


@pytest.mark.parametrize("count", [1, 2, 1000])
def test_the_default_currency_is_fiches(count: int) -> None:
    assert t("currency.unit", "it", count=count) == ("fiche" if count == 1 else "fiches")


def test_no_english_words_in_italian_prose() -> None:
    allowed = {"demo.play.help", "demo.play.not_understood", "demo.play.intro",
               "demo.play.next_hand"}
    wrong = {k: v for k, v in catalogue("it").items()
             if k not in allowed and ENGLISH.search(_prose(v))}
    assert not wrong


def test_one_italian_name_for_manage_server() -> None:
    texts = [v for v in catalogue("it").values() if re.search(r"[Gg]estir\w* (il )?server", v)]
    assert not texts
    assert sum("Gestisci server" in v for v in catalogue("it").values()) >= 2
