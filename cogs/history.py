"""`/stoppa history` and `/stoppa replay`: a player's last hands and the animated replay of one.

The two commands are subcommands of the `/stoppa` group, which `cogs.table` owns (a
`GroupCog`): this cog builds them as plain `app_commands.Command`s in `cog_load` and adds them
to that group (so this extension loads after `cogs.table`), and takes them out again in
`cog_unload`. Their callbacks are module functions that find this cog through the client.

- history: ephemeral, one page of hands (when, where, the result, each phase), paged with
  buttons whose custom ids carry everything (`DynamicItem`), so they work after a restart; a
  page that no longer exists is answered politely.
- replay: the asker's own cards are shown only to them (ephemeral reply); the "share" option
  or button posts the public replay (no hidden card at all) in the channel. Rendering runs in a
  thread and replays are kept in a small cache keyed by (hand, perspective, language).
"""

from __future__ import annotations

import asyncio
import io
import logging
import math
import re
from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import StoppaBot
from bot.discord_utils import (
    UserFacingError,
    cmd_str,
    defer_if_slow,
    guarded,
    key,
    lang_for,
    lang_in_memory,
    report_interaction_error,
    send_public,
    server_currency,
    within_autocomplete,
)
from bot.discord_utils.components import carries, custom_id_of
from bot.discord_utils.numbers import NUMBER, checked_id, custom_id_number, echo, fits_id
from bot.i18n import t
from bot.i18n.currency import Currency
from bot.i18n.numbers import format_number
from bot.render.chart import ChartPoint, ChipChart, render_chart
from bot.render.hand_summary import PhaseFigures, PhaseSummary, phase_figures, summarize
from bot.render.replay import ReplayCache, render_replay
from bot.render.replay_frames import ReplaySetup, replay_frames
from bot.store import StoreContract
from bot.store.hand_rows import StoredHand
from bot.tables import is_cpu
from cogs.fair_text import replay_lines
from cogs.member_names import MemberNames

_log = logging.getLogger("stoppa.history")

COG_NAME = "HistoryCog"
GROUP = "stoppa"
PAGE_SIZE = 5
#: hands on the /stats chart
CHART_HANDS = 30
#: autocomplete choices for the hand option (Discord's limit is 25)
HAND_CHOICES = 25
REPLAY_FORMAT = "webp"
PAGE_PREFIX = "stoppa:history:page:"  # i18n: not user-facing
PAGE_TEMPLATE = PAGE_PREFIX + f"(?P<user>{NUMBER}):(?P<page>{NUMBER})"
SHARE_TEMPLATE = f"stoppa:history:share:(?P<hand>{NUMBER})"  # i18n: not user-facing
PAGE_PATTERN = re.compile(PAGE_TEMPLATE)
SHARE_PATTERN = re.compile(SHARE_TEMPLATE)


def _guild(interaction: discord.Interaction[StoppaBot]) -> int:
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    return interaction.guild_id


def _cog(interaction: discord.Interaction[StoppaBot]) -> HistoryCog:
    cog = next((c for c in interaction.client.cogs.values() if isinstance(c, HistoryCog)), None)
    if cog is None:
        raise RuntimeError("the history cog is not loaded")
    return cog


def _hand_label(
    hand: StoredHand, user: int, lang: str, currency: Currency | None = None
) -> str:
    """An autocomplete label: hand number, result (in the server's `currency`), and date
    (plain text: no markup there)."""
    when = datetime.fromtimestamp(hand.at, tz=UTC).strftime("%Y-%m-%d %H:%M UTC")
    net = hand.result.get(user, 0)
    return t("history.choice", lang, id=hand.id, when=when,
             net=format_number(net, lang, sign=True), currency=currency)


def summary_text(summary: PhaseSummary, lang: str) -> str:
    """How each phase went: "small points 1/4 · big point won · closed the stoppa"."""
    parts = [t("history.phase.small", lang, won=summary.small_won, total=summary.small_total)]
    parts.append(t(key("history.phase", "big_" + summary.big), lang))
    if summary.special is not None:
        parts.append(t(key("history.phase", "special_" + summary.special), lang))
    elif summary.closed:
        parts.append(t("history.phase.closed", lang, amount=summary.received))
    elif summary.paid:
        parts.append(t("history.phase.paid", lang, amount=summary.paid))
    return " · ".join(parts)


def history_line(hand: StoredHand, user: int, lang: str) -> str:
    """One hand of a history page."""
    seat = hand.seat_of(user)
    events = hand.event_log()
    summary = summarize(events, seat) if seat is not None else None
    net = hand.result.get(user, 0)
    head = t("history.line", lang, id=hand.id, when=f"<t:{int(hand.at)}:f>",
             channel=f"<#{hand.channel_id}>", net=format_number(net, lang, sign=True))
    return f"{head}\n{summary_text(summary, lang)}" if summary is not None else head


