"""Fixtures of the table service tests: a harness whose chips are audited after each test."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.tables.helpers import Harness


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    """A started service on a fresh database; after the test: audit clean, chips conserved."""
    harness = Harness(tmp_path / "tables.db")
    async with harness.audited():
        yield harness
