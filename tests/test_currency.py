"""A server's currency in the catalogues' amounts (`{n:chips}`, bot/i18n/currency.py)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.i18n import SUPPORTED, t
from bot.i18n.currency import Currency
from bot.i18n.numbers import format_number

counts = st.integers(min_value=-10**9, max_value=10**9)


@given(counts)
def test_without_a_currency_the_bots_own_words_stay(n: int) -> None:
    written = format_number(n, "en")
    assert Currency().amount(n, "en") == f"{written} {'chip' if n == 1 else 'chips'}"
    word = "fiche" if n == 1 else "fiches"
    assert Currency().amount(n, "it") == f"{format_number(n, 'it')} {word}"
    assert t("economy.balance_self", "en", balance=n) == t(
        "economy.balance_self", "en", balance=n, currency=Currency())


@given(counts, st.sampled_from(SUPPORTED))
def test_a_singular_and_plural_name_agrees_with_the_count(n: int, lang: str) -> None:
    text = Currency("coin/coins", "🪙").amount(n, lang)
    assert text == f"🪙 {format_number(n, lang)} {'coin' if n == 1 else 'coins'}"


@given(counts)
def test_a_single_name_is_used_for_every_count(n: int) -> None:
    assert Currency("gold").amount(n, "en") == f"{format_number(n, 'en')} gold"


def test_an_amount_written_with_separators_or_a_sign_still_agrees() -> None:
    assert Currency("coin/coins").amount("+1", "en") == "+1 coin"
    assert Currency("moneta/monete").amount("1.000", "it") == "1.000 monete"
    assert t("history.choice", "en", id=3, when="now", net="+1",
             currency=Currency("coin/coins")) == "#3 · +1 coin · now"


def test_a_name_with_braces_is_text_not_a_template() -> None:
    assert Currency("{balance}").amount(2, "en") == "2 {balance}"
    assert t("economy.balance_self", "en", balance=2, currency=Currency("{x}")) == (
        "You have **2 {x}** on this server.")
