"""The offline Discord test harness: the real bot against a fake Discord API.

`Harness` (in `harness.py`) builds the real bot with `bot.client.create_bot` on a temporary
database, logs it in against the fake API, feeds READY and GUILD_CREATE to discord.py's own
gateway parsers, then drives it with Discord-shaped INTERACTION_CREATE payloads. Every REST call
is recorded (`transport.Call`) and answered like Discord's API v10. See `harness.py` for the API;
`tests/discord/` shows it in use.
"""

from __future__ import annotations

from tests.harness.harness import Harness, Reply
from tests.harness.payloads import FakeMember, FakeUser
from tests.harness.settle import settle, task_is_idle
from tests.harness.transport import EPHEMERAL, Call, CapturedFile, FakeDiscord, FakeMessage

__all__ = [
    "EPHEMERAL",
    "Call",
    "CapturedFile",
    "FakeDiscord",
    "FakeMember",
    "FakeMessage",
    "FakeUser",
    "Harness",
    "Reply",
    "settle",
    "task_is_idle",
]
