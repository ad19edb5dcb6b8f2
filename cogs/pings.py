"""`/pings on|off`: a member's own choice of turn pings on this server, ephemeral.

A top-level command, not a part of `/settings`: Discord hides that group from members who
cannot manage the server, and this choice belongs to every member. The answer comes from
memory (`client.pings`) at once; the store is written after it, so a restart keeps the choice.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import StoppaBot
from bot.discord_utils import UserFacingError, choice, cmd_str, key, lang_in_memory
from bot.discord_utils.installs import server_command
from bot.discord_utils.numbers import echo
from bot.i18n import t

_log = logging.getLogger(__name__)

STATES: tuple[str, ...] = ("on", "off")


class PingsCog(commands.Cog):
    """The /pings command."""

    def __init__(self, bot: StoppaBot) -> None:
        self.bot = bot

    @server_command
    @app_commands.command(name="pings", description=cmd_str("pings.command.description"))
    @app_commands.describe(state=cmd_str("pings.command.state"))
    @app_commands.choices(state=[choice(key("pings.command.choices", s), s) for s in STATES])
    async def pings(self, interaction: discord.Interaction[StoppaBot], state: str) -> None:
        """Turn the member's turn pings on or off on this server, only for them."""
        lang = lang_in_memory(interaction)
        guild_id = interaction.guild_id
        if guild_id is None:  # (the tree refuses a DM first; this is for the type checker)
            raise app_commands.NoPrivateMessage()
        if state not in STATES:  # a choice only a modified client could send
            raise UserFacingError("errors.bad_option", value=echo(state))
        on = state == "on"
        self.bot.pings.set(guild_id, interaction.user.id, on)
        await interaction.response.send_message(t(key("pings.answer", state), lang),
                                                ephemeral=True)
        await self.bot.open_store.set_pings(guild_id, interaction.user.id, on)


async def setup(bot: StoppaBot) -> None:
    """Load the cog."""
    await bot.add_cog(PingsCog(bot))
