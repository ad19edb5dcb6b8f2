"""Ranked play in Discord: `/season new`, `/season list`, and the rating parts of
`/leaderboard by:rating [season]`, `/stats` and `/stoppa addbot` (the economy and table cogs
ask this cog through `bot.get_cog("RankedCog")`, so their own code stays as it was).

Ratings are shown as points (`bot.ratings.Rating.points`), "provisional" under 20 hands. A
season is named by its manager, or "Season N" in the reader's language; `season:` accepts
either, or the number. Starting a season is public (members should know their standings were
frozen); the list and personal figures are private.
"""

from __future__ import annotations

import asyncio
import io
import math

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import StoppaBot
from bot.discord_utils import (
    NotManager,
    UserFacingError,
    cmd_str,
    defer_if_slow,
    is_manager,
    key,
    lang_for,
    lang_in_memory,
    send_ephemeral,
    send_public,
    within_autocomplete,
)
from bot.discord_utils.installs import server_command
from bot.i18n import SUPPORTED, t
from bot.ratings import (
    PROVISIONAL_HANDS,
    TREND_HANDS,
    RankedError,
    Rating,
    check_season_name,
    trend,
)
from bot.ratings import points_of as rating_points
from bot.render.shapes import fmt_int
from bot.store import Season, StoreContract
from bot.tables.ratings import cpu_label
from cogs.member_names import MemberNames

PAGE_SIZE = 10
#: how many seasons the `season:` autocomplete offers (Discord shows at most 25)
MAX_CHOICES = 25
#: how many history points `/stats` reads for the trend
TREND_POINTS = TREND_HANDS + 1


def season_title(season: Season, lang: str) -> str:
    """The season's name, or "Season N" when its manager gave none."""
    return season.name or t("ranking.season_label", lang, number=season.id)


def season_line(season: Season, lang: str) -> str:
    """One line of `/season list`: the name and its dates."""
    title = season_title(season, lang)
    start = f"<t:{int(season.started_at)}:d>" if season.started_at is not None else None
    if season.ended_at is None:
        if start is None:
            return t("ranking.season_current_first", lang, season=title)
        return t("ranking.season_current", lang, season=title, start=start)
    end = f"<t:{int(season.ended_at)}:d>"
    if start is None:
        return t("ranking.season_ended_first", lang, season=title, end=end)
    return t("ranking.season_ended", lang, season=title, start=start, end=end)


def find_season(seasons: list[Season], text: str) -> Season | None:
    """The season `text` names: its name, "Season N" in any language, or its number."""
    wanted = " ".join(text.split()).casefold()
    for season in seasons:
        names = {str(season.id)} | {season_title(season, lang).casefold() for lang in SUPPORTED}
        if season.name:
            names.add(season.name.casefold())
        if wanted in names:
            return season
    return None


def rating_text(rating: Rating | None, lang: str) -> str:
    """The rating as `/stats` shows it: points, provisional with its hands, or "not rated"."""
    if rating is None or rating.hands == 0:
        return t("ranking.stats_rating_none", lang)
    if rating.provisional:
        return t(
            "ranking.stats_rating_provisional", lang, points=fmt_int(rating.points, lang),
            hands=rating.hands, needed=PROVISIONAL_HANDS,
        )
    return t("ranking.stats_rating_value", lang, points=fmt_int(rating.points, lang))


def trend_text(change: int, lang: str) -> str:
    """▲ +35, ▼ −12 or = 0."""
    if change > 0:
        return t("ranking.stats_trend_up", lang, change=change)
    if change < 0:
        return t("ranking.stats_trend_down", lang, change=-change)
    return t("ranking.stats_trend_flat", lang)


def _guild_id(interaction: discord.Interaction[StoppaBot]) -> int:
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    return interaction.guild_id


