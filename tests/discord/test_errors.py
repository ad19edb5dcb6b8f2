"""Failures inside commands are logged with their ids and answered politely (never "This
interaction failed"), whether or not the command had already answered (issue 7)."""

from __future__ import annotations

import logging

import discord
import pytest
from discord import app_commands

from bot.discord_utils import StoppaView, UserFacingError, guarded
from bot.i18n import t
from tests.harness import FakeMember, Harness


class Kaboom(RuntimeError):
    """The failure the test commands raise."""


@app_commands.command(name="boom", description="fails at once")
async def boom(interaction: discord.Interaction) -> None:
    raise Kaboom("boom")


@app_commands.command(name="boom-deferred", description="defers, then fails")
async def boom_deferred(interaction: discord.Interaction) -> None:
    await interaction.response.defer(thinking=True, ephemeral=True)
    raise Kaboom("late boom")


@app_commands.command(name="boom-after", description="answers, then fails")
async def boom_after(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("half done")
    raise Kaboom("after boom")


@app_commands.command(name="refuse", description="refuses politely")
async def refuse(interaction: discord.Interaction) -> None:
    raise UserFacingError("economy.no_bots")


@pytest.fixture
def tree(h: Harness) -> app_commands.CommandTree:
    for command in (boom, boom_deferred, boom_after, refuse):
        h.bot.tree.add_command(command)
    return h.bot.tree


def _errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "stoppa.discord" and r.levelno >= logging.ERROR]


@pytest.mark.usefixtures("tree")
async def test_exception_gets_a_polite_private_answer_and_is_logged(
    h: Harness, anna: FakeMember, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    reply = await h.slash(anna, "boom")
    assert reply.type == 4 and reply.ephemeral
    assert reply.text.startswith(t("errors.unexpected", "it"))
    (record,) = _errors(caplog)
    message = record.getMessage()
    for part in ("boom", str(anna.id), str(h.guild_id), str(h.channel_id)):
        assert part in message
    assert record.exc_info is not None and isinstance(record.exc_info[1], Kaboom)
    assert str(h.fake.interactions[reply.token]["id"]) in reply.text  # a reference to quote


@pytest.mark.usefixtures("tree")
async def test_exception_after_a_defer_edits_the_thinking_message(
    h: Harness, bob: FakeMember, caplog: pytest.LogCaptureFixture
) -> None:
    reply = await h.slash(bob, "boom-deferred")
    assert reply.type == 5
    (message,) = reply.messages
    assert message.ephemeral and not message.loading
    assert message.text.startswith(t("errors.unexpected", "en"))
    assert len(_errors(caplog)) == 1


@pytest.mark.usefixtures("tree")
async def test_exception_after_an_answer_sends_a_private_followup(
    h: Harness, bob: FakeMember
) -> None:
    reply = await h.slash(bob, "boom-after")
    public, private = reply.messages
    assert public.content == "half done" and not public.ephemeral
    assert private.ephemeral and private.text.startswith(t("errors.unexpected", "en"))


@pytest.mark.usefixtures("tree")
async def test_user_facing_refusal_is_not_logged_as_an_error(
    h: Harness, bob: FakeMember, caplog: pytest.LogCaptureFixture
) -> None:
    reply = await h.slash(bob, "refuse")
    assert reply.ephemeral and reply.text == t("economy.no_bots", "en")
    assert not _errors(caplog)


async def test_a_broken_store_is_answered_politely(
    h: Harness, bob: FakeMember, caplog: pytest.LogCaptureFixture
) -> None:
    """A real failure in a real command: the database connection is gone."""
    store = h.bot.store
    await store.close()
    reply = await h.slash(bob, "daily")
    assert reply.ephemeral and reply.text.startswith(t("errors.unexpected", "en"))
    assert any("daily" in r.getMessage() for r in _errors(caplog))
    h.bot.store = None  # already closed: the harness must not close it twice


class Broken(StoppaView):
    """A view whose button fails."""

    @discord.ui.button(label="x", custom_id="test:broken")
    async def press(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        raise Kaboom("button")


class BrokenSeat(discord.ui.DynamicItem[discord.ui.Button], template=r"test:(?P<n>\d+):seat"):
    """A dynamic button whose callback fails (guarded)."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label="x", custom_id=f"test:{n}:seat"))

    @classmethod
    async def from_custom_id(cls, interaction, item, match, /):  # type: ignore[no-untyped-def]
        return cls(int(match["n"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        raise Kaboom("dynamic")


@app_commands.command(name="broken", description="sends broken buttons")
async def broken(interaction: discord.Interaction) -> None:
    view = Broken()
    view.add_item(BrokenSeat(7).item)
    await interaction.response.send_message("buttons", view=view)


async def test_component_errors_are_answered_politely(
    h: Harness, bob: FakeMember, caplog: pytest.LogCaptureFixture
) -> None:
    h.bot.tree.add_command(broken)
    h.bot.add_dynamic_items(BrokenSeat)
    sent = await h.slash(bob, "broken")
    message_id = sent.message.id
    for custom_id in ("test:broken", "test:7:seat"):
        reply = await h.click(bob, message_id, custom_id)
        assert reply.ephemeral and reply.text.startswith(t("errors.unexpected", "en"))
    logged = [r.getMessage() for r in _errors(caplog)]
    assert any("Broken:test:broken" in m for m in logged)
    assert any("BrokenSeat" in m for m in logged)