class HistoryPageButton(discord.ui.DynamicItem[discord.ui.Button], template=PAGE_TEMPLATE):
    """Previous/next page of a history; the custom id holds the player and the page."""

    def __init__(self, user: int, page: int, *, label: str = "", disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(
            label=label or str(page), style=discord.ButtonStyle.secondary, disabled=disabled,
            custom_id=f"{PAGE_PREFIX}{user}:{page}",
        ))
        self.user = user
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str], /
    ) -> HistoryPageButton:
        """Rebuild the button from a click (after a restart too)."""
        return cls(custom_id_number(match["user"]), custom_id_number(match["page"]),
                   label=getattr(item, "label", None) or "")

    @guarded
    async def callback(
        self, interaction: discord.Interaction[StoppaBot]
    ) -> None:
        """Show that page in place of the old one."""
        await _cog(interaction).turn_page(interaction, self.user, self.page)


class ShareReplayButton(discord.ui.DynamicItem[discord.ui.Button], template=SHARE_TEMPLATE):
    """Post the public replay of a hand in the channel."""

    def __init__(self, hand: int, *, label: str = "") -> None:
        super().__init__(discord.ui.Button(
            label=label or str(hand), style=discord.ButtonStyle.primary,
            custom_id=f"stoppa:history:share:{hand}",  # i18n: not user-facing
        ))
        self.hand = hand

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str], /
    ) -> ShareReplayButton:
        """Rebuild the button from a click (after a restart too)."""
        return cls(custom_id_number(match["hand"]), label=getattr(item, "label", None) or "")

    @guarded
    async def callback(
        self, interaction: discord.Interaction[StoppaBot]
    ) -> None:
        """Render (or take from the cache) the public replay and post it."""
        await _cog(interaction).send_replay(interaction, self.hand, share=True)


@app_commands.describe(member=cmd_str("history.cmd.member"), page=cmd_str("history.cmd.page"))
async def history_command(
    interaction: discord.Interaction[StoppaBot],
    member: discord.Member | None = None,
    page: app_commands.Range[int, 1, 10_000] = 1,
) -> None:
    """`/stoppa history [member] [page]`."""
    target = member or interaction.user
    if target.bot:
        raise UserFacingError("economy.no_bots")
    await _cog(interaction).show_history(interaction, target, page)


@app_commands.describe(hand=cmd_str("history.cmd.hand"), share=cmd_str("history.cmd.share"))
async def replay_command(
    interaction: discord.Interaction[StoppaBot], hand: int, share: bool = False
) -> None:
    """`/stoppa replay hand [share]`."""
    await _cog(interaction).send_replay(interaction, hand, share=share)


async def hand_autocomplete(
    interaction: discord.Interaction[StoppaBot], current: str
) -> list[app_commands.Choice[int]]:
    """The asker's last hands on this server, newest first."""
    cog = _cog(interaction)
    guild = _guild(interaction)
    lang = lang_in_memory(interaction)
    hands = await within_autocomplete(
        cog.store.player_hands(guild, interaction.user.id, limit=HAND_CHOICES), []
    )
    typed = current.strip().lstrip("#")
    currency = server_currency(interaction.client, guild)
    return [
        app_commands.Choice(name=_hand_label(h, interaction.user.id, lang, currency), value=h.id)
        for h in hands
        if not typed or str(h.id).startswith(typed)
    ]


