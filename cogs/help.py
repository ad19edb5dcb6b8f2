"""`/help`: what the bot is, how to open and join a table, the main commands, and `/rules`.

The answer is ephemeral and needs no store: the language comes from the interaction and the
bot's memory (the user's Discord language, else the language a manager pinned, else the
server's), so it is sent at once, well inside Discord's three seconds whatever the database
is doing.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import StoppaBot
from bot.discord_utils import cmd_str, key, lang_in_memory
from bot.discord_utils.installs import member_command
from bot.i18n import t

#: The sections of the help embed, in the order they are shown (`help.<name>_title`, `help.<name>`).
SECTIONS: tuple[str, ...] = ("play", "turn", "table", "chips", "tournaments", "managers",
                             "rules", "fair", "anywhere")
HELP_COLOUR = discord.Colour.dark_green()


def help_embed(lang: str) -> discord.Embed:
    """The help in `lang`."""
    embed = discord.Embed(title=t("help.title", lang), description=t("help.intro", lang),
                          colour=HELP_COLOUR)
    for section in SECTIONS:
        embed.add_field(name=t(key("help", section + "_title"), lang),
                        value=t(key("help", section), lang), inline=False)
    return embed


class HelpCog(commands.Cog):
    """The /help command."""

    def __init__(self, bot: StoppaBot) -> None:
        self.bot = bot

    @member_command
    @app_commands.command(name="help", description=cmd_str("help.command"))
    async def help(self, interaction: discord.Interaction[StoppaBot]) -> None:
        """Explain the bot, only to the user who asked (no store I/O before answering)."""
        lang = lang_in_memory(interaction)
        await interaction.response.send_message(embed=help_embed(lang), ephemeral=True)


async def setup(bot: StoppaBot) -> None:
    """Extension entry point."""
    await bot.add_cog(HelpCog(bot))
