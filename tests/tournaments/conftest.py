"""Fixtures of the tournament table tests: the tables harness plus a tournament service."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.tournaments.helpers import TournamentHarness


@pytest.fixture
async def th(tmp_path: Path) -> AsyncIterator[TournamentHarness]:
    """A started table + tournament service on a fresh database (SQLite file); after the
    test: audit clean, chips conserved (balances + escrows + pools = minted)."""
    harness = TournamentHarness(tmp_path / "tournaments.db")
    await harness.open()
    try:
        yield harness
        await harness.svc.wait_idle()
        await harness.chips_conserved()
    finally:
        await harness.close()
