"""Message catalogues (English and Italian) and the `t()` lookup.

Catalogues are TOML files in `bot/i18n/locales/<lang>/<area>.toml`. A key is the file's stem
followed by the dotted path inside the file: `cli.no_token` is `no_token` in `cli.toml`.
Placeholders use `str.format` syntax (`{name}`). Every key exists in both languages with the
same placeholders (tests/test_i18n.py checks it).

Plurals: a word that agrees with a count is written `{count:card|cards}` (the count's
placeholder, then the singular and plural forms). `plural_form(lang, n)` picks the form with
the language's one rule, so a message with two counts ("{chips} {chips:chip|chips},
{cards} {cards:card|cards}") needs no extra keys and callers pass plain numbers. A form may
hold the number itself as `#`, for a phrase whose singular drops it: `{n:the last hand|the
last # hands}` reads "the last hand" and "the last 5 hands", never "the last 1 hand".
"""

from __future__ import annotations

import string
import tomllib
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from bot.i18n.currency import Currency, count_of
from bot.i18n.numbers import format_params

SUPPORTED: tuple[str, ...] = ("en", "it")
DEFAULT = "en"
#: the format spec of an amount of chips in a catalogue message: `{amount:chips}`
CHIPS_SPEC = "chips"
LOCALES_DIR = Path(__file__).with_name("locales")
#: the format spec of a name after the Italian "a" (to, at): `{to:a}` is "ad Anna", "a Bruno"
#: (the euphonic d before a name that starts with a)
TO_SPEC = "a"
#: in a plural form, where the count itself is written ("the last # hands")
COUNT_MARK = "#"


#: The plural rule of each language: True when `n` takes the singular ("one") form.
#: English and Italian both use the singular for exactly one (CLDR: one/other).
PLURAL_ONE: dict[str, Callable[[int], bool]] = {
    "en": lambda n: n == 1,
    "it": lambda n: n == 1,
}


def plural_form(lang: str, n: int) -> str:
    """The CLDR plural category of `n` in `lang`: "one" or "other"."""
    rule = PLURAL_ONE.get(lang, PLURAL_ONE[DEFAULT])
    return "one" if rule(n) else "other"


class _CatalogueFormatter(string.Formatter):
    """`str.format` plus plural forms: `{n:card|cards}` becomes "card" or "cards", and
    amounts of chips: `{n:chips}` becomes "120 chips" (or the server's `currency`)."""

    def __init__(self, lang: str, currency: Currency | None = None) -> None:
        super().__init__()
        self.lang = lang
        self.currency = currency or Currency()

    def format_field(self, value: Any, format_spec: str) -> Any:
        if format_spec == CHIPS_SPEC:
            return self.currency.amount(value, self.lang)
        if format_spec == TO_SPEC:
            name = str(value)
            return ("ad " if name[:1].lower() == "a" else "a ") + name
        if "|" in format_spec:
            one, other = format_spec.split("|", 1)
            count = count_of(value)
            form = one if count is not None and plural_form(self.lang, count) == "one" else other
            return form.replace(COUNT_MARK, str(value))
        return super().format_field(value, format_spec)


def _flatten(prefix: str, table: dict[str, Any], out: dict[str, str]) -> None:
    for key, value in table.items():
        full = f"{prefix}.{key}"
        if isinstance(value, dict):
            _flatten(full, value, out)
        elif isinstance(value, str):
            out[full] = value
        else:
            raise TypeError(f"catalogue entry {full} must be a string, not {type(value).__name__}")


@cache
def catalogue(lang: str) -> dict[str, str]:
    """Every message of `lang`, keyed by its full dotted key."""
    out: dict[str, str] = {}
    for path in sorted((LOCALES_DIR / lang).glob("*.toml")):
        with path.open("rb") as fh:
            _flatten(path.stem, tomllib.load(fh), out)
    return out


def normalize_locale(locale: object | None) -> str | None:
    """Map a Discord locale (`discord.Locale`, "it", "en-US", ...) to "it"/"en", else None."""
    if locale is None:
        return None
    value = str(getattr(locale, "value", locale)).lower()
    lang = value.split("-")[0].split("_")[0]
    return lang if lang in SUPPORTED else None


def pick_language(*candidates: object | None) -> str:
    """The first supported language among the candidates (user locale, server locale...)."""
    for candidate in candidates:
        lang = normalize_locale(candidate)
        if lang is not None:
            return lang
    return DEFAULT


def has(key: str, lang: str = DEFAULT) -> bool:
    """Whether `key` exists in the catalogue of `lang`."""
    return key in catalogue(lang)


def t(
    key: str, lang: str | None = DEFAULT, /, *, currency: Currency | None = None, **params: Any
) -> str:
    """The message `key` in `lang` (falling back to English), formatted with `params`;
    `{n:chips}` amounts are written in `currency` (None: the bot's own words), and every
    int the one way numbers are written in `lang` (`bot.i18n.numbers`)."""
    lang = normalize_locale(lang) or DEFAULT
    text = catalogue(lang).get(key)
    if text is None:
        lang, text = DEFAULT, catalogue(DEFAULT).get(key)
    if text is None:
        raise KeyError(f"no message {key!r} in the catalogues")
    if not params:
        return text
    params = format_params(params, lang)
    if "|" not in text and f":{CHIPS_SPEC}}}" not in text and f":{TO_SPEC}}}" not in text:
        # no spec of ours: the plain (faster) str.format
        return text.format(**params)
    return _CatalogueFormatter(lang, currency).format(text, **params)


def counted(n: int, one: str, other: str) -> str:
    """`n` and its noun in English, for the operators' logs: "1 server", "3 servers" (what a
    player reads goes through the catalogues instead)."""
    return f"{n} {one if plural_form(DEFAULT, n) == 'one' else other}"


def plural_words(text: str) -> dict[str, list[tuple[str, str]]]:
    """The plural forms of a catalogue text, by count placeholder: {"n": [("card", "cards")]}.

    An amount of chips (`{n:chips}`) agrees with `n` in the currency's words, listed as
    ("chips", "chips")."""
    out: dict[str, list[tuple[str, str]]] = {}
    for _, name, spec, _ in string.Formatter().parse(text):
        if name and spec == CHIPS_SPEC:
            out.setdefault(name, []).append((CHIPS_SPEC, CHIPS_SPEC))
        elif name and spec and "|" in spec:
            one, other = spec.split("|", 1)
            out.setdefault(name, []).append((one, other))
    return out


def placeholders(text: str) -> set[str]:
    """The names of the `{placeholders}` in a catalogue text."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}
