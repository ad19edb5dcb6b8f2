"""Fixtures of the table tests: the real bot in the offline harness, edits not throttled (the
harness builds the bot with `publish_interval=0`), also on a fake clock for the turn clock's
tests; the turn pings a channel shows."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.client import TableOptions
from bot.tables import TableState
from bot.tables.clock import FakeClock
from cogs.table_publisher import TablePublisher
from tests.harness import FakeMessage, Harness

#: the turn clock of the `clocked` harness, in seconds
TIMEOUT = 60.0


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


@pytest.fixture
async def clocked(tmp_path: Path) -> AsyncIterator[tuple[Harness, FakeClock]]:
    """A ready bot whose table service runs on a fake clock (a turn lasts `TIMEOUT`), and
    that clock: a test moves time on with `clock.advance`."""
    clock = FakeClock()
    async with Harness.create(tmp_path, seed=7, turn_timeout=TIMEOUT,
                              table_options=TableOptions(clock=clock)) as harness:
        yield harness, clock


def shows_turn(message: FakeMessage, state: TableState) -> bool:
    """Whether the table message shows this turn: its turn line names the player to act and
    the turn's deadline (the message carries no turn buttons since issue 36)."""
    deadline = f"<t:{int(state.deadline)}:R>" if state.deadline else ""
    text = message.text_displays()[0]  # the title and the turn line
    return f"<@{state.to_act}>" in text and deadline in text


def section(message: FakeMessage, heading: str) -> str | None:
    """The lines of a table message's block under `heading` ("Players", "Hand 1 is over"),
    None when the message has no such block."""
    for text in message.text_displays():
        first, _, rest = text.partition("\n")
        if first == f"**{heading}**":
            return rest
    return None


def pings(h: Harness) -> list[FakeMessage]:
    """The "your turn" pings posted in the harness channel so far."""
    return [m for m in h.messages() if "your turn" in m.content]
