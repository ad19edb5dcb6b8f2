"""A second implementation of the fair deal, written from docs/fairness.md alone.

It imports nothing of the bot: only hashlib, hmac and unicodedata, as the page promises a
reimplementation needs. The tests compare it with bot/fairness on many inputs.
"""

from __future__ import annotations

import hashlib
import hmac
import unicodedata

SUITS = "cdsb"
INDEX_ORDER = [f"{rank}{suit}" for suit in SUITS for rank in range(1, 11)]


def _u32(n: int) -> bytes:
    return n.to_bytes(4, "big")


def _u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


def _blob(b: bytes) -> bytes:
    return _u32(len(b)) + b


def _text(s: str) -> bytes:
    return _blob(unicodedata.normalize("NFC", s).encode("utf-8"))


def commitment(secret: bytes, table: int) -> str:
    """The commitment's hex digits."""
    message = _text("stoppa-fair-v1/commitment") + _blob(secret) + _u64(table)
    return hashlib.sha256(message).hexdigest()


class _Draws:
    """The stream of HMAC(key, u64(0)) || HMAC(key, u64(1)) || ..., read as 4-byte numbers."""

    def __init__(self, key: bytes) -> None:
        self.key = key
        self.counter = 0
        self.pending = bytearray()

    def number(self) -> int:
        while len(self.pending) < 4:
            self.pending += hmac.new(self.key, _u64(self.counter), hashlib.sha256).digest()
            self.counter += 1
        x = int.from_bytes(self.pending[:4], "big")
        del self.pending[:4]
        return x

    def below(self, n: int) -> int:
        limit = 2**32 - (2**32 % n)
        while True:
            x = self.number()
            if x < limit:
                return x % n


def hand_key(secret: bytes, table: int, k: int, words: list[str]) -> bytes:
    """HMAC(secret, text(label) || u64(table) || u64(k) || u32(#words) || text(word)...)."""
    kept = [w for w in words if w]
    message = _text("stoppa-fair-v1/deck") + _u64(table) + _u64(k) + _u32(len(kept))
    for word in kept:
        message += _text(word)
    return hmac.new(secret, message, hashlib.sha256).digest()


def full_deck(secret: bytes, table: int, k: int, words: list[str]) -> list[str]:
    """The 40 cards of hand k in shuffled order (card codes)."""
    draws = _Draws(hand_key(secret, table, k, words))
    cards = list(INDEX_ORDER)
    for i in range(39, 0, -1):
        j = draws.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def first_dealer(secret: bytes, players: int) -> int:
    """0-based index, in seat order, of the first dealer among ``players``."""
    message = _text("stoppa-fair-v1/first-dealer")
    key = hmac.new(secret, message, hashlib.sha256).digest()
    return _Draws(key).below(players)
