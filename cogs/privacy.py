"""`/privacy`: what the bot keeps about you on this server, and asking it to forget you.

The answer is private and in the member's language. Its **Forget me** button asks for a
confirmation in place (a second message would be one more to read); **Yes, forget me** runs
the store's one transaction (`StoreContract.forget_member`, docs/privacy.md) and says what it
did. The buttons carry the member's id and act only for that member, on the private message
that carries them (a client may send any custom id with any message); they keep working
after a restart. A member at an open table or in a tournament not over is told to come back
afterwards, and nothing changes.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import StoppaBot
from bot.discord_utils import UserFacingError, cmd_str, guarded, lang_in_memory
from bot.discord_utils.components import carries
from bot.discord_utils.installs import server_command
from bot.discord_utils.numbers import NUMBER, custom_id_number
from bot.i18n import t
from bot.store.privacy import ForgetRefused, MemberData, forgotten_name

PREFIX = "stoppa:privacy:"  # i18n: not user-facing
TEMPLATE = PREFIX + f"(?P<step>ask|yes|no):(?P<user>{NUMBER})"
STEPS = ("ask", "yes", "no")
COLOUR = discord.Colour.dark_grey()


def _guild(interaction: discord.Interaction[StoppaBot]) -> int:
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    return interaction.guild_id


def kept_text(data: MemberData, lang: str) -> str:
    """What the store holds about the member, one line each (docs/privacy.md says why)."""
    if not data.anything:
        return t("privacy.nothing", lang)
    lines = [t("privacy.balance", lang, amount=data.balance or 0),
             t("privacy.ledger", lang, count=data.ledger_rows),
             t("privacy.hands", lang, count=data.hands),
             t("privacy.ratings", lang, count=data.rated_seasons),
             t("privacy.tournaments", lang, count=data.tournaments),
             t("privacy.word_set" if data.word else "privacy.word_unset", lang),
             t("privacy.pings_off" if data.pings_off else "privacy.pings_on", lang)]
    return "\n".join(f"• {line}" for line in lines)


def overview(data: MemberData, user: int, lang: str) -> tuple[discord.Embed, discord.ui.View]:
    """The answer to `/privacy`: what is kept, who reads it, and the Forget me button."""
    embed = discord.Embed(title=t("privacy.title", lang), colour=COLOUR,
                          description=kept_text(data, lang))
    embed.add_field(name=t("privacy.readers_title", lang), value=t("privacy.readers", lang),
                    inline=False)
    embed.add_field(name=t("privacy.forget_title", lang), value=t("privacy.forget", lang),
                    inline=False)
    view = discord.ui.View(timeout=None)
    view.add_item(PrivacyButton("ask", user, label=t("privacy.button_ask", lang)))
    return embed, view


def confirmation(user: int, lang: str) -> tuple[discord.Embed, discord.ui.View]:
    """The question before forgetting: what it does, that it cannot be undone."""
    embed = discord.Embed(title=t("privacy.confirm_title", lang), colour=COLOUR,
                          description=t("privacy.confirm", lang))
    view = discord.ui.View(timeout=None)
    view.add_item(PrivacyButton("yes", user, label=t("privacy.button_yes", lang)))
    view.add_item(PrivacyButton("no", user, label=t("privacy.button_no", lang)))
    return embed, view


class PrivacyButton(discord.ui.DynamicItem[discord.ui.Button], template=TEMPLATE):
    """Forget me / Yes, forget me / Cancel, for the member whose id the custom id holds."""

    def __init__(self, step: str, user: int, *, label: str = "") -> None:
        style = (discord.ButtonStyle.secondary if step == "no"
                 else discord.ButtonStyle.danger)
        super().__init__(discord.ui.Button(label=label or step, style=style,
                                           custom_id=f"{PREFIX}{step}:{user}"))
        self.step = step
        self.user = user

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str], /
    ) -> PrivacyButton:
        """Rebuild the button from a click (after a restart too)."""
        return cls(match["step"], custom_id_number(match["user"]),
                   label=getattr(item, "label", None) or "")

    @guarded
    async def callback(
        self, interaction: discord.Interaction[StoppaBot]
    ) -> None:
        """Act for the member on their own private message; refuse anyone or anything else."""
        lang = lang_in_memory(interaction)
        if self.user != interaction.user.id or not carries(
            interaction.message, f"{PREFIX}{self.step}:{self.user}", ephemeral=True
        ):
            raise UserFacingError("privacy.not_yours")
        if self.step == "ask":
            embed, view = confirmation(self.user, lang)
            await interaction.response.edit_message(embed=embed, view=view)
        elif self.step == "no":
            await interaction.response.edit_message(
                embed=discord.Embed(description=t("privacy.cancelled", lang), colour=COLOUR),
                view=None)
        else:
            await interaction.response.defer()
            await forget(interaction, _guild(interaction), self.user, lang)


async def forget(interaction: discord.Interaction[StoppaBot], guild: int, user: int,
                 lang: str) -> None:
    """Forget the member (one store transaction), then say what was done, in place."""
    try:
        done = await interaction.client.open_store.forget_member(guild, user)
    except ForgetRefused as refused:
        text = refused.message(lang)
    else:
        interaction.client.pings.set(guild, user, True)  # the choice is gone with its row
        text = t("privacy.done", lang, name=forgotten_name(done.placeholder),
                 amount=done.chips_returned)
    await interaction.edit_original_response(
        embed=discord.Embed(description=text, colour=COLOUR), view=None)


class PrivacyCog(commands.Cog):
    """The /privacy command."""

    dynamic_items = (PrivacyButton,)

    def __init__(self, bot: StoppaBot) -> None:
        self.bot = bot

    @server_command
    @app_commands.command(name="privacy", description=cmd_str("privacy.command.description"))
    async def privacy(self, interaction: discord.Interaction[StoppaBot]) -> None:
        """What is kept about the member on this server, privately, with Forget me."""
        guild = _guild(interaction)
        lang = lang_in_memory(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        data = await self.bot.open_store.member_data(guild, interaction.user.id)
        embed, view = overview(data, interaction.user.id, lang)
        await interaction.followup.send(embed=embed, view=view, ephemeral=True)


async def setup(bot: StoppaBot) -> None:
    """Load the cog."""
    await bot.add_cog(PrivacyCog(bot))
