"""`/balance`, `/daily`, `/give`, `/leaderboard`, `/stats`: the chips of a server and who has
them, in the server's own currency (kept in the client's memory, `server_currency`).

Answers about one's own chips are ephemeral; the leaderboard is public (an image rendered off
the event loop with `asyncio.to_thread`, plus its text version for screen readers). A gift is
confirmed publicly, naming the receiver (who is pinged), so that the member learns of it and
the server sees who gave; the giver's balance and what they may still give follow privately.
"""

from __future__ import annotations

import asyncio
import io
import math
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import StoppaBot
from bot.discord_utils import (
    UserFacingError,
    choice,
    cmd_str,
    defer_if_slow,
    key,
    lang_for,
    send_ephemeral,
    send_public,
    server_currency,
)
from bot.discord_utils.installs import server_command
from bot.i18n import t
from bot.i18n.numbers import format_number
from bot.store import DailyRefused, GiveRefused, InsufficientFunds, StoreContract
from cogs.member_names import MemberNames

PAGE_SIZE = 10
LEADERBOARD_ORDERS: tuple[str, ...] = ("balance", "net", "closes", "rating")
STATS_FIELDS: tuple[str, ...] = ("hands", "pots_won", "closes", "net", "biggest_pot", "balance")


#: chips one /give may move (the store checks the balance and the daily limit)
GiveAmount = app_commands.Range[int, 1, 1_000_000_000]


def _joined_at(user: discord.User | discord.Member) -> float | None:
    """When a member joined the server (epoch seconds), from the interaction's member
    payload; None when Discord did not say (then /daily does not check the minimum age)."""
    joined = user.joined_at if isinstance(user, discord.Member) else None
    return joined.timestamp() if joined is not None else None


def _guild_id(interaction: discord.Interaction[StoppaBot]) -> int:
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    return interaction.guild_id


