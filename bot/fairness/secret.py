"""The table secret, its commitment, and the CPU players' own seeds.

A table draws its secret once, when it opens, from the operating system's secure generator;
the commitment (a SHA-256 digest) is published at once, the secret only when the table
closes. ``TableSecret`` never prints its value (``repr``/``str`` are masked), so a secret
that reaches a log line or an f-string by mistake shows nothing.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import string
from dataclasses import dataclass, field

from bot.fairness.encoding import COMMITMENT_LABEL, blob, text, u64

#: bytes in a table secret (256 bits; the protocol needs at least 128)
SECRET_BYTES = 32
#: bytes in a commitment (a SHA-256 digest)
COMMITMENT_BYTES = 32
#: a CPU player's seed is a whole number below this (the CPU players' seed range)
CPU_SEED_LIMIT = 2**63


def _from_hex(value: str, size: int, what: str) -> bytes:
    """``size`` bytes written as ``2 * size`` hex digits (spaces around ignored); ValueError
    naming ``what`` otherwise."""
    cleaned = value.strip().lower()
    if len(cleaned) != 2 * size or any(c not in string.hexdigits for c in cleaned):
        raise ValueError(f"a {what} is {2 * size} hexadecimal digits (0-9, a-f)")
    return bytes.fromhex(cleaned)


@dataclass(frozen=True, slots=True)
class TableSecret:
    """The 32 secret bytes of one table. Shown only by ``hex()``, at the table's close."""

    value: bytes = field(repr=False)

    def __post_init__(self) -> None:
        if len(self.value) != SECRET_BYTES:
            raise ValueError(f"a table secret is {SECRET_BYTES} bytes, not {len(self.value)}")

    @staticmethod
    def draw() -> TableSecret:
        """A new secret from the operating system's secure generator (`secrets`)."""
        return TableSecret(secrets.token_bytes(SECRET_BYTES))

    @staticmethod
    def from_hex(value: str) -> TableSecret:
        """The secret written as 64 hex digits (as revealed, or as stored)."""
        return TableSecret(_from_hex(value, SECRET_BYTES, "table secret"))

    def hex(self) -> str:
        """The 64 lowercase hex digits: for the store and for the reveal, nowhere else."""
        return self.value.hex()

    def __str__(self) -> str:
        return "TableSecret(hidden)"


@dataclass(frozen=True, slots=True)
class Commitment:
    """SHA-256 over the secret and the table id: public from the table's opening."""

    digest: bytes

    def __post_init__(self) -> None:
        if len(self.digest) != COMMITMENT_BYTES:
            raise ValueError(f"a commitment is {COMMITMENT_BYTES} bytes, not {len(self.digest)}")

    @staticmethod
    def of(secret: TableSecret, table_id: int) -> Commitment:
        """``SHA-256(text(COMMITMENT_LABEL) || blob(secret) || u64(table_id))``."""
        message = text(COMMITMENT_LABEL) + blob(secret.value) + u64(table_id)
        return Commitment(hashlib.sha256(message).digest())

    @staticmethod
    def from_hex(value: str) -> Commitment:
        """The commitment written as 64 hex digits (as shown on the table message)."""
        return Commitment(_from_hex(value, COMMITMENT_BYTES, "commitment"))

    def hex(self) -> str:
        """The 64 lowercase hex digits shown to players."""
        return self.digest.hex()

    def matches(self, secret: TableSecret, table_id: int) -> bool:
        """Whether ``secret`` and ``table_id`` are what this commitment was made from."""
        return hmac.compare_digest(self.digest, Commitment.of(secret, table_id).digest)

    def __str__(self) -> str:
        return self.hex()


def cpu_seed() -> int:
    """A CPU player's seed, drawn from `secrets` alone: independent of every table secret,
    so a CPU player can never hold its table's future decks."""
    return secrets.randbelow(CPU_SEED_LIMIT)
