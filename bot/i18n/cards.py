"""Card, suit and rank names in both languages, from the card notation (`7d`, `1s`, `10c`).

Notation: rank number 1-10 then suit letter: c = Coppe (cups), d = Denari (coins),
s = Spade (swords), b = Bastoni (clubs). 1 Asso, 8 Fante, 9 Cavallo, 10 Re.
The names live in the `cards` catalogue; this module only parses and assembles.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from bot.i18n import t

SUITS: tuple[str, ...] = ("c", "d", "s", "b")
RANKS: tuple[int, ...] = tuple(range(1, 11))


def parse_code(code: str) -> tuple[int, str]:
    """Split a card code into (rank, suit letter); raise ValueError if it is not a card."""
    text = str(code).strip().lower()
    rank_text, suit = text[:-1], text[-1:]
    if suit not in SUITS or not rank_text.isdigit() or not 1 <= int(rank_text) <= 10:
        raise ValueError(f"not a card code: {code!r}")
    if rank_text != str(int(rank_text)):
        raise ValueError(f"not a card code: {code!r}")
    return int(rank_text), suit


def suit_name(letter: str, lang: str) -> str:
    """The suit's name: "Coppe" (it) or "Cups" (en) for "c"."""
    if letter not in SUITS:
        raise ValueError(f"not a suit letter: {letter!r}")
    return t(f"cards.suit.{letter}", lang)


def rank_name(rank: int, lang: str) -> str:
    """The rank's name: "Asso"/"Ace" for 1, "Cavallo"/"Knight" for 9."""
    if rank not in RANKS:
        raise ValueError(f"not a rank: {rank!r}")
    return t(f"cards.rank.r{rank}", lang)


def card_name(code: str, lang: str) -> str:
    """The card's full name: "Asso di Coppe" (it) or "Ace of Cups" (en) for "1c"."""
    rank, suit = parse_code(code)
    return t("cards.card", lang, rank=rank_name(rank, lang), suit=suit_name(suit, lang))


def card_in_sentence(code: str, lang: str) -> str:
    """The card's name as a sentence says it: with its article in Italian ("l'Asso di Coppe",
    "il Re di Spade"), as it is in English ("Ace of Cups")."""
    rank, _ = parse_code(code)
    return t(f"cards.in_sentence.r{rank}", lang, card=card_name(code, lang))


def _named(codes: Iterable[str], lang: str, name: Callable[[str, str], str]) -> list[str]:
    """Each card's `name` followed by its code: "Ace of Cups (1c)"."""
    parts = []
    for code in codes:
        rank, suit = parse_code(code)
        parts.append(f"{name(code, lang)} ({rank}{suit})")
    return parts


def cards_in_sentence(codes: Iterable[str], lang: str) -> str:
    """Several cards as a sentence lists them, with their codes and "and" before the last:
    "l'Asso di Coppe (1c), il Sei di Coppe (6c) e il Sette di Denari (7d)"."""
    parts = _named(codes, lang, card_in_sentence)
    if len(parts) < 2:
        return parts[0] if parts else t("cards.none", lang)
    return t("cards.separator", lang).join(parts[:-1]) + t("cards.last_separator", lang) + parts[-1]


def cards_text(codes: Iterable[str], lang: str) -> str:
    """Several cards as readable text, with their codes: "Ace of Cups (1c), Seven of Coins (7d)"."""
    parts = _named(codes, lang, card_name)
    return t("cards.separator", lang).join(parts) if parts else t("cards.none", lang)
