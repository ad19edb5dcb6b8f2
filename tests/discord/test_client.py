"""`bot.client`: intents, start-up (store, service, cogs, translator, sync) and shutdown."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

from bot.client import EXTENSIONS, StoppaBot, bot_intents, create_bot
from bot.discord_utils import StoppaTranslator, StoppaTree
from tests.harness import Harness


def test_no_privileged_intents() -> None:
    intents = bot_intents()
    assert not intents.message_content and not intents.members and not intents.presences
    assert intents.guilds
    bot = create_bot("unused.db")
    assert isinstance(bot, StoppaBot) and isinstance(bot.tree, StoppaTree)
    assert bot.intents.value == intents.value
    assert bot.store is None and bot.tables is None  # nothing opened before setup_hook


async def test_setup_hook_builds_everything_without_syncing(h: Harness) -> None:
    bot = h.bot
    assert bot.store is not None and await bot.store.balance(h.guild_id, 1) == 1000
    assert bot.tables is not None  # the table service started in setup_hook
    loaded = set(bot.extensions)
    assert {"cogs.rules", "cogs.economy", "cogs.admin"} <= loaded <= set(EXTENSIONS)
    assert isinstance(bot.tree.translator, StoppaTranslator)
    assert not [c for c in h.calls if c.method == "PUT"]  # the harness does not sync
    assert bot.is_ready() and bot.get_guild(h.guild_id) is not None
    assert h.guild.get_channel(h.channel_id).name == "stoppa"


async def test_setup_hook_prepares_the_engine_tables_off_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    import bot.engine

    threads: list[threading.Thread] = []
    real = bot.engine.prepare
    monkeypatch.setattr(
        bot.engine, "prepare", lambda: (threads.append(threading.current_thread()), real())
    )
    async with Harness.create(tmp_path):
        assert len(threads) == 1
        assert threads[0] is not threading.main_thread()


async def test_setup_hook_syncs_globally(tmp_path: Path) -> None:
    async with Harness.create(tmp_path, sync_commands=True) as h:
        (put,) = [c for c in h.calls if c.method == "PUT"]
        assert put.path == "/applications/{application_id}/commands"
        assert {c["name"] for c in put.json} >= {"rules", "balance", "stakes"}


async def test_setup_hook_syncs_to_the_dev_guild(tmp_path: Path) -> None:
    async with Harness.create(tmp_path, sync_commands=True, dev_guild=True) as h:
        (put,) = [c for c in h.calls if c.method == "PUT"]
        assert put.path == "/applications/{application_id}/guilds/{guild_id}/commands"
        assert put.params["guild_id"] == str(h.guild_id)


async def test_close_stops_the_service_and_closes_the_store(tmp_path: Path) -> None:
    async with Harness.create(tmp_path) as h:
        bot = h.bot
        store = bot.store
        await bot.close()
        assert bot.store is None and bot.tables is None and bot.is_closed()
        assert not bot.extensions
        with pytest.raises(ValueError, match=r"connection|closed"):
            await store.balance(h.guild_id, 1)  # the store refuses a closed connection


async def test_unknown_routes_are_refused_not_faked(h: Harness) -> None:
    with pytest.raises(discord.HTTPException) as caught:
        await h.bot.http.request(discord.http.Route("GET", "/gateway/bot"))
    assert caught.value.status == 501
