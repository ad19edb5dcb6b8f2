"""Fixtures of the table tests: the real bot in the offline harness, edits not throttled."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cogs.table_publisher import TablePublisher
from tests.harness import Harness


@pytest.fixture(autouse=True)
def _no_edit_throttle(monkeypatch: pytest.MonkeyPatch) -> None:
    """Edit the table message at once (the harness settles on sleeps >= 0.5 s)."""
    monkeypatch.setattr(TablePublisher, "interval", 0.0)


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    """A ready bot in a fresh English guild, on a fresh database."""
    async with Harness.create(tmp_path, seed=7) as harness:
        yield harness
