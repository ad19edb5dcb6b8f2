"""The exact byte encodings of the fair-deal protocol (docs/fairness.md, "Encodings").

Every hashed message is a concatenation of these fields, so a reimplementation needs nothing
but big-endian integers, UTF-8 and Unicode NFC: no field can run into the next one.
"""

from __future__ import annotations

import unicodedata

#: the protocol's version, the first word of every domain label
VERSION = "stoppa-fair-v1"
COMMITMENT_LABEL = f"{VERSION}/commitment"
DECK_LABEL = f"{VERSION}/deck"
FIRST_DEALER_LABEL = f"{VERSION}/first-dealer"


def u32(n: int) -> bytes:
    """``n`` (0 <= n < 2**32) as 4 bytes, big-endian."""
    return n.to_bytes(4, "big")


def u64(n: int) -> bytes:
    """``n`` (0 <= n < 2**64) as 8 bytes, big-endian; OverflowError outside that range."""
    return n.to_bytes(8, "big")


def blob(data: bytes) -> bytes:
    """``data`` prefixed by its length: ``u32(len(data)) || data``."""
    return u32(len(data)) + data


def text(s: str) -> bytes:
    """``s`` in Unicode NFC, as UTF-8, prefixed by its length in bytes."""
    return blob(unicodedata.normalize("NFC", s).encode("utf-8"))
