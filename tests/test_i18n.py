"""Both catalogues complete, with the same placeholders (issue: Italian and English)."""

from __future__ import annotations

import pytest

from bot.i18n import SUPPORTED, catalogue, pick_language, placeholders, t


def test_every_key_is_in_every_language() -> None:
    keys = {lang: set(catalogue(lang)) for lang in SUPPORTED}
    for lang in SUPPORTED:
        missing = set().union(*keys.values()) - keys[lang]
        assert not missing, f"{lang} lacks {sorted(missing)}"


def test_same_placeholders_in_every_language() -> None:
    en = catalogue("en")
    for lang in SUPPORTED:
        for key, text in catalogue(lang).items():
            assert placeholders(text) == placeholders(en[key]), f"{lang}:{key}"


def test_no_empty_messages() -> None:
    for lang in SUPPORTED:
        for key, text in catalogue(lang).items():
            assert text.strip(), f"{lang}:{key} is empty"


def test_lookup_and_fallback() -> None:
    assert "DISCORD_TOKEN" in t("cli.no_token", "it")
    assert t("cli.no_token", "it") != t("cli.no_token", "en")
    assert t("cli.no_token", "fr") == t("cli.no_token", "en")
    with pytest.raises(KeyError):
        t("cli.no_such_key")


@pytest.mark.parametrize(
    ("candidates", "expected"),
    [
        (("it",), "it"),
        (("en-US",), "en"),
        (("en-GB",), "en"),
        (("fr", "it"), "it"),
        (("de", None), "en"),
        ((None, None), "en"),
    ],
)
def test_language_choice(candidates: tuple, expected: str) -> None:
    assert pick_language(*candidates) == expected
