"""Every error code the store raises has a message in both catalogues, with its params."""

from __future__ import annotations

import re
from pathlib import Path

import bot.store
from bot.i18n import catalogue, placeholders
from bot.store import (
    CooldownActive,
    InsufficientFunds,
    StoreError,
    TableExists,
    TableNotFound,
    VersionConflict,
)

SOURCE = Path(bot.store.__file__).parent
CODE_RE = re.compile(r'(?:Error|Stakes|Setting)\(\s*"([a-z_]+)"|default_code = "([a-z_]+)"')


def _codes() -> set[str]:
    found: set[str] = set()
    for path in SOURCE.glob("*.py"):
        for match in CODE_RE.finditer(path.read_text(encoding="utf-8")):
            found.add(match.group(1) or match.group(2))
    return found


def test_every_raised_code_has_a_message_in_both_languages() -> None:
    codes = _codes()
    assert {"insufficient_funds", "stakes_ante_too_small", "escrow_not_empty"} <= codes
    for lang in ("en", "it"):
        missing = {c for c in codes if f"store.{c}" not in catalogue(lang)}
        assert not missing, f"{lang} lacks {sorted(missing)}"


def test_typed_errors_fill_their_messages() -> None:
    errors = [
        InsufficientFunds(guild=1, user=2, needed=60, balance=10),
        CooldownActive(7200.0, now=0.0),
        VersionConflict(table_id=3, expected=1, actual=2),
        TableExists(channel=9, table_id=3),
        TableNotFound(3),
        StoreError("escrow_not_empty", {"table_id": 3, "escrow": 40}),
    ]
    for error in errors:
        assert isinstance(error, StoreError)
        for lang in ("en", "it"):
            text = error.message(lang)
            assert "{" not in text
            assert placeholders(catalogue(lang)[f"store.{error.code}"]) <= set(error.params)
    assert str(errors[0]) == "Not enough chips: 60 needed, 10 available."
    assert errors[0].message("it") == "Fiches insufficienti: ne servono 60, ne hai 10."
