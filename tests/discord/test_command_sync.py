"""Slash commands are synced only when the tree changed; a former dev guild's copy is removed
(issue 15: start and stop like a service). Read through the REST calls the harness captures;
the state is in the database (issue 26), read here through the store."""

from __future__ import annotations

import json
from pathlib import Path

import discord
from discord import app_commands

from bot.command_sync import SyncState, legacy_state_file, payload_hash
from bot.store import open_store
from tests.harness import Harness
from tests.harness.transport import Call

GLOBAL_PUT = "/applications/{application_id}/commands"
GUILD_PUT = "/applications/{application_id}/guilds/{guild_id}/commands"


def puts(calls: list[Call]) -> list[Call]:
    return [c for c in calls if c.method == "PUT"]


async def test_a_restart_with_the_same_commands_syncs_nothing(tmp_path: Path) -> None:
    async with Harness.create(tmp_path, sync_commands=True) as h:
        (first,) = puts(h.calls)
        assert first.path == GLOBAL_PUT
        assert h.store is not None
        assert set(await h.store.command_sync_state()) == {"global"}
        assert not list(tmp_path.glob("*.json"))  # nothing kept beside the database
        seen = len(h.calls)
        await h.restart()
        assert puts(h.calls[seen:]) == []


async def test_a_changed_tree_is_synced_again(tmp_path: Path) -> None:
    async with Harness.create(tmp_path, sync_commands=True) as h:
        seen = len(h.calls)

        @app_commands.command(name="extra", description="an added command")
        async def extra(interaction: discord.Interaction) -> None:  # pragma: no cover
            await interaction.response.send_message("x")

        h.bot.tree.add_command(extra)
        report = await h.bot.sync_app_commands()
        (put,) = puts(h.calls[seen:])
        assert "extra" in {c["name"] for c in put.json}
        assert report.synced == ("global",)
        seen = len(h.calls)
        assert (await h.bot.sync_app_commands()).unchanged == ("global",)
        assert puts(h.calls[seen:]) == []


async def test_force_sync_sends_an_unchanged_tree(tmp_path: Path) -> None:
    async with Harness.create(tmp_path, sync_commands=True) as h:
        seen = len(h.calls)
        h.bot.force_sync = True
        await h.bot.sync_app_commands()
        (put,) = puts(h.calls[seen:])
        assert put.path == GLOBAL_PUT


async def test_the_stored_hash_is_that_of_the_json_sent(tmp_path: Path) -> None:
    async with Harness.create(tmp_path, sync_commands=True) as h:
        (put,) = puts(h.calls)
        assert h.store is not None
        assert (await h.store.command_sync_state())["global"] == payload_hash(put.json)


async def test_unsetting_the_dev_guild_removes_its_copy(tmp_path: Path) -> None:
    async with Harness.create(tmp_path, sync_commands=True, dev_guild=True) as h:
        (put,) = puts(h.calls)
        assert put.path == GUILD_PUT and put.params["guild_id"] == str(h.guild_id)
        assert h.fake.synced_commands[h.guild_id]
        seen = len(h.calls)

        h.use_dev_guild = False  # STOPPA_DEV_GUILD removed, then the bot restarted
        await h.restart()

        cleared, synced = puts(h.calls[seen:])
        assert cleared.path == GUILD_PUT and cleared.params["guild_id"] == str(h.guild_id)
        assert cleared.json == []
        assert h.fake.synced_commands[h.guild_id] == []
        assert synced.path == GLOBAL_PUT and synced.json
        assert h.store is not None
        assert set(await h.store.command_sync_state()) == {"global"}

        seen = len(h.calls)
        await h.restart()  # nothing left to clear, nothing changed
        assert puts(h.calls[seen:]) == []


async def test_the_dev_guild_keeps_its_copy_across_restarts(tmp_path: Path) -> None:
    async with Harness.create(tmp_path, sync_commands=True, dev_guild=True) as h:
        seen = len(h.calls)
        await h.restart()
        assert puts(h.calls[seen:]) == []


async def test_a_state_file_of_an_older_version_is_taken_over(tmp_path: Path) -> None:
    async with Harness.create(tmp_path, sync_commands=True, dev_guild=True) as h:
        pass
    store = await open_store(h.db_path)
    try:
        hashes = await store.command_sync_state()
        for target in hashes:
            await store.forget_command_sync(target)
        legacy = legacy_state_file(h.db_path)
        assert legacy is not None
        legacy.write_text(json.dumps(hashes))  # as the version before issue 26 kept it
        assert (await SyncState.load(store, legacy)).hashes == hashes
        assert await store.command_sync_state() == hashes
        assert not legacy.exists()
    finally:
        await store.close()
