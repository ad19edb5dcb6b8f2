"""Players' words: what a member types for `/fair word`, as it is kept and as it is shown.

A word is the player's own contribution to every deck dealt to them (docs/fairness.md): the
bot never picks one for anyone. It is kept as typed, in Unicode NFC, without the spaces
around it; control and invisible formatting characters are refused, so what is shown is what
is hashed. Shown publicly only through ``public_word``: plain text, no mention, no markdown.
"""

from __future__ import annotations

import string
import unicodedata

#: the longest word, in characters (Unicode code points after NFC)
WORD_MAX = 40
#: Unicode categories refused in a word: controls, invisible formatting (bidi overrides,
#: zero-width characters), surrogates, private use, unassigned, line and paragraph separators
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
#: ASCII punctuation that Discord's markdown may read; each is shown escaped with a backslash
_MARKDOWN = frozenset(string.punctuation) - {"@"}
#: zero-width space: put after "@" so that no "@everyone", "@here" or "<@id>" can ping
_ZWSP = "\u200b"


class WordError(ValueError):
    """Why a word was refused: ``reason`` is ``too_long`` or ``control`` (a catalogue key of
    ``fairness.word``), with the limit or the offending character's code point."""

    def __init__(self, reason: str, *, limit: int = WORD_MAX, codepoint: int = 0) -> None:
        self.reason = reason
        self.limit = limit
        self.codepoint = codepoint
        if reason == "too_long":
            super().__init__(f"a word has at most {limit} characters")
        else:
            super().__init__(f"a word cannot hold the control character U+{codepoint:04X}")


def normalise_word(raw: str) -> str:
    """The word ``raw`` as kept: NFC, spaces around removed; ``""`` means "no word".

    WordError when it is longer than ``WORD_MAX`` characters or holds a refused character.
    """
    word = unicodedata.normalize("NFC", raw).strip()
    for char in word:
        if unicodedata.category(char) in REFUSED_CATEGORIES:
            raise WordError("control", codepoint=ord(char))
    if len(word) > WORD_MAX:
        raise WordError("too_long")
    return word


def public_word(word: str) -> str:
    """``word`` ready to be put in a Discord message as plain text: every ASCII punctuation
    mark escaped with a backslash (no bold, links, headings, code, spoilers, custom emoji)
    and a zero-width space after each "@" (no mention). Send it with no allowed mentions too.
    """
    out: list[str] = []
    for char in word:
        if char in _MARKDOWN:
            out.append("\\" + char)
        elif char == "@":
            out.append("@" + _ZWSP)
        else:
            out.append(char)
    return "".join(out)
