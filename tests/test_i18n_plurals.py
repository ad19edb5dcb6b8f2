"""Plural forms in the catalogues: one rule per language, `{n:one|other}` in the messages."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.i18n import SUPPORTED, catalogue, plural_form, plural_words, t
from bot.render import table_alt_text
from bot.render.snapshots import SeatInfo, TableSnapshot

#: Nouns that agree with a number written just before them.
COUNTED = {
    "en": ("cards", "chips", "players", "times", "files", "hands", "pages", "points", "rows",
           "differences", "places", "processes"),
    "it": ("carte", "giocatori", "volte", "mani", "pagine", "punti", "fiches", "righe",
           "differenze", "posizioni", "processi"),
}


@pytest.mark.parametrize("lang", SUPPORTED)
def test_one_rule_per_language(lang: str) -> None:
    assert plural_form(lang, 1) == "one"
    for n in (0, 2, 5, 11, 21, 100, 1000):
        assert plural_form(lang, n) == "other"


@given(st.integers(min_value=-10_000, max_value=10_000), st.sampled_from(SUPPORTED))
def test_plural_form_is_one_only_for_one(n: int, lang: str) -> None:
    assert (plural_form(lang, n) == "one") == (n == 1)


def test_t_picks_the_form_of_the_count() -> None:
    assert t("table.embed.seat_cards", "en", count=1) == "1 card"
    assert t("table.embed.seat_cards", "en", count=2) == "2 cards"
    assert t("table.embed.seat_cards", "it", count=1) == "1 carta"
    assert t("table.embed.seat_cards", "it", count=0) == "0 carte"
    assert t("table.event.payment", "en", player="A", amount=1, to="B") == "A pays 1 chip to B."
    assert t("economy.leaderboard_page_out", "en", pages=1) == "There is only 1 page."
    assert t("economy.leaderboard_page_out", "it", pages=3) == "Ci sono solo 3 pagine."


def test_counts_written_with_separators() -> None:
    seat = t("render.alt.seat", "en", seat=1, name="A", chips="1,000", cards=1, status="in",
             extra="")
    assert "1,000 chips" in seat and "1 card," in seat
    seat = t("render.alt.seat", "it", seat=1, name="A", chips="1.000", cards=1, status="in",
             extra="")
    assert "1 carta," in seat


def test_a_value_that_is_not_a_count_takes_the_other_form() -> None:
    for value in (True, None, "abc", 1.5):
        assert t("table.embed.seat_cards", "en", count=value).endswith(" cards")
    assert t("table.embed.seat_cards", "en", count=1.0) == "1.0 card"


@pytest.mark.parametrize("lang", SUPPORTED)
def test_every_counted_noun_agrees_with_its_number(lang: str) -> None:
    """No catalogue message writes "{n} cards" with a fixed plural: it would read "1 cards"."""
    fixed = re.compile(r"\{\w+\}\**\s+(?:CPU\s+)?(" + "|".join(COUNTED[lang]) + r")\b")
    wrong = {key: text for key, text in catalogue(lang).items() if fixed.search(text)}
    assert not wrong


def test_plural_forms_have_the_same_counts_in_both_languages() -> None:
    en, it = catalogue("en"), catalogue("it")
    for key, text in en.items():
        for name in plural_words(it[key]):
            assert name in plural_words(text) or f"{{{name}}}" in text, key


def test_alt_text_of_a_seat_with_one_card() -> None:
    for lang, wrong in (("en", "1 cards"), ("it", "1 carte")):
        snap = TableSnapshot(
            seats=(SeatInfo(name="Anna", chips=1, cards=1, status="in"),), phase="stoppa",
            lang=lang,
        )
        text = table_alt_text(snap)
        assert wrong not in text
        assert ("1 card" if lang == "en" else "1 carta") in text


@pytest.mark.parametrize(("lang", "one", "five"), [
    ("en", "Trend (last hand)", "Trend (last 5 hands)"),
    ("it", "Andamento (ultima mano)", "Andamento (ultime 5 mani)"),
])
def test_a_form_may_hold_its_count(lang: str, one: str, five: str) -> None:
    """`#` in a plural form is the count: "the last hand", never "the last 1 hand"."""
    assert t("ranking.stats_trend", lang, hands=1) == one
    assert t("ranking.stats_trend", lang, hands=5) == five
    assert t("history.chart.title", "en", player="A", count=1) == (
        "A: chips won or lost in the last hand")
    assert t("history.chart.title", "it", player="A", count=12) == (
        "A: fiches vinte o perse nelle ultime 12 mani")


@pytest.mark.parametrize("lang", SUPPORTED)
def test_counts_of_the_operator_commands_agree(lang: str) -> None:
    assert "1 rows" not in t("db.copied_table", "en", table="ledger", rows=1)
    assert t("db.copied_table", lang, table="x", rows=1).endswith(("1 row", "1 riga"))
    assert t("db.audit_problems", lang, count=1) in ("1 difference", "1 differenza")


def test_counts_in_the_operators_logs() -> None:
    from bot.i18n import counted

    assert counted(1, "time", "times") == "1 time"
    assert counted(3, "time", "times") == "3 times"
    assert counted(0, "server", "servers") == "0 servers"
