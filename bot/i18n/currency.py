"""A server's currency: the word (and emoji) its chips are called by (issue 20).

Catalogue messages write an amount of chips as `{amount:chips}`; `t(..., currency=...)` then
writes the number with the server's currency ("120 coins", "🪙 1 gold"), and without a
currency with the bot's own words ("120 chips", "120 fiche"), so a caller that does not know
the server's currency keeps today's text. A manager names a currency with one word for every
count ("gold") or a singular and a plural separated by a slash ("coin/coins").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.i18n.numbers import format_number

#: separates the singular and the plural of a currency name ("coin/coins")
PLURAL_SEPARATOR = "/"


def count_of(value: Any) -> int | None:
    """The number a word agrees with: an int, or digits written with separators ("1.000",
    "+30"); None for anything else (a bool, None, a word), which takes the plural."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else None
    text = str(value).strip()
    digits = "".join(ch for ch in text if ch.isdigit())
    if not digits or any(ch.isalpha() for ch in text):
        return None
    return -int(digits) if text.startswith("-") else int(digits)


@dataclass(frozen=True, slots=True)
class Currency:
    """The name and emoji of a server's chips; both None: the bot's own words."""

    name: str | None = None
    emoji: str | None = None

    @property
    def is_default(self) -> bool:
        """Whether the server keeps the bot's own words and no emoji."""
        return self.name is None and self.emoji is None

    def word(self, count: int | None, lang: str) -> str:
        """The name for `count` chips ("coin" or "coins"; the bot's words without a name)."""
        from bot.i18n import plural_form, t

        if self.name is None:
            return t("currency.unit", lang, count=count if count is not None else "")
        one, sep, other = self.name.partition(PLURAL_SEPARATOR)
        if not sep or not one.strip() or not other.strip():
            return self.name
        singular = count is not None and plural_form(lang, count) == "one"
        return one.strip() if singular else other.strip()

    def amount(self, value: Any, lang: str) -> str:
        """`value` chips written out: "120 chips", "🪙 1,200 coins" (an int is written by
        `format_number`; `value` may be formatted already, "1,000" or "+30")."""
        word = self.word(count_of(value), lang)
        if isinstance(value, int) and not isinstance(value, bool):
            value = format_number(value, lang)
        text = f"{value} {word}"
        return f"{self.emoji} {text}" if self.emoji else text

    def label(self, lang: str, *, emoji: bool = True) -> str:
        """What the chips are called, in a heading ("chips", "🪙 coins"); `emoji=False` for
        an image, whose fonts have no emoji."""
        word = self.word(None, lang)
        return f"{self.emoji} {word}" if emoji and self.emoji else word
