"""The deck of each hand and the first dealer, from the table secret (docs/fairness.md).

hand key  = HMAC-SHA256(secret, text(DECK_LABEL) || u64(table id) || u64(hand number)
                                || u32(number of words) || text(word) for each word)
stream    = HMAC-SHA256(key, u64(0)) || HMAC-SHA256(key, u64(1)) || ...
below(n)  = the next 4 stream bytes as a big-endian number x, drawn again while
            x >= 2**32 - 2**32 % n; then x % n            (unbiased: rejection sampling)
the deck  = Fisher-Yates over the 40 cards in index order: for i = 39 .. 1, swap the cards
            at i and below(i + 1); then the cards the table does not use are left out.

Only SHA-256, HMAC and integer arithmetic: anyone can recompute a deck with `hashlib` and
`hmac`, and Python's `random` is never used. The engine receives the result through
``Hand.start(deck=...)``, so the rules never see where a deck came from.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from hashlib import sha256

from bot.engine.cards import ALL_CARDS, Card
from bot.fairness.encoding import DECK_LABEL, FIRST_DEALER_LABEL, text, u32, u64
from bot.fairness.secret import TableSecret

_BLOCK = 32  # bytes of one HMAC-SHA256 block of the stream
_SPAN = 2**32  # 4-byte draws
_FULL = len(ALL_CARDS)
#: blocks a 40-card shuffle needs when no draw is refused (39 draws of 4 bytes)
_SHUFFLE_BLOCKS = ((_FULL - 1) * 4 + _BLOCK - 1) // _BLOCK


class Stream:
    """The counter-mode byte stream of a key, read as 4-byte draws (``below``)."""

    __slots__ = ("_buffer", "_counter", "_key", "_pos")

    def __init__(self, key: bytes, blocks: int = 1) -> None:
        self._key = key
        self._counter = 0
        self._buffer = b""
        self._pos = 0
        self._extend(blocks)

    def _extend(self, blocks: int) -> None:
        key, start = self._key, self._counter
        more = b"".join(hmac.digest(key, u64(j), sha256) for j in range(start, start + blocks))
        self._buffer = self._buffer[self._pos :] + more
        self._pos = 0
        self._counter = start + blocks

    def next_u32(self) -> int:
        """The next 4 bytes of the stream as a big-endian number."""
        if self._pos + 4 > len(self._buffer):
            self._extend(1)
        pos = self._pos
        self._pos = pos + 4
        return int.from_bytes(self._buffer[pos : pos + 4], "big")

    def below(self, n: int) -> int:
        """A uniform whole number in ``0 .. n - 1`` (1 <= n <= 2**32)."""
        limit = _SPAN - _SPAN % n
        x = self.next_u32()
        while x >= limit:
            x = self.next_u32()
        return x % n


def _spoken(words: Iterable[str]) -> tuple[str, ...]:
    """The words that were set: a seat without a word adds nothing."""
    return tuple(w for w in words if w)


@dataclass(frozen=True, slots=True)
class DealInputs:
    """What decides the deck of hand ``hand_no`` of table ``table_id``.

    ``words`` are the words of the seats dealt in, in seat order, as recorded with the hand;
    seats without a word (silent players, CPU players) are simply absent: empty words are
    dropped on construction, so ``("", "ciao")`` and ``("ciao",)`` are the same inputs.
    """

    secret: TableSecret
    table_id: int
    hand_no: int
    words: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "words", _spoken(self.words))
        if not 0 <= self.table_id < 2**64 or not 0 <= self.hand_no < 2**64:
            raise ValueError("the table id and the hand number are whole numbers from 0")

    def message(self) -> bytes:
        """The HMAC message of the hand key (the byte layout of docs/fairness.md)."""
        parts = [text(DECK_LABEL), u64(self.table_id), u64(self.hand_no), u32(len(self.words))]
        parts.extend(text(w) for w in self.words)
        return b"".join(parts)

    def key(self) -> bytes:
        """The hand key: HMAC-SHA256 of ``message()`` under the table secret."""
        return hmac.digest(self.secret.value, self.message(), sha256)

    def full_deck(self) -> list[Card]:
        """All 40 cards in this hand's shuffled order (before unused cards are left out)."""
        stream = Stream(self.key(), _SHUFFLE_BLOCKS)
        cards = list(ALL_CARDS)
        below = stream.below
        for i in range(_FULL - 1, 0, -1):
            j = below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        return cards

    def deck(self, used: Sequence[Card] | int) -> list[Card]:
        """The deck for ``Hand.start(deck=...)``: ``full_deck()`` without the cards the table
        does not use; ``used`` is ``rules.deck()`` or ``rules.deck_mask()``."""
        mask = used if isinstance(used, int) else sum(c.bit for c in set(used))
        return [c for c in self.full_deck() if mask & c.bit]


def first_dealer(secret: TableSecret, players: int) -> int:
    """The first dealer of a table: an index ``0 .. players - 1`` into the players dealt
    into its first hand, in seat order (``below(players)`` of the first-dealer stream).

    It needs the secret alone, not the table id, so that a tournament can draw its first
    dealer before the transaction that creates its table (and gives it an id) is written.
    """
    if players < 1:
        raise ValueError("a dealer is drawn among at least one player")
    message = text(FIRST_DEALER_LABEL)
    return Stream(hmac.digest(secret.value, message, sha256)).below(players)
