"""The one way a number is written for people, per language (issue 25).

English groups thousands with a comma (1,010), Italian with a full stop (1.010), both from four
digits on. Every image, caption, embed and message writes its numbers through `format_number`:
`t()` does it for every int it is given, except identifiers a player may type back or compare
(a hand's, table's or tournament's number, a page, a seed, a version: `IDENTIFIERS`; `number`
names an id almost everywhere, and a small point's 1-3 elsewhere), which stay plain digits:
"`/verify table:1234`" is typed into an integer option, "table 1234" is compared with the
table message, "page 12 of 1200" with `/history page:12` (tests/test_numbers.py sweeps the
catalogues for every number written where it names something).
"""

from __future__ import annotations

#: the thousands separator of each language (the bot's two)
GROUPING: dict[str, str] = {"en": ",", "it": "."}
#: placeholders that hold an identifier, not a quantity: written as plain digits
IDENTIFIERS: frozenset[str] = frozenset({
    "id", "table_id", "hand_no", "hand", "seed", "user", "guild", "ref", "version", "latest",
    "season", "channel", "thread", "port", "pid", "number", "table", "page", "pages",
})


def format_number(value: int, lang: str, *, sign: bool = False) -> str:
    """`value` with the thousands separator of `lang` ("1,010", "1.010"); `sign` writes a plus
    before a positive number ("+1,010", as a change of chips is written)."""
    number = int(value)
    text = f"{abs(number):,}".replace(",", GROUPING.get(lang, GROUPING["en"]))
    if number < 0:
        return f"-{text}"
    return f"+{text}" if sign and number > 0 else text


def format_params(params: dict[str, object], lang: str) -> dict[str, object]:
    """`params` of a catalogue message with every quantity (an int that is not a bool and not
    an identifier) written by `format_number`."""
    return {
        name: format_number(value, lang)
        if isinstance(value, int) and not isinstance(value, bool) and name not in IDENTIFIERS
        else value
        for name, value in params.items()
    }
