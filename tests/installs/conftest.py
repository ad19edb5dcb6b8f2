"""Fixtures of the install tests: a running harness (the real bot, a fake Discord)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.harness import Harness


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    """A ready bot in a fresh guild, on a fresh database."""
    async with Harness.create(tmp_path, seed=1) as harness:
        yield harness
