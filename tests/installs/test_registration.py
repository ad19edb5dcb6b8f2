"""Issue 38: every top-level command says where it is installed and where it is offered.

The registration goes through the real `tree.sync()` into the harness, whose bulk PUT the
spec check of tests/conftest.py holds against Discord's OpenAPI document (`integration_types`
and `contexts` included). Here: each command's installs and contexts, from that PUT.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.harness import Harness

GUILD_INSTALL, USER_INSTALL = 0, 1
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2

#: What a member may install to their own account and use anywhere.
MEMBER_COMMANDS = frozenset({"learn", "practice", "rules", "help", "verify"})
#: Everything else needs the bot in the server.
SERVER_COMMANDS = frozenset({
    "balance", "daily", "give", "leaderboard", "stats", "stakes", "variants", "chips",
    "settings", "stoppa", "season", "pings", "tournament", "fair", "privacy",
})


async def registered(tmp_path: Path) -> dict[str, dict[str, Any]]:
    async with Harness.create(tmp_path) as h:
        return {c["name"]: c for c in await h.sync_commands()}


async def test_every_top_level_command_declares_its_installs_and_contexts(
    tmp_path: Path,
) -> None:
    commands = await registered(tmp_path)
    assert set(commands) == MEMBER_COMMANDS | SERVER_COMMANDS, "a command is new: classify it"
    for name, command in commands.items():
        where = (command["integration_types"], command["contexts"])
        if name in MEMBER_COMMANDS:
            assert where == ([GUILD_INSTALL, USER_INSTALL], [GUILD, BOT_DM, PRIVATE_CHANNEL]), name
            assert command["dm_permission"] is True, name
        else:
            assert where == ([GUILD_INSTALL], [GUILD]), name
            assert command["dm_permission"] is False, name


async def test_fair_keeps_the_word_and_verify_is_a_command_of_its_own(tmp_path: Path) -> None:
    commands = await registered(tmp_path)
    assert [o["name"] for o in commands["fair"]["options"]] == ["word"]
    options = {o["name"]: o for o in commands["verify"]["options"]}
    assert [n for n, o in options.items() if o.get("required")] == ["table"]
    assert {"secret", "hand", "commitment", "players", "word1", "word6"} <= set(options)