class EconomyCog(commands.Cog):
    """Chips: balance, daily claim, leaderboard, statistics."""

    def __init__(self, bot: StoppaBot) -> None:
        self.bot = bot
        self.names = MemberNames.of(bot)

    @property
    def store(self) -> StoreContract:
        """The bot's store (open from `setup_hook` to `close`)."""
        return self.bot.open_store

    @server_command
    @app_commands.command(name="balance", description=cmd_str("commands.balance.description"))
    @app_commands.describe(member=cmd_str("commands.balance.member"))
    async def balance(
        self, interaction: discord.Interaction[StoppaBot], member: discord.Member | None = None
    ) -> None:
        """Show the chips of the user (or of `member`), privately."""
        guild = _guild_id(interaction)
        if member is not None and member.bot:
            raise UserFacingError("economy.no_bots")
        async with defer_if_slow(interaction):
            lang = await lang_for(interaction, self.store)
            currency = server_currency(self.bot, guild)
            if member is None or member.id == interaction.user.id:
                amount = await self.store.balance(guild, interaction.user.id)
                text = t("economy.balance_self", lang, balance=amount, currency=currency)
            else:
                amount = await self.store.balance(guild, member.id)
                text = t("economy.balance_other", lang, name=member.display_name,
                         balance=amount, currency=currency)
        await send_ephemeral(interaction, text)

    @server_command
    @app_commands.command(name="daily", description=cmd_str("commands.daily.description"))
    async def daily(self, interaction: discord.Interaction[StoppaBot]) -> None:
        """Claim the daily chips (a second claim before the cooldown, a member newer than the
        server's minimum age or a balance at its cap are refused politely)."""
        guild = _guild_id(interaction)
        async with defer_if_slow(interaction):
            lang = await lang_for(interaction, self.store)
            try:
                claim = await self.store.claim_daily(
                    guild, interaction.user.id, joined_at=_joined_at(interaction.user)
                )
            except DailyRefused as exc:  # the cap written in the server's currency
                raise UserFacingError(f"store.{exc.code}", currency=server_currency(
                    self.bot, guild), **exc.params) from exc
        text = t(
            "economy.daily_claimed",
            lang,
            amount=claim.amount,
            balance=claim.balance,
            next=f"<t:{int(claim.next_at)}:R>",
            currency=server_currency(self.bot, guild),
        )
        await send_ephemeral(interaction, text)

    @server_command
    @app_commands.command(name="give", description=cmd_str("server_economy.cmd.give_description"))
    @app_commands.describe(
        member=cmd_str("server_economy.cmd.give_member"),
        amount=cmd_str("server_economy.cmd.give_amount"),
    )
    async def give(
        self, interaction: discord.Interaction[StoppaBot], member: discord.Member,
        amount: GiveAmount,
    ) -> None:
        """Give chips to another member: one store transaction (debit, credit, ledger row),
        refused when gifts are off, to oneself or a bot, over the giver's daily limit or the
        receiver's cap, or beyond the giver's balance; nothing changes on a refusal."""
        guild = _guild_id(interaction)
        if member.bot:
            raise UserFacingError("server_economy.give_bot")
        if member.id == interaction.user.id:
            raise UserFacingError("store.give_self")
        settings = self.bot.languages.settings(guild)
        if settings is not None and not settings.give_enabled:
            raise UserFacingError("store.give_disabled")  # from memory: no store round trip
        currency = server_currency(self.bot, guild)
        # a public answer, but nothing public before the checks (a refusal stays private)
        async with defer_if_slow(interaction):
            lang = await lang_for(interaction, self.store)
            try:
                gift = await self.store.give(guild, interaction.user.id, member.id, amount)
            except InsufficientFunds as exc:
                raise UserFacingError(
                    "server_economy.give_too_few", balance=exc.balance, amount=amount,
                    currency=currency,
                ) from exc
            except GiveRefused as exc:  # its limit and cap written in the server's currency
                raise UserFacingError(f"store.{exc.code}", currency=currency,
                                      **exc.params) from exc
        text = t(
            "server_economy.give_done", lang, giver=interaction.user.mention,
            receiver=member.mention, amount=gift.amount, currency=currency,
        )
        await send_public(
            interaction, text,
            allowed_mentions=discord.AllowedMentions(users=[member], roles=False, everyone=False),
        )
        if gift.left_today is None:
            note = t("server_economy.give_left", lang, balance=gift.giver_balance,
                     currency=currency)
        else:
            note = t("server_economy.give_left_limit", lang, balance=gift.giver_balance,
                     left=gift.left_today, currency=currency)
        await interaction.followup.send(note, ephemeral=True)

    @server_command
    @app_commands.command(
        name="leaderboard", description=cmd_str("commands.leaderboard.description")
    )
    @app_commands.describe(
        by=cmd_str("commands.leaderboard.by"), page=cmd_str("commands.leaderboard.page"),
        season=cmd_str("ranking.cmd.leaderboard_season"),
    )
    @app_commands.choices(
        by=[choice(key("commands.leaderboard.choices", k), k) for k in LEADERBOARD_ORDERS]
    )
    async def leaderboard(
        self,
        interaction: discord.Interaction[StoppaBot],
        by: str = "balance",
        page: app_commands.Range[int, 1, 10_000] = 1,
        season: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        """Post the leaderboard image and its text version in the channel."""
        guild_id = _guild_id(interaction)
        ranked: Any = self.bot.get_cog("RankedCog")  # cogs.ranked: ratings and seasons
        if ranked is not None and (by == "rating" or season is not None):
            await ranked.rating_board(interaction, season, page)
            return
        # a refusal (empty board, no such page) is private, even when the store is slow
        async with defer_if_slow(interaction):
            lang = await lang_for(interaction, self.store)
            total = await self.store.count_ranked(guild_id, by)
        if total == 0:
            raise UserFacingError("economy.leaderboard_empty")
        pages = max(1, math.ceil(total / PAGE_SIZE))
        if page > pages:
            raise UserFacingError("economy.leaderboard_page_out", pages=pages)
        if not interaction.response.is_done():
            await interaction.response.defer(thinking=True)
        from bot.render import (
            LeaderboardSnapshot,
            LeaderRowInfo,
            leaderboard_text,
            render_leaderboard,
        )

        currency = server_currency(self.bot, guild_id)
        rows = await self.store.leaderboard(
            guild_id, by=by, limit=PAGE_SIZE, offset=(page - 1) * PAGE_SIZE
        )
        names = await asyncio.gather(
            *(self.names.name(interaction.guild, row.user_id, lang) for row in rows)
        )
        snapshot = LeaderboardSnapshot(
            rows=tuple(
                LeaderRowInfo(rank=row.rank, name=name, value=row.value)
                for row, name in zip(rows, names, strict=True)
            ),
            by=by,
            server=interaction.guild.name if interaction.guild else "",
            page=page,
            lang=lang,
            currency_name=currency.name,
            currency_emoji=currency.emoji,
        )
        png = await asyncio.to_thread(render_leaderboard, snapshot)
        text = leaderboard_text(snapshot)
        footer = t("economy.leaderboard_footer", lang, page=page, pages=pages)
        content = f"{text}\n-# {footer}"
        if len(content) > 2000:
            content = content[:1997] + "..."
        await send_public(
            interaction, content, file=discord.File(io.BytesIO(png), filename="leaderboard.png"),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @leaderboard.autocomplete("season")
    async def season_autocomplete(
        self, interaction: discord.Interaction[StoppaBot], current: str
    ) -> list[app_commands.Choice[str]]:
        """This server's seasons (cogs.ranked)."""
        ranked: Any = self.bot.get_cog("RankedCog")
        return [] if ranked is None else await ranked.season_choices(interaction, current)

    @server_command
    @app_commands.command(name="stats", description=cmd_str("commands.stats.description"))
    @app_commands.describe(member=cmd_str("commands.stats.member"))
    async def stats(
        self, interaction: discord.Interaction[StoppaBot], member: discord.Member | None = None
    ) -> None:
        """Show the game statistics of the user (or of `member`), privately."""
        guild = _guild_id(interaction)
        target = member or interaction.user
        if target.bot:
            raise UserFacingError("economy.no_bots")
        async with defer_if_slow(interaction):
            lang = await lang_for(interaction, self.store)
            stats = await self.store.stats(guild, target.id)
            ranked: Any = self.bot.get_cog("RankedCog")  # cogs.ranked: rating and trend
            rating = [] if ranked is None else await ranked.stats_fields(guild, target.id, lang)
        embed = discord.Embed(
            title=t("economy.stats_title", lang, name=target.display_name),
            colour=discord.Colour.gold(),
        )
        currency = server_currency(self.bot, guild)
        for field in STATS_FIELDS:
            value = format_number(getattr(stats, field), lang)
            name = t(key("economy", "stats_" + field), lang)
            if field == "balance" and not currency.is_default:
                name = currency.label(lang)  # the heading of the balance names the currency
            embed.add_field(name=name, value=value)
        for name, value in rating:
            embed.add_field(name=name, value=value)
        history: Any = self.bot.get_cog("HistoryCog")  # cogs.history: the chart and figures
        if history is None:
            await send_ephemeral(interaction, embed=embed)
            return
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        figures, chart = await history.stats_extras(guild, target.id, target.display_name, lang)
        from cogs.history import stats_fields

        for name, value in stats_fields(figures, lang):
            embed.add_field(name=name, value=value)
        if chart is None:
            await interaction.followup.send(embed=embed, ephemeral=True)
            return
        embed.set_image(url="attachment://chips.png")  # i18n: not user-facing
        await interaction.followup.send(
            embed=embed, file=discord.File(io.BytesIO(chart), filename="chips.png"), ephemeral=True
        )


async def setup(bot: StoppaBot) -> None:
    """Extension entry point."""
    await bot.add_cog(EconomyCog(bot))
