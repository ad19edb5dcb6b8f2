"""`/fair word`: a member's word for the fair deal on this server (docs/fairness.md).

The word is validated before anything else (`normalise_word`: a refusal in the member's
language changes nothing) and answered privately. `/fair` is a server command (the word is
kept per server); checking a closed table is `/verify` (cogs/verify.py), which a member may
also use where the bot is not.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import StoppaBot
from bot.discord_utils import (
    UserFacingError,
    cmd_str,
    defer_if_slow,
    lang_for,
    send_ephemeral,
)
from bot.discord_utils.installs import server_command
from bot.fairness import WordError, normalise_word, public_word
from bot.i18n import t
from bot.store import StoreContract


@server_command
class FairCog(
    commands.GroupCog, group_name="fair", group_description=cmd_str("fairness.cmd.group")
):
    """The /fair group: word."""

    def __init__(self, bot: StoppaBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def store(self) -> StoreContract:
        """The bot's open store."""
        return self.bot.open_store

    @app_commands.command(name="word", description=cmd_str("fairness.cmd.word"))
    @app_commands.describe(text=cmd_str("fairness.cmd.word_text"))
    async def word(
        self, interaction: discord.Interaction[StoppaBot], text: str | None = None
    ) -> None:
        """Set (or, empty, clear) the member's word on this server."""
        guild = interaction.guild_id
        if guild is None:
            raise UserFacingError("errors.guild_only")
        try:
            word = normalise_word(text or "")
        except WordError as exc:
            raise UserFacingError(f"fairness.word.{exc.reason}", limit=exc.limit) from None
        async with defer_if_slow(interaction):
            lang = await lang_for(interaction, self.store)
            await self.store.set_word(guild, interaction.user.id, word)
        if word:
            answer = t("fairness.answer.word_set", lang, word=public_word(word))
        else:
            answer = t("fairness.answer.word_cleared", lang)
        await send_ephemeral(interaction, answer)


async def setup(bot: StoppaBot) -> None:
    """Load the cog."""
    await bot.add_cog(FairCog(bot))
