"""Provably fair tables (issue 30): commit to a table secret, derive every deck from it.

Pure and synchronous, standard library only (hashlib, hmac, secrets, unicodedata): the table
service draws a ``TableSecret`` when a table opens and shows its ``Commitment``; each hand's
deck is ``DealInputs(...).deck(rules.deck())`` handed to ``Hand.start(deck=...)``; the first
dealer is ``first_dealer``; at the close the secret is revealed and ``verify_table`` checks the
commitment and every stored hand (``verify_hand`` one hand).
The protocol, byte for byte: docs/fairness.md.
"""

from bot.fairness.deck import DealInputs, Stream, first_dealer
from bot.fairness.encoding import VERSION
from bot.fairness.secret import Commitment, TableSecret, cpu_seed
from bot.fairness.verification import (
    CardCheck,
    HandToCheck,
    TableVerification,
    Verification,
    verify_hand,
    verify_table,
)
from bot.fairness.words import WORD_MAX, WordError, normalise_word, public_word

__all__ = [
    "VERSION",
    "WORD_MAX",
    "CardCheck",
    "Commitment",
    "DealInputs",
    "HandToCheck",
    "Stream",
    "TableSecret",
    "TableVerification",
    "Verification",
    "WordError",
    "cpu_seed",
    "first_dealer",
    "normalise_word",
    "public_word",
    "verify_hand",
    "verify_table",
]
