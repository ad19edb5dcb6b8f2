"""What a hostile or careless client may send: numbers at and past every bound, digits that
are not ASCII, mentions and markdown in every string."""

from __future__ import annotations

from typing import Any

from discord import AppCommandOptionType as OptionType
from discord import app_commands
from hypothesis import strategies as st

INT64 = 2**63
NUMBER_TEXTS: tuple[str, ...] = (
    "0", "1", "2", "3", "-1", "007", str(INT64 - 1), str(INT64), str(-INT64), "9" * 20,
    "9" * 100,
)
NOT_ASCII_DIGITS: tuple[str, ...] = ("²", "①", "٣", "5²", "１２", "٣٠", "½")
HOSTILE_TEXTS: tuple[str, ...] = (
    "", " ", "@everyone", "@here", "<@1>", "<@!1>", "<@&1>", "<#1>", "**bold**", "`code`",
    "```block```", "||spoiler||", "# title", "> quote", "[link](https://example.com)",
    "\u200b", "\n", "a" * 6000, "5c", "1d 1s", "10b 10c", "#1", "#" + "9" * 20, "concede",
    "declare 7d 6d", "play 5c", *NUMBER_TEXTS, *NOT_ASCII_DIGITS,
)
HOSTILE_INTS: tuple[int, ...] = (0, 1, -1, 2, INT64 - 1, INT64, -INT64, 10**20, 10**99)


def texts(extra: tuple[Any, ...] = ()) -> st.SearchStrategy[str]:
    """A string option or typed text."""
    pool = HOSTILE_TEXTS + tuple(str(e) for e in extra)
    return st.one_of(st.sampled_from(pool), st.text(max_size=40))


def number_texts(extra: tuple[int, ...] = ()) -> st.SearchStrategy[str]:
    """The number part of a custom id (digits or not)."""
    return st.one_of(
        st.sampled_from(NUMBER_TEXTS + NOT_ASCII_DIGITS + tuple(str(e) for e in extra)),
        st.integers(0, 12).map(str),
        st.integers(0, 2**70).map(str),
    )


def option_value(parameter: app_commands.Parameter, members: list[Any]
                 ) -> st.SearchStrategy[Any]:
    """A value for one option of a slash command."""
    choices = tuple(c.value for c in parameter.choices)
    kind = parameter.type
    if kind is OptionType.integer:
        bounds = tuple(b + d for b in (parameter.min_value, parameter.max_value)
                       if b is not None for d in (-1, 0, 1))
        return st.one_of(st.sampled_from(HOSTILE_INTS + tuple(int(b) for b in bounds)
                                         + tuple(int(c) for c in choices)),
                         st.integers(-(2**64), 2**64))
    if kind is OptionType.number:
        return st.one_of(st.sampled_from((0.0, -1.0, 0.001, 1e308, -1e308)),
                         st.floats(allow_nan=False, allow_infinity=False))
    if kind is OptionType.boolean:
        return st.booleans()
    if kind in (OptionType.user, OptionType.mentionable):
        return st.sampled_from(members)
    return texts(choices)
