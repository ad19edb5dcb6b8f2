"""Fixtures and helpers of the untrusted-input tests: the real bot in the offline harness, a
DM interaction, and the log records a refusal must not leave (ERROR)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.harness import FakeMember, Harness, Reply


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    """A ready bot in a fresh English guild, on a fresh database."""
    async with Harness.create(tmp_path, seed=7) as harness:
        yield harness


def errors_in(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The ERROR (and worse) records logged so far, as text."""
    return [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.levelno >= logging.ERROR]


def in_dm(h: Harness, user: FakeMember, payload: dict[str, Any]) -> dict[str, Any]:
    """`payload` (an interaction in the harness guild) as Discord sends it from the user's DM
    with the bot: no guild, a `user` instead of a `member`, a DM channel (type 1)."""
    dm = dict(payload)
    for field in ("guild_id", "guild", "guild_locale", "member"):
        dm.pop(field, None)
    channel_id = h.snowflakes.next()
    dm["channel_id"] = str(channel_id)
    dm["channel"] = {"id": str(channel_id), "type": 1, "recipients": [user.payload()]}
    dm["user"] = user.payload()
    dm["context"] = 1
    dm["authorizing_integration_owners"] = {"1": str(user.id)}
    return dm


async def dispatch(h: Harness, payload: dict[str, Any]) -> Reply:
    """Send an interaction payload built by hand and wait for the bot to settle."""
    return await h._dispatch(payload)


async def finished_hands(h: Harness, seats: list[int], count: int) -> list[int]:
    """`count` finished hands of `seats` on this server (`store_hands`), their table closed
    as the service closes one (so nothing tries to resume it); the hands' ids."""
    from tests.discord.test_history import store_hands

    ids = await store_hands(h, seats, count)
    row = next(r for r in await h.store.load_open_tables() if r.channel_id == h.channel_id)
    await h.store.close_table(row.id, expected_version=row.version)
    return ids
