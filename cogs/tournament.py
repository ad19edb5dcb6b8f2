"""`/tournament ...`: sit-and-go tournaments on Discord (issue 21), on the tournament service.

- `/tournament new` (managers, or any member when `/settings tournaments who:everyone`)
  answers with the public registration message: buy-in, seats, stakes, prizes, who is in,
  and Join / Leave / Add CPU / Start / Cancel buttons (`cogs.tournament_items`, restart-proof).
- `/tournament join|leave|addbot|start|cancel|status` do the same by command; the tournament
  option autocompletes the server's open tournaments and defaults to the one of this channel.
- When the last seat is taken (or the opener presses Start) the cog opens a thread for the
  table, as `/stoppa new` does (the channel itself when the bot may not), and asks the
  service to seat the entrants there; the table then plays through the ordinary table cog.
- On the table's `tournament_over` update the results go to the tournament's thread: an
  embed with places and prizes and the final standings image (`bot.render.standings`,
  rendered off the event loop).

Refusals (the service's `RankedError`, `TournamentError`, `TableError`, too few chips, a
stale button, not allowed) are short ephemeral replies in the user's language. The
registration message is edited through the clicking interaction when a button is pressed;
after a command it is edited by id. Nothing of a tournament lives only in memory: the
registration message's id, the table's channel and whether the results were posted are kept
in the tournament's row (`Posts`), and when a server becomes available the results a stopped
process never posted are posted.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import Awaitable, Callable, Coroutine
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
    is_manager,
    key,
    lang_for,
    lang_in_memory,
    report_interaction_error,
    send_ephemeral,
    send_public,
    server_currency,
    spoken,
    within_autocomplete,
)
from bot.discord_utils.access import in_thread, permission_names
from bot.discord_utils.components import carries, custom_id_of
from bot.discord_utils.errors import refusal_code, refusal_text
from bot.discord_utils.installs import server_command
from bot.discord_utils.numbers import checked_id, custom_id_number, fits_id, typed_number
from bot.i18n import t
from bot.ratings.errors import RankedError
from bot.render.standings import render_standings, standings_text
from bot.store import InsufficientFunds, StoreContract
from bot.store.errors import StoreError
from bot.tables import TableError, TableState, Update
from bot.tournaments import PAYOUTS, SCHEDULES, TournamentConfig
from bot.tournaments.info import TournamentInfo
from bot.tournaments.service import TournamentService
from bot.tournaments.state import Phase
from cogs.member_names import MemberNames
from cogs.table import CPU_LEVELS
from cogs.table_text import table_language
from cogs.tournament_items import (
    BUTTON_PATTERN,
    TournamentButton,
    custom_id,
    registration_view,
)
from cogs.tournament_text import (
    entrant_name,
    registration_embed,
    results_embed,
    schedule_name,
    standings_snapshot,
    status_embed,
)

_log = logging.getLogger("stoppa.tournament")

COG_NAME = "TournamentCog"
#: Discord's limit of autocomplete choices, and of a choice's name.
MAX_CHOICES = 25
CHOICE_LIMIT = 100
#: What the bot needs in a text channel to open the tournament's table in a thread.
THREAD_PERMISSIONS: tuple[str, ...] = ("create_public_threads", "send_messages_in_threads")
THREAD_NAME_LIMIT = 100
IMAGE_NAME = "standings.png"
#: Who may do what besides the opener and the managers: everyone may join and leave.
HOST_ACTIONS = {"cpu": "tournaments.error.not_host_cpu",
                "start": "tournaments.error.not_host_start",
                "cancel": "tournaments.error.not_host_cancel"}


def _guild(interaction: discord.Interaction[StoppaBot]) -> int:
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    return interaction.guild_id


def _channel(interaction: discord.Interaction[StoppaBot]) -> int:
    if interaction.channel_id is None:
        raise app_commands.NoPrivateMessage()
    return interaction.channel_id


def parse_number(text: str) -> int | None:
    """The tournament number typed or chosen ("3", "#3"), None when it is not one."""
    number = typed_number(text.strip().lstrip("#"))
    return number if number is not None and fits_id(number) else None


def choice_name(info: TournamentInfo, lang: str) -> str:
    """One autocomplete entry: "#3 · Regular · 2/4 · 250"."""
    seats = f"{len(info.entrants)}/{info.config.seats}"
    return " · ".join(
        (f"#{info.id}", schedule_name(info, lang), seats, str(info.config.buy_in))
    )[:CHOICE_LIMIT]


async def tournament_language(bot: StoppaBot, info: TournamentInfo) -> str:
    """What a tournament says in public (its messages, its table's thread): the server's
    pinned language, else its entrants' (in registration order, each the language kept with
    their entry), as a table speaks its players' (`table_language`)."""
    entrants = [e.user_id for e in info.entrants if e.cpu is None]
    return await table_language(bot, info.guild_id, entrants, info.languages)


