"""Fixtures of the table tests: the real bot in the offline harness, edits not throttled (the
harness builds the bot with `publish_interval=0`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cogs.table_publisher import TablePublisher
from tests.harness import Harness


def publisher(h: Harness) -> TablePublisher:
    """The table cog's publisher of the harness's bot."""
    cog = h.bot.get_cog("TableCog")
    assert cog is not None
    return cog.publisher  # type: ignore[attr-defined, no-any-return]


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    """A ready bot in a fresh English guild, on a fresh database."""
    async with Harness.create(tmp_path, seed=7) as harness:
        yield harness
