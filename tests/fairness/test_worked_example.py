"""The worked example of docs/fairness.md is what the code computes, and its command prints
exactly what the page shows (run as a subprocess, as a reader would)."""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from bot.fairness import Commitment, DealInputs, TableSecret, first_dealer
from bot.fairness.encoding import COMMITMENT_LABEL, FIRST_DEALER_LABEL, blob, text, u64

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "fairness.md").read_text(encoding="utf-8")
EXAMPLE = DOC[DOC.index("## Worked example") :]
TABLE, HAND, WORDS = 42, 1, ("ciao", "Zoë")


def _values() -> dict[str, str]:
    block = re.search(r"```text\n(.*?)```", EXAMPLE, re.S)
    assert block is not None
    values: dict[str, str] = {}
    name = ""
    for line in block.group(1).splitlines():
        if "=" in line[:20]:
            name, value = (part.strip() for part in line.split("=", 1))
            values[name] = value
        else:
            values[name] += "\n" + line.strip()
    return values


VALUES = _values()
SECRET = TableSecret.from_hex(VALUES["secret"])
INPUTS = DealInputs(SECRET, TABLE, HAND, WORDS)


def test_the_example_uses_the_words_and_table_it_names() -> None:
    assert "Table 42" in EXAMPLE and "hand 1" in EXAMPLE and "`ciao`, then `Zoë`" in EXAMPLE
    assert SECRET.value == bytes(range(32))


def test_example_hashes_are_the_codes() -> None:
    message = text(COMMITMENT_LABEL) + blob(SECRET.value) + u64(TABLE)
    assert VALUES["commitment message"] == message.hex()
    assert VALUES["commitment"] == Commitment.of(SECRET, TABLE).hex()
    assert VALUES["deck message"] == INPUTS.message().hex()
    assert VALUES["hand key"] == INPUTS.key().hex()
    block0 = hmac.digest(INPUTS.key(), u64(0), hashlib.sha256)
    assert VALUES["stream block 0"] == block0.hex()
    assert VALUES["deck"] == " ".join(c.code for c in INPUTS.full_deck())
    dealer_key = hmac.digest(SECRET.value, text(FIRST_DEALER_LABEL), hashlib.sha256)
    assert VALUES["first dealer key"] == dealer_key.hex()


def test_example_draws_are_the_streams_numbers() -> None:
    block0 = hmac.digest(INPUTS.key(), u64(0), hashlib.sha256)
    lines = VALUES["first draws"].splitlines()
    for step, line in enumerate(lines):
        n = 40 - step
        x = int.from_bytes(block0[4 * step : 4 * step + 4], "big")
        limit = 2**32 - 2**32 % n
        j = x % n
        assert line == (f"{x:08x} → {x} < {limit}, mod {n} = {j}: "
                        f"swap cards {n - 1} and {j}")
    first = int.from_bytes(
        hmac.digest(hmac.digest(SECRET.value, text(FIRST_DEALER_LABEL),
                                hashlib.sha256), u64(0), hashlib.sha256)[:4], "big")
    assert VALUES["first dealer"] == (
        f"{first:08x} → {first}, mod 4 = {first % 4}: player {first % 4 + 1} of 4 in seat order"
    )
    assert first % 4 == first_dealer(SECRET, 4)


def test_the_command_prints_what_the_page_shows() -> None:
    block = re.search(r"```console\n\$ (.*?)\n(.*?)```", EXAMPLE, re.S)
    assert block is not None
    argv = shlex.split(block.group(1))
    assert argv[:3] == [".venv/bin/python", "-m", "bot"]
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    proc = subprocess.run([sys.executable, *argv[1:]], capture_output=True, text=True,
                          encoding="utf-8", cwd=ROOT, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == block.group(2)
