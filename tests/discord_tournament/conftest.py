"""Fixtures of the tournament tests: the real bot in the offline harness, and helpers to open
a tournament and press its registration buttons."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.harness import FakeMember, Harness
from tests.harness.harness import Reply
from tests.harness.transport import FakeMessage


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    """A ready bot in a fresh English guild, on a fresh database."""
    async with Harness.create(tmp_path, seed=11) as harness:
        yield harness


def button(tournament: int, action: str) -> str:
    """The custom id of a registration button."""
    return f"stoppa:tour:{tournament}:{action}"


async def open_tournament(
    h: Harness, opener: FakeMember, **options: Any
) -> tuple[int, FakeMessage]:
    """`/tournament new` with quick defaults; the tournament's number and its public
    registration message."""
    given: dict[str, Any] = {"buy_in": 100, "seats": 4, "schedule": "turbo"}
    given.update(options)
    reply = await h.slash(opener, "tournament new", **given)
    message = reply.message
    assert message is not None and not message.ephemeral, reply.text
    ids = message.custom_ids()
    assert ids, "the registration message has buttons"
    number = int(ids[0].split(":")[2])
    return number, message


def note(reply: Reply) -> str:
    """The private answer of an interaction (a click's reply also holds the registration
    message it updated): the text of its ephemeral messages, which must exist."""
    private = [m for m in reply.messages if m.ephemeral]
    assert private, f"no private answer: {reply.text!r}"
    return "\n".join(m.text for m in private)
