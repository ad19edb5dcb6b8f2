"""The harness itself: buttons, selects, modals, autocomplete, channel messages with files,
DynamicItems and restarts all go through discord.py's real machinery (for the table cog)."""

from __future__ import annotations

import io
import re

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.harness import EPHEMERAL, FakeMember, Harness


class Counter(discord.ui.View):
    """A view with a button that counts and a select that echoes."""

    def __init__(self) -> None:
        super().__init__(timeout=180)
        self.count = 0

    @discord.ui.button(label="+1", custom_id="test:count")
    async def add(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.count += 1
        await interaction.response.edit_message(content=f"count {self.count}", view=self)

    @discord.ui.select(
        custom_id="test:pick",
        options=[discord.SelectOption(label=c, value=c) for c in ("3c", "7d", "1s")],
        max_values=2,
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(
            "picked " + ",".join(select.values), ephemeral=True
        )


class Bet(discord.ui.Modal, title="Bet"):
    """A modal with one text input."""

    amount: discord.ui.TextInput = discord.ui.TextInput(label="Amount", custom_id="amount")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"bet {int(self.amount.value) * 2}")


class Seat(discord.ui.DynamicItem[discord.ui.Button], template=r"test:(?P<table>\d+):sit"):
    """A restart-proof button: the table id lives in the custom id."""

    def __init__(self, table: int) -> None:
        super().__init__(discord.ui.Button(label="Sit", custom_id=f"test:{table}:sit"))
        self.table = table

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> Seat:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"seated at {self.table}", ephemeral=True)


class Demo(commands.Cog):
    """Test commands exercising every harness path."""

    dynamic_items = (Seat,)

    @app_commands.command(name="counter", description="a counter")
    async def counter(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("count 0", view=Counter())

    @app_commands.command(name="bet", description="opens a modal")
    async def bet(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(Bet())

    @app_commands.command(name="card", description="autocompletes a card")
    async def card(self, interaction: discord.Interaction, code: str) -> None:
        await interaction.response.send_message(f"card {code}", ephemeral=True)

    @card.autocomplete("code")
    async def card_codes(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        codes = ("1c", "1d", "10c", "7d")
        return [app_commands.Choice(name=c, value=c) for c in codes if c.startswith(current)]

    @app_commands.command(name="post", description="posts in the channel with a file")
    async def post(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        await channel.send(
            "table", file=discord.File(io.BytesIO(b"\x89PNG\r\n\x1a\nfake"), "table.png"),
            view=discord.ui.View().add_item(Seat(42).item),
        )
        await interaction.followup.send("posted", ephemeral=True)


@pytest.fixture
async def demo(h: Harness) -> Demo:
    cog = Demo()
    await h.bot.add_cog(cog)
    h.bot._register_persistent_components()
    return cog


@pytest.mark.usefixtures("demo")
async def test_button_edits_the_message_and_select_answers(h: Harness, anna: FakeMember) -> None:
    sent = await h.slash(anna, "counter")
    message = sent.message
    assert message is not None and not message.ephemeral
    assert message.custom_ids() == ["test:count", "test:pick"]
    first = await h.click(anna, message.id, "test:count")
    assert first.type == 7  # UPDATE_MESSAGE
    await h.click(anna, message.id, "test:count")
    assert h.message(message.id).content == "count 2"
    picked = await h.select(anna, message.id, "test:pick", ["3c", "1s"])
    assert picked.ephemeral and picked.text == "picked 3c,1s"


@pytest.mark.usefixtures("demo")
async def test_modal_round_trip(h: Harness, bob: FakeMember) -> None:
    opened = await h.slash(bob, "bet")
    assert opened.type == 9 and opened.modal is not None
    custom_id = opened.modal["custom_id"]
    submitted = await h.submit_modal(bob, custom_id, {"amount": "30"}, opened_by=opened)
    assert submitted.text == "bet 60" and not submitted.ephemeral


@pytest.mark.usefixtures("demo")
async def test_autocomplete_offers_choices(h: Harness, bob: FakeMember) -> None:
    reply = await h.autocomplete(bob, "card", "code", code="1")
    assert reply.type == 8
    assert [c["value"] for c in reply.choices] == ["1c", "1d", "10c"]


@pytest.mark.usefixtures("demo")
async def test_channel_message_with_file_and_dynamic_button_survives_restart(
    h: Harness, anna: FakeMember
) -> None:
    reply = await h.slash(anna, "post")
    assert reply.ephemeral and "posted" in reply.text
    (post,) = [c for c in reply.http_calls if c.path == "/channels/{channel_id}/messages"]
    assert post.json["content"] == "table" and post.files[0].data.endswith(b"fake")
    (table_message,) = [m for m in h.messages() if m.content == "table"]
    assert table_message.files[0].filename == "table.png"
    assert table_message.flags & EPHEMERAL == 0
    seated = await h.click(anna, table_message.id, "test:42:sit")
    assert seated.text == "seated at 42"

    await h.store.grant(h.guild_id, anna.id, 7, reason="before restart", by=1)
    await h.restart()
    assert await h.store.balance(h.guild_id, anna.id) == 1007  # same database file
    # without the cog the old button is unknown: discord.py ignores it, nothing answers
    ignored = await h.click(anna, table_message.id, "test:42:sit")
    assert not ignored.responded
    await h.bot.add_cog(Demo())
    h.bot._register_persistent_components()
    again = await h.click(anna, table_message.id, "test:42:sit")
    assert again.text == "seated at 42"


async def test_every_call_is_recorded_with_its_route(h: Harness, bob: FakeMember) -> None:
    assert [c.path for c in h.calls[:2]] == ["/users/@me", "/oauth2/applications/@me"]
    reply = await h.slash(bob, "balance")
    (call,) = reply.calls
    assert call.via == "webhook" and call.method == "POST"
    assert call.path == "/interactions/{webhook_id}/{webhook_token}/callback"
    assert call.query == {"with_response": "1"}
    assert call.callback_type == 4 and call.flags == EPHEMERAL


async def test_a_second_answer_is_refused_like_discord_does(h: Harness, bob: FakeMember) -> None:
    reply = await h.slash(bob, "balance")
    interaction = h.fake.interactions[reply.token]
    assert interaction["_acknowledged"]
    assert not h.messages()  # the balance was private