class RankedCog(commands.Cog):
    """Seasons, the rating board, and the rating figures other cogs show."""

    season = server_command(app_commands.Group(
        name="season", description=cmd_str("ranking.cmd.season")
    ))

    def __init__(self, bot: StoppaBot) -> None:
        self.bot = bot
        self.names = MemberNames.of(bot)

    @property
    def store(self) -> StoreContract:
        """The bot's store (open from `setup_hook` to `close`)."""
        return self.bot.open_store

    # ------------------------------------------------------------------ /season

    @season.command(name="new", description=cmd_str("ranking.cmd.season_new"))
    @app_commands.describe(name=cmd_str("ranking.cmd.season_new_name"))
    async def season_new(
        self, interaction: discord.Interaction[StoppaBot], name: app_commands.Range[str, 1, 100]
    ) -> None:
        """Freeze the current standings and start the season `name` (Manage Server)."""
        if not is_manager(interaction):
            raise NotManager("Manage Server permission required")
        guild = _guild_id(interaction)
        async with defer_if_slow(interaction):
            lang = await lang_for(interaction, self.store)
            seasons = await self.store.seasons(guild)
            taken = [season_title(s, other) for s in seasons for other in SUPPORTED]
            try:
                clean = check_season_name(name, taken)
                await self.store.new_season(guild, clean)
            except RankedError as error:
                raise UserFacingError(error.key, **error.params) from None
        ended = season_title(seasons[-1], lang)
        text = t(
            "ranking.season_started", lang, by=interaction.user.mention, name=clean, ended=ended
        )
        await send_public(interaction, text, allowed_mentions=discord.AllowedMentions.none())

    @season.command(name="list", description=cmd_str("ranking.cmd.season_list"))
    async def season_list(self, interaction: discord.Interaction[StoppaBot]) -> None:
        """Every season of the server, privately."""
        guild = _guild_id(interaction)
        async with defer_if_slow(interaction):
            lang = await lang_for(interaction, self.store)
            seasons = await self.store.seasons(guild)
        embed = discord.Embed(
            title=t("ranking.season_list_title", lang),
            description="\n".join(season_line(s, lang) for s in reversed(seasons)),
            colour=discord.Colour.gold(),
        )
        await send_ephemeral(interaction, embed=embed)

    # ------------------------------------------------------------------ for other cogs

    async def season_choices(
        self, interaction: discord.Interaction[StoppaBot], current: str
    ) -> list[app_commands.Choice[str]]:
        """The `season:` autocomplete of `/leaderboard`: this server's seasons, newest first."""
        if interaction.guild_id is None:
            return []
        lang = lang_in_memory(interaction)
        seasons = await within_autocomplete(self.store.seasons(interaction.guild_id), [])
        wanted = current.casefold()
        titles = [season_title(s, lang) for s in reversed(seasons)]
        return [
            app_commands.Choice(name=title[:100], value=title[:100])
            for title in titles
            if wanted in title.casefold()
        ][:MAX_CHOICES]

    async def rating_board(
        self, interaction: discord.Interaction[StoppaBot], season: str | None, page: int
    ) -> None:
        """`/leaderboard by:rating [season]`: the live board, or a past season's frozen one."""
        guild = _guild_id(interaction)
        async with defer_if_slow(interaction):
            lang = await lang_for(interaction, self.store)
            seasons = await self.store.seasons(guild)
            chosen = seasons[-1] if season is None else find_season(seasons, season)
            if chosen is None:
                raise UserFacingError("ranking.season_unknown", name=season)
            total = await self.store.count_rated(guild, chosen.id)
        title = season_title(chosen, lang)
        if total == 0:
            raise UserFacingError("ranking.board_empty", season=title)
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

        rows = await self.store.rating_board(
            guild, chosen.id, limit=PAGE_SIZE, offset=(page - 1) * PAGE_SIZE
        )
        names = await asyncio.gather(
            *(self.names.name(interaction.guild, row.user_id, lang) for row in rows)
        )
        provisional = t("ranked.provisional", lang)
        snapshot = LeaderboardSnapshot(
            rows=tuple(
                LeaderRowInfo(
                    rank=row.rank,
                    name=f"{name} ({provisional})" if row.hands < PROVISIONAL_HANDS else name,
                    value=rating_points(row.mu, row.sigma),
                )
                for row, name in zip(rows, names, strict=True)
            ),
            by="rating",
            server=interaction.guild.name if interaction.guild else "",
            page=page,
            lang=lang,
        )
        png = await asyncio.to_thread(render_leaderboard, snapshot)
        footer = t("ranking.board_footer", lang, season=title, page=page, pages=pages)
        content = f"{leaderboard_text(snapshot)}\n-# {footer}"
        if len(content) > 2000:
            content = content[:1997] + "..."
        await send_public(
            interaction, content, file=discord.File(io.BytesIO(png), filename="leaderboard.png"),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def stats_fields(self, guild: int, user: int, lang: str) -> list[tuple[str, str]]:
        """The `/stats` fields: the rating of the season in progress and its trend."""
        stored = (await self.store.ratings(guild, [user])).get(user)
        rating = Rating(stored.mu, stored.sigma, stored.hands) if stored else None
        fields = [(t("ranking.stats_rating", lang), rating_text(rating, lang))]
        if rating is not None and rating.hands > 0:
            history = await self.store.rating_history(guild, user, limit=TREND_POINTS)
            points = [rating_points(p.mu, p.sigma) for p in history]
            if len(history) < TREND_POINTS:  # the whole season: from a newcomer's points
                points.insert(0, Rating().points)
            hands = len(points) - 1
            change = trend(points, TREND_HANDS)
            fields.append((t("ranking.stats_trend", lang, hands=hands), trend_text(change, lang)))
        return fields

    async def cpu_label_text(self, guild: int, level: str, lang: str) -> str | None:
        """"On this server, Easy CPU players are rated 1,234 points." once the level played a
        rated hand here; None before."""
        rating = await cpu_label(self.store, guild, level)
        if rating is None:
            return None
        name = t(key("table.cmd.level", level), lang)
        text_key = "ranking.cpu_label_provisional" if rating.provisional else "ranking.cpu_label"
        return t(text_key, lang, level=name, points=fmt_int(rating.points, lang))


async def setup(bot: StoppaBot) -> None:
    """Extension entry point."""
    await bot.add_cog(RankedCog(bot))
