"""Fixtures of the Discord tests: a running harness (the real bot, a fake Discord)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.harness import FakeMember, Harness


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    """A ready bot in a fresh guild, on a fresh database."""
    async with Harness.create(tmp_path, seed=1) as harness:
        yield harness


@pytest.fixture
def anna(h: Harness) -> FakeMember:
    """An ordinary member whose Discord is in Italian."""
    return h.member("Anna", locale="it")


@pytest.fixture
def bob(h: Harness) -> FakeMember:
    """An ordinary member whose Discord is in English."""
    return h.member("Bob", locale="en-GB")


@pytest.fixture
def boss(h: Harness) -> FakeMember:
    """A member with the Manage Server permission (through a role)."""
    return h.member("Boss", locale="en-US", manage_guild=True)
