"""Fixtures of the practice table tests: the real bot in the offline harness."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.harness import Harness


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    """A ready bot in a fresh English guild, on a fresh database."""
    async with Harness.create(tmp_path, seed=11) as harness:
        yield harness
