"""Fixtures and helpers of the untrusted-input tests: the real bot in the offline harness (also
with a store that gives up on SQLite's write lock quickly), a DM interaction, the set-ups the
tests share (a table of three, a replay, another process holding the write lock), and the log
records a refusal must not leave (ERROR)."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import bot.store.connection as connection
from tests.discord_table.test_game import open_table
from tests.harness import FakeMember, FakeMessage, Harness, Reply


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    """A ready bot in a fresh English guild, on a fresh database."""
    async with Harness.create(tmp_path, seed=7) as harness:
        yield harness


@pytest.fixture
async def quick_busy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Harness]:
    """A ready bot whose store waits only 0.1 s for SQLite's write lock (set before it opens),
    so a lock held by another process makes it busy at once."""
    monkeypatch.setattr(connection, "BUSY_TIMEOUT_MS", 100)
    async with Harness.create(tmp_path, seed=7) as harness:
        yield harness


@contextmanager
def write_lock_held(h: Harness) -> Iterator[None]:
    """Another process holds the database's write lock (BEGIN IMMEDIATE) inside the block."""
    other = sqlite3.connect(h.db_path, timeout=0)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        other.rollback()
        other.close()


def three_players(h: Harness, locale: str = "en-US") -> list[FakeMember]:
    """Anna, Bruno and Carla, new members of the guild speaking `locale`."""
    return [h.member(name, locale=locale) for name in ("Anna", "Bruno", "Carla")]


async def three_at_a_table(h: Harness, locale: str = "en-US") -> list[FakeMember]:
    """`three_players` at a table of the harness channel, its first hand dealt."""
    members = three_players(h, locale)
    await open_table(h, members)
    return members


async def a_replay(h: Harness, member: FakeMember) -> tuple[int, FakeMessage]:
    """A finished hand of `member` with three CPU players, and the private replay of it that
    `/stoppa replay` showed `member`: the hand's id and that message."""
    (hand,) = await finished_hands(h, [member.id, -1, -2, -3], 1)
    replay = await h.slash(member, "stoppa replay", hand=hand)
    assert replay.message is not None
    return hand, replay.message


async def press_on(h: Harness, member: FakeMember, message: FakeMessage, custom_id: str) -> Reply:
    """`member` presses a component `custom_id` sent with `message`, which it does not belong
    to; asserts the message is left as it was, and returns the answer."""
    before = message.payload()
    pressed = await h.click(member, message.id, custom_id)
    assert h.message(message.id).payload() == before
    return pressed


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
    """`count` finished hands of `seats` on this server (`store_hands`, quick hands: their
    replays draw fast), their table closed as the service closes one (so nothing tries to
    resume it); the hands' ids."""
    from tests.discord.test_history import quick_hand, store_hands

    ids = await store_hands(h, seats, count, play=quick_hand)
    row = next(r for r in await h.store.load_open_tables() if r.channel_id == h.channel_id)
    await h.store.close_table(row.id, expected_version=row.version)
    return ids
