"""Message catalogues (English and Italian) and the `t()` lookup.

Catalogues are TOML files in `bot/i18n/locales/<lang>/<area>.toml`. A key is the file's stem
followed by the dotted path inside the file: `cli.no_token` is `no_token` in `cli.toml`.
Placeholders use `str.format` syntax (`{name}`). Every key exists in both languages with the
same placeholders (tests/test_i18n.py checks it).
"""

from __future__ import annotations

import string
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

SUPPORTED: tuple[str, ...] = ("en", "it")
DEFAULT = "en"
LOCALES_DIR = Path(__file__).with_name("locales")


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


def t(key: str, lang: str | None = DEFAULT, /, **params: Any) -> str:
    """The message `key` in `lang` (falling back to English), formatted with `params`."""
    lang = normalize_locale(lang) or DEFAULT
    text = catalogue(lang).get(key)
    if text is None:
        text = catalogue(DEFAULT).get(key)
    if text is None:
        raise KeyError(f"no message {key!r} in the catalogues")
    return text.format(**params) if params else text


def placeholders(text: str) -> set[str]:
    """The names of the `{placeholders}` in a catalogue text."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}
