"""The members most Discord tests share, written once: each is made in the harness `h` that
the test's own folder provides (its conftest chooses the seed)."""

from __future__ import annotations

import pytest

from tests.harness import FakeMember, Harness


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
    """A member with the Manage Server permission (through a role), Discord in English."""
    return h.member("Boss", locale="en-US", manage_guild=True)
