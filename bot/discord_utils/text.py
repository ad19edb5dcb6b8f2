"""Free text from Discord (a reason, a name, a word, typed cards), checked in one place.

A string option is data sent by a client: a modified one can send any character, and the two
databases do not agree on all of them. PostgreSQL's `text` cannot hold NUL (0x00), which
SQLite stores; a lone surrogate (JSON "\\ud800") cannot be encoded as UTF-8 for either. So a
free-text option that holds a control character (Unicode category Cc: NUL, a line break, an
escape, a bell) or a surrogate (Cs) is refused, politely and before anything is done
(`input.control_character`); nothing a member means is lost: an honest client sends none of
them in an option, and every other character (accents, any script, emoji with their zero-width
joiners and variation selectors) is kept as typed.

`StoppaTree.interaction_check` calls `checked_text` on every string option of a command (and
gives an autocomplete with such text no suggestions).
"""

from __future__ import annotations

import unicodedata

from bot.discord_utils.errors import UserFacingError

#: The Unicode categories a free text may not hold: control characters and surrogates.
REFUSED_CATEGORIES = frozenset({"Cc", "Cs"})


def unusable(text: str) -> bool:
    """Whether `text` holds a character no free text may hold (see the module)."""
    return not text.isprintable() and any(
        unicodedata.category(c) in REFUSED_CATEGORIES for c in text
    )


def checked_text(text: str) -> str:
    """`text` when it may be stored and shown; else a polite refusal."""
    if unusable(text):
        raise UserFacingError("input.control_character")
    return text
