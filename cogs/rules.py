"""`/rules [topic]`: the game explained in plain words (catalogue `rules.toml`), ephemeral."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import StoppaBot
from bot.discord_utils import choice, cmd_str, defer_if_slow, key, lang_for, send_ephemeral
from bot.discord_utils.installs import bot_is_here, member_command
from bot.i18n import t
from bot.store import Stakes

#: The topics of /rules, in the order they are offered.
TOPICS: tuple[str, ...] = (
    "overview",
    "deck",
    "points",
    "betting",
    "showdown",
    "big_point",
    "specials",
    "stoppa",
    "payments",
    "sessions",
)

#: Topics that end with this server's stakes (players cannot run the managers' /stakes show).
STAKES_TOPICS = frozenset({"overview", "betting", "payments"})
RULES_COLOUR = discord.Colour.dark_green()


def rules_embed(topic: str, lang: str, stakes: Stakes | None = None) -> discord.Embed:
    """The embed of one rules topic in `lang` (with the server's `stakes` where relevant)."""
    body = t(key("rules", topic, "body"), lang)
    if stakes is not None and topic in STAKES_TOPICS:
        body += "\n\n" + t(
            "rules.server_stakes",
            lang,
            ante=stakes.ante,
            small_point=stakes.small_point,
            cip=stakes.cip,
            max_bet=stakes.max_bet,
            card_rate=stakes.card_rate,
        )
    embed = discord.Embed(
        title=t(key("rules", topic, "title"), lang), description=body, colour=RULES_COLOUR
    )
    embed.set_footer(text=t("rules.footer", lang))
    return embed


class RulesCog(commands.Cog):
    """The /rules command."""

    def __init__(self, bot: StoppaBot) -> None:
        self.bot = bot

    @member_command
    @app_commands.command(name="rules", description=cmd_str("commands.rules.description"))
    @app_commands.describe(topic=cmd_str("commands.rules.topic"))
    @app_commands.choices(topic=[choice(key("commands.rules.choices", k), k) for k in TOPICS])
    async def rules(
        self, interaction: discord.Interaction[StoppaBot], topic: str = "overview"
    ) -> None:
        """Show one topic of the rules, only to the user who asked."""
        store = self.bot.store
        lang = await lang_for(interaction, store)  # from memory: no store round trip
        if topic not in TOPICS:
            topic = "overview"
        # a server's own stakes only where the bot is in it (elsewhere: the default ones)
        guild = interaction.guild_id if bot_is_here(interaction) else None
        if store is None or guild is None or topic not in STAKES_TOPICS:
            await interaction.response.send_message(embed=rules_embed(topic, lang),
                                                    ephemeral=True)
            return
        async with defer_if_slow(interaction):  # the stakes come from the store
            stakes = await store.get_stakes(guild)
        await send_ephemeral(interaction, embed=rules_embed(topic, lang, stakes))


async def setup(bot: StoppaBot) -> None:
    """Extension entry point."""
    await bot.add_cog(RulesCog(bot))
