"""Issue 28: every bot-token request of the table and tournament cogs waits for the bot's one
request budget (`StoppaBot.requests`) first.

The test counts the room taken in the budget and fails on any bot-token request (creating a
thread, posting, editing, fetching a channel) sent without room taken for it: the
registration message edited by a slash command, the tournament's thread, its welcome line,
the table's messages, the results and the archived thread."""

from __future__ import annotations

from pathlib import Path

from bot.tournaments.state import Phase
from tests.discord_tournament.conftest import button, open_tournament
from tests.harness import Harness
from tests.harness.harness import THREAD_BOT_PERMISSIONS
from tests.harness.transport import Call

QUICK = {"schedule": "turbo", "starting_stack": 600, "hands_per_level": 1}


async def test_no_bot_token_request_passes_the_budget_by(tmp_path: Path) -> None:
    async with Harness.create(tmp_path, seed=5) as h:
        h.set_bot_permissions("stoppa", permissions=THREAD_BOT_PERMISSIONS)
        boss = h.member("Boss", manage_guild=True)
        budget = h.bot.requests
        taken = budget.acquire
        room = {"taken": 0, "used": 0}
        bypassed: list[str] = []

        async def acquire() -> None:
            await taken()
            room["taken"] += 1

        async def gate(call: Call) -> None:
            if call.via != "http":  # interaction tokens are outside the global budget
                return
            room["used"] += 1
            if room["used"] > room["taken"]:
                bypassed.append(f"{call.method} {call.path}")
                room["taken"] = room["used"]  # report each request once

        budget.acquire = acquire  # type: ignore[method-assign]
        h.fake.gate = gate
        number, message = await open_tournament(h, boss, buy_in=100, seats=3, **QUICK)
        await h.slash(boss, "tournament addbot")  # edits the registration message by id
        await h.slash(boss, "tournament addbot")
        await h.click(boss, message.id, button(number, "cpu"))  # full: thread, table, play
        await h.settle()
        info = await h.bot.tournaments.info(number)  # type: ignore[union-attr]
        assert info.status is Phase.FINISHED
        assert [c for c in h.calls if c.via == "http" and "threads" in c.path]  # a thread
        assert room["used"] > 5
        assert bypassed == [], bypassed
