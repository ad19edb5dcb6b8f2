"""Cards of the 40-card Italian deck (R-1) and the deck used per table (R-2).

A card is written rank number then suit letter: ``7d`` (seven of Denari), ``1s`` (ace of
Spade), ``10c`` (king of Coppe). Suits: c=Coppe, d=Denari, s=Spade, b=Bastoni. Cards are
interned: ``Card.parse`` and ``card_of`` always return the same object for the same card, so
identity, equality and hashing are all cheap. Cards order by (rank, suit) with suits in the
order c d s b.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

SUITS = "cdsb"
SUIT_NAMES = {"c": "Coppe", "d": "Denari", "s": "Spade", "b": "Bastoni"}
SUIT_NAMES_EN = {"c": "Cups", "d": "Coins", "s": "Swords", "b": "Clubs"}
RANK_NAMES = {1: "Asso", 8: "Fante", 9: "Cavallo", 10: "Re"}
RANK_NAMES_EN = {1: "Ace", 8: "Jack", 9: "Knight", 10: "King"}
FIGURES = (8, 9, 10)
#: primiera value by rank (index 0 unused): 7->21, 6->18, 1->16, 5->15, 4->14, 3->13, 2->12
PRIMIERA = (0, 16, 12, 13, 14, 15, 18, 21, 10, 10, 10)


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card: ``rank`` 1..10, ``suit`` in ``c d s b``, ``index`` 0..39, ``code`` "7d",
    ``bit`` ``1 << index``.

    Build cards with ``Card.parse`` or ``card_of`` (interned), not the constructor.
    """

    order: int = field(repr=False)
    index: int = field(compare=False, repr=False)
    rank: int = field(compare=False)
    suit: str = field(compare=False)
    code: str = field(compare=False, repr=False)
    #: ``1 << index``: the card's bit in a 40-bit mask of cards
    bit: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "bit", 1 << self.index)

    @staticmethod
    def parse(text: str) -> Card:
        """The card written ``text`` (``"7d"``, ``"10c"``); ValueError if it is not a card."""
        t = text.strip().lower()
        if len(t) < 2 or t[-1] not in SUITS or not (t[:-1].isascii() and t[:-1].isdigit()):
            raise ValueError(f"not a card: {text!r} (write rank then suit, e.g. 7d, 10c)")
        rank = int(t[:-1])
        if not 1 <= rank <= 10:
            raise ValueError(f"not a card: {text!r} (ranks are 1..10)")
        return _CARDS[SUITS.index(t[-1]) * 10 + rank - 1]

    @property
    def primiera(self) -> int:
        """Primiera value (R-1), used for points."""
        return PRIMIERA[self.rank]

    @property
    def suit_index(self) -> int:
        """0..3 for c d s b."""
        return self.index // 10

    def name(self, lang: str = "it") -> str:
        """Full name: "Asso di Coppe" (it) or "Ace of Cups" (en)."""
        if lang == "en":
            return f"{RANK_NAMES_EN.get(self.rank, str(self.rank))} of {SUIT_NAMES_EN[self.suit]}"
        return f"{RANK_NAMES.get(self.rank, str(self.rank))} di {SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.rank}{self.suit})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (card_of, (self.index,))


_CARDS: tuple[Card, ...] = tuple(
    Card((r - 1) * 4 + s, s * 10 + r - 1, r, SUITS[s], f"{r}{SUITS[s]}")
    for s in range(4)
    for r in range(1, 11)
)
#: every card of the full deck, in index order (1c..10c, 1d..10d, 1s..10s, 1b..10b)
ALL_CARDS = _CARDS
#: ``RANK_BITS[r]``: the mask of the four cards of rank ``r`` (index 0 unused)
RANK_BITS: tuple[int, ...] = tuple(
    sum(c.bit for c in _CARDS if c.rank == r) for r in range(11)
)


def mask_of(cards: Iterable[Card]) -> int:
    """The 40-bit mask of ``cards`` (the sum of their ``bit``)."""
    mask = 0
    for c in cards:
        mask |= c.bit
    return mask


def card_of(index: int) -> Card:
    """The card with this index (0..39)."""
    return _CARDS[index]


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Cards from ``"7d 6d 1d"`` (spaces or commas) or an iterable of card texts."""
    if isinstance(text, str):
        text = text.replace(",", " ").split()
    return [Card.parse(t) for t in text]


def cards_text(cards: Iterable[Card]) -> str:
    """``"7d 6d 1d"``."""
    return " ".join(map(str, cards))


#: the rank that 6 players remove (R-2), by the ``six_players`` variant
SIX_PLAYERS_REMOVED = {"kings": 10, "knights": 9, "jacks": 8}


def build_deck(
    players: int, three_players: str = "king", removed_suit: str = "b", six_players: str = "kings"
) -> list[Card]:
    """The cards used by a table of ``players`` (R-2), in index order (not shuffled).

    3 players: 39 cards (the king of ``removed_suit`` removed) or, with
    ``three_players="suit"``, 30 cards (the whole suit removed); 4 and 5 players: 40;
    6 players: 36 (the four kings removed, or the knights or jacks by ``six_players``).
    """
    if players == 3:
        if three_players == "suit":
            return [c for c in _CARDS if c.suit != removed_suit]
        return [c for c in _CARDS if not (c.rank == 10 and c.suit == removed_suit)]
    if players == 6:
        removed = SIX_PLAYERS_REMOVED[six_players]
        return [c for c in _CARDS if c.rank != removed]
    if players in (4, 5):
        return list(_CARDS)
    raise ValueError(f"Stoppa needs 3 to 6 players, not {players}")
