"""Fixtures of the store tests: a fresh database file per test."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import Store

GUILD = 111
OTHER_GUILD = 222


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    """A database path in a folder that does not exist yet."""
    return str(tmp_path / "nested" / "stoppa.db")


@pytest.fixture
async def store(db_path: str) -> AsyncIterator[Store]:
    """An open store on a fresh file; the audit must be clean when the test ends."""
    s = await Store.open(db_path)
    try:
        yield s
        assert await s.audit() == []
    finally:
        await s.close()
