"""Numbers from Discord, read in one place and the same way everywhere.

Everything in an interaction is data sent by a client: a modal's text, a string option, the
numbers inside a custom id, even an integer option (Discord checks an option's `min_value` and
`max_value`, a modified client does not). Python is generous with digits: `str.isdigit()` is
true for `²` and `①` (which `int()` then refuses), `int()` reads Arabic-Indic digits, and the
regex `\\d` matches every Unicode decimal digit. A player means an ASCII number, so:

- `typed_number(text)`: the ASCII digits a player typed (spaces around allowed; thousands
  grouped as the bot writes them, "1,200" or "1.200", read as 1200), else None;
- `NUMBER`: the group of a custom id template (`(?P<table>` + NUMBER + `)`), ASCII digits;
- `custom_id_number(text)`: the number such a group matched (an int, never an exception);
- `fits_id(n)` / `checked_id(n)`: a number that can be a row id (PostgreSQL's BIGINT, SQLite's
  INTEGER: a signed 64-bit integer) and is positive; `checked_id` refuses politely
  (`input_numbers.no_such`) what is not, before any look-up reaches a database;
- `checked_range(n, low, high)`: an option's bounds, enforced in code (`StoppaTree`).
"""

from __future__ import annotations

import re

from bot.discord_utils.errors import UserFacingError

#: A number group of a custom id template: ASCII digits only (`\d` would take `٣`).
NUMBER = "[0-9]+"
#: The largest row id either database can hold (signed 64-bit).
ID_MAX = 2**63 - 1
#: Digits a typed number may have: more is not a number of chips or a hand (and `int()` of
#: thousands of digits is slow).
MAX_DIGITS = 19
#: A number grouped by thousands with one separator throughout (1,200 / 1.200 / 12,345,678).
GROUPED = re.compile(r"[0-9]{1,3}(?:,[0-9]{3})+|[0-9]{1,3}(?:\.[0-9]{3})+")
#: How much of a refused number a reply repeats.
ECHO_LIMIT = 20


def typed_number(text: str) -> int | None:
    """The whole number `text` holds in ASCII digits (spaces around it allowed), or None.

    The bot writes amounts grouped by thousands ("1,200" in English, "1.200" in Italian,
    `bot.i18n.numbers`), so a member who types one back is understood: groups of exactly three
    digits after a comma or a full stop ("1.5" and "1,20" stay unreadable)."""
    word = text.strip()
    if not word or len(word) > MAX_DIGITS or not word.isascii():
        return None
    if GROUPED.fullmatch(word):
        word = word.replace(",", "").replace(".", "")
    return int(word) if word.isdigit() else None


def custom_id_number(text: str) -> int:
    """The number a template's `NUMBER` group matched (ASCII digits, at most 100: Discord's
    custom id limit); `checked_id` bounds it before it is looked up."""
    return int(text) if text.isascii() and text.isdigit() else -1


def fits_id(value: int) -> bool:
    """Whether `value` can be the id of a row (positive, signed 64-bit)."""
    return 0 < value <= ID_MAX


def echo(value: object) -> str:
    """What a player sent, as a refusal repeats it: at most `ECHO_LIMIT` characters, as inline
    code (so a mention or markdown in it is shown, never acted on)."""
    text = str(value).replace("`", "'").replace("\n", " ")
    if len(text) > ECHO_LIMIT:
        text = text[: ECHO_LIMIT - 1] + "…"
    return f"`{text}`" if text.strip() else "`-`"


def checked_id(value: int) -> int:
    """`value` when it can be a row id; else a polite refusal ("there is no such number")."""
    if not fits_id(value):
        raise UserFacingError("input_numbers.no_such", value=echo(value))
    return value


def checked_range(value: int | float, low: int | float | None, high: int | float | None) -> None:
    """Refuse politely a number outside an option's bounds (`None`: no bound that side)."""
    if (low is not None and value < low) or (high is not None and value > high):
        if low is not None and high is not None:
            raise UserFacingError("input_numbers.out_of_range", value=echo(value),
                                  low=low, high=high)
        if low is not None:
            raise UserFacingError("input_numbers.too_small", value=echo(value), low=low)
        raise UserFacingError("input_numbers.too_large", value=echo(value), high=high)
