"""Fixtures of the tournament table tests: the tables harness plus a tournament service, on
SQLite and on PostgreSQL (`STOPPA_TEST_POSTGRES_URL`, as the store tests)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.store.conftest import postgres_schema
from tests.tournaments.helpers import TournamentHarness


@pytest.fixture(params=["sqlite", "postgresql"])
async def th(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[TournamentHarness]:
    """A started table + tournament service on a fresh database; after the test: audit
    clean, chips conserved (balances + escrows + pools = minted)."""
    if request.param == "sqlite":
        harness = TournamentHarness(tmp_path / "tournaments.db")
        async with harness.audited():
            yield harness
        return
    async with postgres_schema() as open_store:
        harness = TournamentHarness(tmp_path / "unused.db", open_store)
        async with harness.audited():
            yield harness