@server_command
class TournamentCog(
    commands.GroupCog,
    name=COG_NAME,
    group_name="tournament",
    group_description=cmd_str("tournaments.cmd.group"),
):
    """Sit-and-go tournaments: commands, registration buttons, start, results."""

    #: Registered by the client's setup_hook so the buttons work after a restart.
    dynamic_items = (TournamentButton,)

    def __init__(self, bot: StoppaBot) -> None:
        self.bot = bot
        self.names = MemberNames.of(bot)
        #: the tournaments being started right now (a second Start waits for nothing)
        self.starting: set[int] = set()
        #: the tournaments whose results this process is posting right now
        self.posting: set[int] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        super().__init__()

    # -- life cycle -----------------------------------------------------------------------
    @property
    def service(self) -> TournamentService:
        """The tournament service (`bot.tournaments`)."""
        service = self.bot.tournaments
        if service is None:
            raise UserFacingError("errors.unexpected")
        return service

    @property
    def store(self) -> StoreContract | None:
        """The bot's store."""
        return self.bot.store

    async def cog_load(self) -> None:
        """Listen to the tables: a tournament table's last update carries the results."""
        if self.bot.tables is not None:
            self.bot.tables.subscribe(self._on_update)

    async def cog_unload(self) -> None:
        """Stop listening; let the results being posted finish."""
        if self.bot.tables is not None:
            self.bot.tables.unsubscribe(self._on_update)
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _on_update(self, update: Update) -> None:
        """The results of a tournament that ended; the registration message of one whose
        table closed before its end (called off: every buy-in refunded)."""
        if update.state.tournament is None:
            return
        if update.kind == "tournament_over":
            work = self._post_results(update.state.tournament.id, update.state.channel_id)
        elif update.kind == "closed":
            work = self._closed(update.state.tournament.id)
        else:
            return
        self._spawn(work, f"tournament_{update.kind}_{update.table_id}")

    def _spawn(self, work: Coroutine[Any, Any, None], name: str) -> None:
        task = asyncio.get_running_loop().create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @commands.Cog.listener()
    async def on_guild_available(self, guild: discord.Guild) -> None:
        """A server is there (at start, or back): post the results of its tournaments that
        were paid out but never posted (the process stopped in between)."""
        try:
            pending = await self.service.to_post(guild.id)
        except Exception:
            _log.exception("guild %s: the tournaments to post could not be read", guild.id)
            return
        for info in pending:
            self._spawn(self._post_results(info.id), f"tournament_results_{info.id}")

    async def _closed(self, tournament: int) -> None:
        """A tournament table closed: a tournament called off meanwhile shows it."""
        try:
            info = await self.service.info(tournament)
            if info.status is Phase.CANCELLED:
                await self._refresh(info)
        except Exception:
            _log.exception("tournament %s: its end could not be shown", tournament)

    # -- plumbing -------------------------------------------------------------------------
    async def _guard(
        self, interaction: discord.Interaction[StoppaBot],
        work: Callable[[str], Awaitable[None]], where: str,
    ) -> None:
        """Run `work(lang)`; refusals become short ephemeral replies, bugs are reported."""
        if interaction.guild_id is not None:
            self.names.remember(interaction.guild_id, interaction.user)
        lang = await lang_for(interaction, self.store)
        try:
            await work(lang)
        except Exception as error:
            if (isinstance(error, app_commands.AppCommandError)
                    and not isinstance(error, UserFacingError)):
                raise
            text = refusal_text(error, lang)
            if text is None:
                await report_interaction_error(interaction, error, where=where)
                return
            _log.info("refused %s user=%s: %s", where, interaction.user.id, refusal_code(error))
            await send_ephemeral(interaction, text)

    @staticmethod
    async def _defer(interaction: discord.Interaction[StoppaBot]) -> None:
        """A click: a silent update of its message; a command: a private "thinking"."""
        if interaction.response.is_done():
            return
        if interaction.type is discord.InteractionType.component:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)

    def _table_channel(self, info: TournamentInfo) -> int | None:
        """Where the tournament's table plays (None before the start)."""
        tables = self.bot.tables
        if info.table_id is not None and tables is not None:
            state = tables.state_by_id(info.table_id)
            if state is not None:
                return state.channel_id
        return info.posts.table_channel

    async def _resolve(
        self, interaction: discord.Interaction[StoppaBot], typed: str | None, *,
        registering: bool,
    ) -> TournamentInfo:
        """The tournament a command means: the one typed or chosen, else the one of this
        channel (its table, or a registration opened here), else the server's only one."""
        guild, channel = _guild(interaction), _channel(interaction)
        if typed:
            number = parse_number(typed)
            if number is None:
                raise UserFacingError("tournaments.error.unknown", text=typed[:40])
            try:
                info = await self.service.info(number)
            except StoreError:
                raise UserFacingError("tournaments.error.unknown", text=typed[:40]) from None
            if info.guild_id != guild:
                raise UserFacingError("tournaments.error.unknown", text=typed[:40])
            return info
        tables = self.bot.tables
        state = tables.state(channel) if tables is not None else None
        if state is not None and state.tournament is not None and not registering:
            return await self.service.info(state.tournament.id)
        candidates = await self.service.open_in(guild)
        if registering:
            candidates = [c for c in candidates if c.status is Phase.REGISTERING]
        here = [c for c in candidates if c.channel_id == channel]
        if len(here) == 1:
            return here[0]
        if len(candidates) == 1:
            return candidates[0]
        raise UserFacingError("tournaments.error.which" if candidates
                              else "tournaments.error.none_here")

    def _may_open(self, interaction: discord.Interaction[StoppaBot], open_to_all: bool) -> None:
        if not open_to_all and not is_manager(interaction):
            raise UserFacingError("tournaments.error.not_allowed")

    @staticmethod
    def _check_host(interaction: discord.Interaction[StoppaBot], info: TournamentInfo,
                    action: str) -> None:
        """Start, cancel and CPU entrants are for the opener and the managers."""
        if action in HOST_ACTIONS and interaction.user.id != info.opened_by and not is_manager(
            interaction
        ):
            raise UserFacingError(HOST_ACTIONS[action])

    async def _refresh(self, info: TournamentInfo,
                       interaction: discord.Interaction[StoppaBot] | None = None) -> None:
        """Show `info` on the registration message: through the click on it when there is
        one, else by the message id the cog knows (nothing when it knows none)."""
        lang = await tournament_language(self.bot, info)
        currency = server_currency(self.bot, info.guild_id)
        embed = registration_embed(info, lang, currency, table_channel=self._table_channel(info))
        view = registration_view(info.id, lang) if info.status is Phase.REGISTERING else None
        message = interaction.message if interaction is not None else None
        clicked = (  # on its own registration message (a client may send any custom id)
            interaction is not None and interaction.type is discord.InteractionType.component
            and carries(message, custom_id(info.id, ""), ephemeral=False)
        )
        try:
            if clicked and interaction is not None and message is not None:
                await self._note_registration(info, (message.channel.id, message.id))
                await interaction.edit_original_response(embed=embed, view=view)
                return
            known = info.posts.registration or (
                await self.service.info(info.id)).posts.registration
            if known is None:
                return
            channel = self.bot.get_partial_messageable(known[0], guild_id=info.guild_id)
            await self.bot.requests.acquire()  # every bot-token request: the one budget
            await channel.get_partial_message(known[1]).edit(embed=embed, view=view)
        except discord.HTTPException as error:
            _log.info("tournament %s: registration message not updated (%s)", info.id,
                      error.status)

    # -- the actions (commands and buttons) -----------------------------------------------
    async def _act(self, interaction: discord.Interaction[StoppaBot], lang: str,
                   info: TournamentInfo, action: str, level: str = "easy") -> None:
        """Join, leave, add a CPU, start or cancel `info`; the registration message shows
        the result; the last seat taken starts the tournament."""
        user = interaction.user.id
        self._check_host(interaction, info, action)
        if info.status in (Phase.FINISHED, Phase.CANCELLED):
            raise UserFacingError("tournaments.error.over", number=info.id)
        if action != "cancel" and info.status is Phase.RUNNING:
            raise UserFacingError("tournaments.error.already_started", number=info.id)
        if info.id in self.starting:
            raise UserFacingError("tournaments.error.starting", number=info.id)
        buy_in = info.config.buy_in
        if action == "join":
            try:
                after = await self.service.join(info.id, user, spoken(interaction))
            except InsufficientFunds as error:
                raise UserFacingError("tournaments.error.not_enough_chips", buy_in=buy_in,
                                      balance=error.balance) from None
            text = t("tournaments.reply.joined" if buy_in else "tournaments.reply.joined_free",
                     lang, number=info.id, buy_in=buy_in,
                     currency=server_currency(self.bot, info.guild_id))
        elif action == "leave":
            after = await self.service.leave(info.id, user)
            text = t("tournaments.reply.left" if buy_in else "tournaments.reply.left_free",
                     lang, number=info.id, buy_in=buy_in,
                     currency=server_currency(self.bot, info.guild_id))
        elif action == "cpu":
            after = await self.service.add_cpu(info.id, user, level)
            text = t("tournaments.reply.cpu_added", lang, number=info.id,
                     level=t(key("table.cmd.level", level), lang))
        elif action == "cancel":
            after = await self.service.cancel(info.id, user)
            text = t("tournaments.reply.cancelled", lang, number=info.id)
        else:  # start (the service refuses while a seat is free)
            await self._begin(interaction, lang, info)
            return
        await self._refresh(after, interaction)
        if after.status is Phase.REGISTERING and after.seats_left == 0:
            try:
                await self._begin(interaction, lang, after)
                return
            except (RankedError, StoreError, TableError) as error:
                # the entry stands; the start can be tried again with Start
                _log.info("tournament %s did not start: %s", after.id, error)
                text = f"{text}\n{refusal_text(error, lang)}"
        await send_ephemeral(interaction, text)

    async def _begin(self, interaction: discord.Interaction[StoppaBot], lang: str,
                     info: TournamentInfo) -> None:
        """Open the table (in a new thread of the tournament's channel when the bot may)
        and deal; tell the players where."""
        if info.id in self.starting:
            raise UserFacingError("tournaments.error.starting", number=info.id)
        self.starting.add(info.id)
        try:
            state, cannot = await self._open_table(interaction, info)
        finally:
            self.starting.discard(info.id)
        after = state.tournament or await self.service.info(info.id)
        await self._refresh(after, interaction)
        public = await tournament_language(self.bot, info)
        await self._welcome(after, state, public)
        place = f"<#{state.channel_id}>"
        text = t("tournaments.reply.started", lang, number=info.id, where=place)
        if cannot:
            text += "\n" + t("tournaments.no_threads", lang,
                             permissions=permission_names(cannot, lang))
        await send_ephemeral(interaction, text)

    async def _open_table(
        self, interaction: discord.Interaction[StoppaBot], info: TournamentInfo
    ) -> tuple[TableState, list[str]]:
        """A thread for the table and the service's start there; the channel itself when
        threads are not possible (with the permissions missing)."""
        parent = self.bot.get_channel(info.channel_id)
        cannot: list[str] = []
        thread: discord.Thread | None = None
        if isinstance(parent, discord.TextChannel):
            if interaction.channel_id == info.channel_id and not in_thread(interaction):
                perms = interaction.app_permissions
                cannot = [] if perms.administrator else [
                    name for name in THREAD_PERMISSIONS if not getattr(perms, name)
                ]
            if not cannot:
                public = await tournament_language(self.bot, info)
                name = t("tournaments.thread_name", public, number=info.id)
                try:
                    await self.bot.requests.acquire()
                    thread = await parent.create_thread(
                        name=name[:THREAD_NAME_LIMIT], type=discord.ChannelType.public_thread
                    )
                except discord.Forbidden:
                    cannot = ["create_public_threads"]
        if thread is None:
            return await self.service.start(info.id, channel=info.channel_id,
                                            own_thread=False), cannot
        try:
            return await self.service.start(info.id, channel=thread.id, own_thread=True), cannot
        except Exception:
            with contextlib.suppress(discord.HTTPException):
                await self.bot.requests.acquire()
                await thread.edit(archived=True)
            raise

    async def _welcome(self, info: TournamentInfo, state: TableState, lang: str) -> None:
        """A line at the table naming the players (the members are pinged once, here)."""
        players = t("tournaments.separator", lang).join(
            entrant_name(info, e.user_id, lang) for e in info.entrants
        )
        text = t("tournaments.thread_welcome", lang, number=info.id, players=players,
                 stack=info.config.starting_stack, hands=info.config.schedule.hands_per_level)
        humans = [discord.Object(e.user_id) for e in info.entrants if e.cpu is None
                  and e.user_id > 0]
        channel = self.bot.get_partial_messageable(state.channel_id, guild_id=info.guild_id)
        with contextlib.suppress(discord.HTTPException):
            await self.bot.requests.acquire()
            await channel.send(text, allowed_mentions=discord.AllowedMentions(
                users=humans, roles=False, everyone=False))

    async def _note_registration(self, info: TournamentInfo, message: tuple[int, int]) -> None:
        """Keep the registration message's channel and id in the tournament's row."""
        if info.posts.registration != message:
            await self.service.note_posts(info.id, registration=message)

    async def _post_results(self, tournament: int, channel_id: int | None = None) -> None:
        """The results in the tournament's thread (`channel_id`, else the one kept in its
        row): the embed and the standings image, then the mark that they are posted (a
        process stopped in between posts them at its next start). Once per process at a
        time; nothing when already posted."""
        if tournament in self.posting:
            return
        self.posting.add(tournament)
        try:
            info = await self.service.info(tournament)
            where = channel_id or info.posts.table_channel
            if info.status is Phase.FINISHED and not info.posts.results_posted and where:
                await self._send_results(info, where)
        except Exception:
            _log.exception("tournament %s: the results could not be posted", tournament)
        finally:
            self.posting.discard(tournament)

    async def _send_results(self, info: TournamentInfo, channel_id: int) -> None:
        """Send the results to `channel_id`, mark them posted, show the end on the
        registration message and archive the tournament's own thread."""
        guild = self.bot.get_guild(info.guild_id)
        lang = await tournament_language(self.bot, info)
        currency = server_currency(self.bot, info.guild_id)
        humans = [e.user_id for e in info.entrants if e.cpu is None and e.user_id > 0]
        names = await self.names.names(info.guild_id, humans)
        snap = standings_snapshot(info, lang, names, server=guild.name if guild else "",
                                  currency=currency)
        png = await asyncio.to_thread(render_standings, snap)
        file = discord.File(io.BytesIO(png), filename=IMAGE_NAME,
                            description=standings_text(snap)[:1000])
        channel = self.bot.get_partial_messageable(channel_id, guild_id=info.guild_id)
        await self.bot.requests.acquire()
        await channel.send(embed=results_embed(info, lang, currency, IMAGE_NAME),
                           file=file, allowed_mentions=discord.AllowedMentions.none())
        await self.service.note_posts(info.id, results_posted=True)
        await self._refresh(info)
        if channel_id != info.channel_id:  # the tournament's own thread
            await self._archive(channel_id)

    async def _archive(self, channel_id: int) -> None:
        """Archive the tournament's own thread once the results are in it."""
        try:
            thread = self.bot.get_channel(channel_id)
            if thread is None:
                await self.bot.requests.acquire()
                thread = await self.bot.fetch_channel(channel_id)
            if isinstance(thread, discord.Thread):
                await self.bot.requests.acquire()
                await thread.edit(archived=True)
        except (discord.HTTPException, discord.InvalidData) as error:
            _log.info("tournament thread %s not archived (%s)", channel_id, error)

    # -- components -----------------------------------------------------------------------
    async def on_tournament_button(
        self, interaction: discord.Interaction[StoppaBot], button: TournamentButton
    ) -> None:
        """A registration button was pressed."""

        async def work(lang: str) -> None:
            if carries(interaction.message, custom_id(button.tournament, ""), ephemeral=False):
                await self._defer(interaction)  # its registration message shows the result
            else:  # pressed with another message: that one is left alone
                await interaction.response.defer(ephemeral=True, thinking=True)
            try:
                info = await self.service.info(checked_id(button.tournament))
            except StoreError:
                raise UserFacingError("tournaments.error.over", number=button.tournament) from None
            if info.guild_id != interaction.guild_id:
                raise UserFacingError("tournaments.error.over", number=button.tournament)
            await self._act(interaction, lang, info, button.action)

        await self._guard(interaction, work, f"tournament_button_{button.action}")

    async def handle_orphan(self, interaction: discord.Interaction[StoppaBot]) -> bool:
        """A registration button of an older version of the message: handled as if it were
        still there (the checks refuse it politely when it is stale)."""
        if interaction.type is not discord.InteractionType.component:
            return False
        found = BUTTON_PATTERN.fullmatch(custom_id_of(interaction) or "")
        if found is None:
            return False
        await self.on_tournament_button(
            interaction, TournamentButton(custom_id_number(found["tournament"]), found["action"])
        )
        return True

    # -- slash commands -------------------------------------------------------------------
    @app_commands.command(name="new", description=cmd_str("tournaments.cmd.new"))
    @app_commands.describe(
        buy_in=cmd_str("tournaments.cmd.new_buy_in"),
        seats=cmd_str("tournaments.cmd.new_seats"),
        schedule=cmd_str("tournaments.cmd.new_schedule"),
        payout=cmd_str("tournaments.cmd.new_payout"),
        starting_stack=cmd_str("tournaments.cmd.new_starting_stack"),
        hands_per_level=cmd_str("tournaments.cmd.new_hands_per_level"),
    )
    @app_commands.choices(
        schedule=[choice(key("tournaments.schedule", name), name) for name in SCHEDULES],
        payout=[choice(key("tournaments.payout", name), name) for name in PAYOUTS],
    )
    async def new(
        self,
        interaction: discord.Interaction[StoppaBot],
        buy_in: app_commands.Range[int, 0, 1_000_000_000],
        seats: app_commands.Range[int, 3, 6],
        schedule: str = "regular",
        payout: str = "winner_takes_all",
        starting_stack: app_commands.Range[int, 1, 10_000_000] | None = None,
        hands_per_level: app_commands.Range[int, 1, 100] | None = None,
    ) -> None:
        """Open a tournament: the public registration message with its buttons."""

        async def work(lang: str) -> None:
            guild, channel = _guild(interaction), _channel(interaction)
            config = TournamentConfig.create(
                buy_in=buy_in, seats=seats, starting_stack=starting_stack, schedule=schedule,
                payout=payout, hands_per_level=hands_per_level,
            )
            settings = self.bot.languages.settings(guild)
            async with defer_if_slow(interaction):  # nothing public before the checks
                if settings is None and self.store is not None:
                    settings = await self.store.server_settings(guild)
                self._may_open(interaction, bool(settings and settings.tournaments_open))
                info = await self.service.create(guild, channel, interaction.user.id, config)
                public = await table_language(self.bot, guild, [interaction.user.id])
            embed = registration_embed(info, public, server_currency(self.bot, guild))
            view = registration_view(info.id, public)
            message = await send_public(interaction, embed=embed, view=view)
            if message is not None:
                await self._note_registration(info, (channel, message.id))

        await self._guard(interaction, work, "tournament_new")

    async def _command(self, interaction: discord.Interaction[StoppaBot], tournament: str | None,
                       action: str, level: str = "easy") -> None:
        async def work(lang: str) -> None:
            await self._defer(interaction)
            info = await self._resolve(interaction, tournament,
                                       registering=action != "cancel")
            await self._act(interaction, lang, info, action, level)

        await self._guard(interaction, work, f"tournament_{action}")

    @app_commands.command(name="join", description=cmd_str("tournaments.cmd.join"))
    @app_commands.describe(tournament=cmd_str("tournaments.cmd.tournament"))
    async def join(self, interaction: discord.Interaction[StoppaBot],
                   tournament: str | None = None) -> None:
        """Register for a tournament (pays the buy-in)."""
        await self._command(interaction, tournament, "join")

    @app_commands.command(name="leave", description=cmd_str("tournaments.cmd.leave"))
    @app_commands.describe(tournament=cmd_str("tournaments.cmd.tournament"))
    async def leave(self, interaction: discord.Interaction[StoppaBot],
                    tournament: str | None = None) -> None:
        """Withdraw before the start (refunded)."""
        await self._command(interaction, tournament, "leave")

    @app_commands.command(name="addbot", description=cmd_str("tournaments.cmd.addbot"))
    @app_commands.describe(level=cmd_str("tournaments.cmd.addbot_level"),
                           tournament=cmd_str("tournaments.cmd.tournament"))
    @app_commands.choices(level=[choice(key("table.cmd.level", k), k) for k in CPU_LEVELS])
    async def addbot(self, interaction: discord.Interaction[StoppaBot], level: str = "easy",
                     tournament: str | None = None) -> None:
        """Register a CPU player."""
        await self._command(interaction, tournament, "cpu", level)

    @app_commands.command(name="start", description=cmd_str("tournaments.cmd.start"))
    @app_commands.describe(tournament=cmd_str("tournaments.cmd.tournament"))
    async def start(self, interaction: discord.Interaction[StoppaBot],
                    tournament: str | None = None) -> None:
        """Start now, with the players registered."""
        await self._command(interaction, tournament, "start")

    @app_commands.command(name="cancel", description=cmd_str("tournaments.cmd.cancel"))
    @app_commands.describe(tournament=cmd_str("tournaments.cmd.tournament"))
    async def cancel(self, interaction: discord.Interaction[StoppaBot],
                     tournament: str | None = None) -> None:
        """Call off a tournament, refunding every buy-in."""
        await self._command(interaction, tournament, "cancel")

    @app_commands.command(name="status", description=cmd_str("tournaments.cmd.status"))
    @app_commands.describe(tournament=cmd_str("tournaments.cmd.tournament"))
    async def status(self, interaction: discord.Interaction[StoppaBot],
                     tournament: str | None = None) -> None:
        """Level, stakes, stacks, places and prizes: public where the tournament is (its
        registration channel or its table), private elsewhere."""

        async def work(lang: str) -> None:
            async with defer_if_slow(interaction):
                info = await self._resolve(interaction, tournament, registering=False)
            table_channel = self._table_channel(info)
            here = interaction.channel_id in (info.channel_id, table_channel)
            public = await tournament_language(self.bot, info) if here else lang
            embed = status_embed(info, public, server_currency(self.bot, info.guild_id),
                                 table_channel=table_channel)
            if here and not interaction.response.is_done():
                await interaction.response.send_message(
                    embed=embed, allowed_mentions=discord.AllowedMentions.none())
                return
            await send_ephemeral(interaction, embed=embed)

        await self._guard(interaction, work, "tournament_status")

    @join.autocomplete("tournament")
    @leave.autocomplete("tournament")
    @addbot.autocomplete("tournament")
    @start.autocomplete("tournament")
    @cancel.autocomplete("tournament")
    @status.autocomplete("tournament")
    async def tournament_choices(
        self, interaction: discord.Interaction[StoppaBot], current: str
    ) -> list[app_commands.Choice[str]]:
        """The server's open tournaments (a slow store gives none rather than an error)."""
        service = self.bot.tournaments
        if interaction.guild_id is None or service is None:
            return []
        lang = lang_in_memory(interaction)
        found = await within_autocomplete(service.open_in(interaction.guild_id), [])
        typed = current.strip().lstrip("#").casefold()
        out = []
        for info in found:
            name = choice_name(info, lang)
            if typed and typed not in name.casefold():
                continue
            out.append(app_commands.Choice(name=name, value=str(info.id)))
        return out[:MAX_CHOICES]


async def setup(bot: StoppaBot) -> None:
    """Load the tournament cog."""
    await bot.add_cog(TournamentCog(bot))


__all__ = ["TournamentCog", "setup"]