class HistoryCog(commands.Cog, name=COG_NAME):
    """Hand history, replays, and the chart of `/stats`."""

    #: registered by the client's setup_hook so that old messages' buttons keep working
    dynamic_items = (HistoryPageButton, ShareReplayButton)

    def __init__(self, bot: StoppaBot) -> None:
        self.bot = bot
        self.names = MemberNames.of(bot)
        self.replays = ReplayCache()
        self._commands: list[app_commands.Command[Any, ..., Any]] = []
        #: replays being drawn, by cache key (a second identical request waits for the first)
        self._rendering: dict[tuple[int, int | None, str, str], asyncio.Future[bytes]] = {}

    @property
    def store(self) -> StoreContract:
        """The bot's store (open from `setup_hook` to `close`)."""
        return self.bot.open_store

    async def cog_load(self) -> None:
        """Add `history` and `replay` to the `/stoppa` group of the table cog."""
        history: app_commands.Command[Any, ..., Any] = app_commands.Command(
            name="history", description=cmd_str("history.cmd.history"), callback=history_command
        )
        replay: app_commands.Command[Any, ..., Any] = app_commands.Command(
            name="replay", description=cmd_str("history.cmd.replay"), callback=replay_command
        )
        replay.autocomplete("hand")(hand_autocomplete)
        self._commands = [history, replay]
        group = self.bot.tree.get_command(GROUP)
        for command in self._commands:
            if isinstance(group, app_commands.Group):
                group.add_command(command, override=True)
            else:  # no table cog: the commands stand alone
                _log.warning("no /%s group: /%s is a top-level command", GROUP, command.name)
                self.bot.tree.add_command(command, override=True)

    async def cog_unload(self) -> None:
        """Take the commands out of the group again."""
        group = self.bot.tree.get_command(GROUP)
        for command in self._commands:
            if isinstance(group, app_commands.Group) and command.parent is group:
                group.remove_command(command.name)
            else:
                self.bot.tree.remove_command(command.name)

    async def handle_orphan(self, interaction: discord.Interaction[StoppaBot]) -> bool:
        """A history or share button that discord.py handed to nobody (one that is no longer
        on its message as the client shows it): the custom id says everything, so it is
        answered as if the button were there (a page that no longer exists is refused
        politely). False for a custom id that is not ours."""
        if interaction.type is not discord.InteractionType.component:
            return False
        custom_id = custom_id_of(interaction) or ""
        page = PAGE_PATTERN.fullmatch(custom_id)
        share = SHARE_PATTERN.fullmatch(custom_id)
        if page is None and share is None:
            return False
        try:
            if page is not None:
                await self.turn_page(interaction, custom_id_number(page["user"]),
                                     custom_id_number(page["page"]))
            elif share is not None:
                await self.send_replay(interaction, custom_id_number(share["hand"]), share=True)
        except Exception as error:
            await report_interaction_error(interaction, error, where=custom_id)
        return True

    # -- history ----------------------------------------------------------------------------
    async def _page(self, guild: int, user: int, name: str, page: int, lang: str
                    ) -> tuple[discord.Embed, discord.ui.View]:
        total = await self.store.count_player_hands(guild, user)
        if total == 0:
            raise UserFacingError("history.errors.no_hands", name=name)
        pages = max(1, math.ceil(total / PAGE_SIZE))
        if not 1 <= page <= pages:  # (a page below 1 would be a negative OFFSET)
            raise UserFacingError("history.errors.page_out", pages=pages)
        hands = await self.store.player_hands(guild, user, limit=PAGE_SIZE,
                                              offset=(page - 1) * PAGE_SIZE)
        embed = discord.Embed(title=t("history.title", lang, name=name),
                              colour=discord.Colour.gold())
        embed.description = "\n\n".join(history_line(h, user, lang) for h in hands)
        embed.set_footer(text=t("history.footer", lang, page=page, pages=pages))
        view = discord.ui.View(timeout=None)
        if pages > 1:  # (one page: no buttons, whose custom ids would be the same)
            view.add_item(HistoryPageButton(user, max(1, page - 1), disabled=page <= 1,
                                            label=t("history.prev", lang)))
            view.add_item(HistoryPageButton(user, min(pages, page + 1), disabled=page >= pages,
                                            label=t("history.next", lang)))
        return embed, view

    async def show_history(self, interaction: discord.Interaction[StoppaBot],
    target: discord.abc.User,
                           page: int) -> None:
        """Answer `/stoppa history` privately with one page."""
        guild = _guild(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = await lang_for(interaction, self.store)
        embed, view = await self._page(guild, target.id, target.display_name, page, lang)
        await interaction.followup.send(embed=embed, view=view, ephemeral=True)

    async def turn_page(
        self, interaction: discord.Interaction[StoppaBot], user: int, page: int
    ) -> None:
        """A page button: the page replaces its own history message (or a polite word if it
        is gone). Pressed on any other message (a client may send any custom id with any
        message) it edits nothing: the page comes as a fresh private message."""
        guild = _guild(interaction)
        checked_id(user)
        own = carries(interaction.message, f"{PAGE_PREFIX}{user}:", ephemeral=True)
        if own:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        lang = await lang_for(interaction, self.store)
        name = (await self.names.names(guild, [user]))[user]
        try:
            embed, view = await self._page(guild, user, name, page, lang)
        except UserFacingError as error:
            await interaction.followup.send(error.text(lang), ephemeral=True)
            return
        if own:
            await interaction.edit_original_response(embed=embed, view=view)
        else:
            await interaction.followup.send(embed=embed, view=view, ephemeral=True)

    # -- replay -----------------------------------------------------------------------------
    async def replay_bytes(self, guild: int, hand: StoredHand, viewer: int | None, lang: str
                           ) -> bytes:
        """The replay of `hand` seen by seat `viewer` (None: public), from the cache or drawn
        in a thread."""
        cache_key = (hand.id, viewer, lang, REPLAY_FORMAT)
        data = self.replays.get(cache_key)
        if data is not None:
            return data
        pending = self._rendering.get(cache_key)
        if pending is None:  # the first request draws it; the same request meanwhile waits
            pending = asyncio.ensure_future(self._draw(guild, hand, viewer, lang, cache_key))
            self._rendering[cache_key] = pending
            pending.add_done_callback(lambda _: self._rendering.pop(cache_key, None))
        return await asyncio.shield(pending)

    async def _draw(self, guild: int, hand: StoredHand, viewer: int | None, lang: str,
                    cache_key: tuple[int, int | None, str, str]) -> bytes:
        names = await self.names.names(guild, hand.seats)
        setup = ReplaySetup(
            events=hand.event_log(),
            names=tuple(names[u] for u in hand.seats),
            hand_no=hand.hand_no,
            viewer=viewer,
            lang=lang,
            cpu=tuple(is_cpu(u) for u in hand.seats),
        )
        data = await asyncio.to_thread(_render, setup)
        self.replays.put(cache_key, data)
        return data

    async def send_replay(self, interaction: discord.Interaction[StoppaBot], hand_id: int, *,
                          share: bool) -> None:
        """Answer with the replay: the asker's own cards privately, or the public one shared.

        The hand is looked up before anything is said in public: a refusal (no such hand on
        this server) is always private, whether the store was quick or slow."""
        guild = _guild(interaction)
        if not fits_id(hand_id):
            raise UserFacingError("history.errors.no_hand", id=echo(hand_id))
        async with defer_if_slow(interaction):
            lang = await lang_for(interaction, self.store)
            hand = await self.store.stored_hand(guild, hand_id)
        if hand is None:
            raise UserFacingError("history.errors.no_hand", id=hand_id)
        if not interaction.response.is_done():  # (done: the look-up was slow, privately)
            await interaction.response.defer(ephemeral=not share, thinking=True)
        viewer = None if share else hand.seat_of(interaction.user.id)
        data = await self.replay_bytes(guild, hand, viewer, lang)
        message = "history.replay_shared" if share else (
            "history.replay_private" if viewer is not None else "history.replay_public")
        content = t(message, lang, id=hand.id, channel=f"<#{hand.channel_id}>",
                    when=f"<t:{int(hand.at)}:f>", user=interaction.user.mention)
        content = "\n".join([content, *replay_lines(hand, lang)])
        file = discord.File(io.BytesIO(data), filename=f"replay-{hand.id}.{REPLAY_FORMAT}")
        if share:
            await send_public(interaction, content, file=file,
                              allowed_mentions=discord.AllowedMentions.none())
            return
        view = discord.ui.View(timeout=None)
        view.add_item(ShareReplayButton(hand.id, label=t("history.share", lang)))
        await interaction.followup.send(content=content, file=file, view=view, ephemeral=True)

    # -- /stats -----------------------------------------------------------------------------
    async def stats_extras(self, guild: int, user: int, name: str, lang: str
                           ) -> tuple[PhaseFigures, bytes | None]:
        """Per-phase figures over the user's last hands and the chart of them (PNG), or
        (zeros, None) before the first hand."""
        hands = list(reversed(await self.store.player_hands(guild, user, limit=CHART_HANDS)))
        summaries: list[PhaseSummary] = []
        for hand in hands:
            seat = hand.seat_of(user)
            if seat is not None:
                summaries.append(summarize(hand.event_log(), seat))
        figures = phase_figures(summaries)
        if not summaries:
            return figures, None
        total = 0
        points = []
        for s in summaries:
            total += s.net
            points.append(ChartPoint(total=total, big_won=s.big == "won", closed=s.closed,
                                     special=s.special is not None))
        chart = ChipChart(points=tuple(points), player=name, lang=lang)
        return figures, await asyncio.to_thread(render_chart, chart)


def _render(setup: ReplaySetup) -> bytes:
    return render_replay(replay_frames(setup), REPLAY_FORMAT)


def stats_fields(figures: PhaseFigures, lang: str) -> list[tuple[str, str]]:
    """The per-phase figures of `/stats` as (name, value) embed fields."""
    return [
        (t("history.stats.small_won", lang), f"{figures.small_won_pct:.0f}%"),
        (t("history.stats.big_won", lang), f"{figures.big_won_pct:.0f}%"),
        (t("history.stats.closes", lang), format_number(figures.closes, lang)),
        (t("history.stats.average_paid", lang), format_number(round(figures.average_paid), lang)),
    ]


async def setup(bot: StoppaBot) -> None:
    """Extension entry point."""
    await bot.add_cog(HistoryCog(bot))

