"""`/stoppa ...`: the game table on Discord (issue 7), on top of the table service.

Slash commands (group `/stoppa`): new, join, leave, start, addbot, hand, bet, call, raise,
pass, declare, play, status, round, end. The same actions are buttons of the public table
message (see `cogs.table_items`), which `cogs.table_publisher` keeps up to date.

Rules of the house:
- the cog checks who and what, turns it into an engine action and asks `bot.tables`; the rules
  and the state live in the service and the engine;
- a hand only ever goes out ephemeral, to the player's own interaction (image + text);
- every refusal is a short ephemeral message in the user's language; unexpected errors are
  logged with the interaction and answered politely (`report_interaction_error`);
- slow work (service calls that may wait on a table's lock, rendering) is deferred first.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import StoppaBot
from bot.discord_utils import (
    UserFacingError,
    choice,
    cmd_str,
    is_manager,
    lang_for,
    lang_in_memory,
    report_interaction_error,
    send_ephemeral,
    server_currency,
    submitted_values,
)
from bot.discord_utils.access import in_thread, missing_here, permission_names
from bot.engine import (
    Action,
    Bet,
    Call,
    Declare,
    IllegalAction,
    Pass,
    Play,
    Raise,
    parse_action,
)
from bot.i18n import t
from bot.i18n.cards import card_name
from bot.render import hand_alt_text, render_hand, render_table, table_alt_text
from bot.render.from_state import hand_snapshot, table_snapshot
from bot.store import StoreContract
from bot.tables import PlayerHand, TableError, TableService, TableState, is_cpu
from bot.tables.limits import MAX_PLAYERS
from cogs.card_input import typed_cards, typed_play, typed_rank
from cogs.table_items import (
    BUTTON_PATTERN,
    COG_NAME,
    MODAL_TEMPLATE,
    SELECT_PATTERN,
    AmountModal,
    PickSelect,
    TableButton,
    action_panel,
)
from cogs.table_publisher import IMAGE_NAME, TablePublisher
from cogs.table_text import (
    NameBook,
    cpu_flags,
    done_text,
    hand_text,
    key_of,
    mention,
    refusal_text,
    render_names,
    render_view,
    table_embed,
    table_language,
)

_log = logging.getLogger("stoppa.table")

CPU_LEVELS: tuple[str, ...] = ("easy", "hard", "random")
#: Discord's limit of autocomplete choices.
MAX_CHOICES = 25
CONTENT_LIMIT = 2000
#: What the bot needs in a text channel to open a table in a thread of its own.
THREAD_PERMISSIONS: tuple[str, ...] = ("create_public_threads", "send_messages_in_threads")
#: Discord's limit of a thread name.
THREAD_NAME_LIMIT = 100


def _guild(interaction: discord.Interaction[StoppaBot]) -> int:
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    return interaction.guild_id


def _channel(interaction: discord.Interaction[StoppaBot]) -> int:
    channel_id = interaction.channel_id
    if channel_id is None:
        raise app_commands.NoPrivateMessage()
    return channel_id


@app_commands.guild_only()
class TableCog(
    commands.GroupCog,
    name=COG_NAME,
    group_name="stoppa",
    group_description=cmd_str("table.cmd.group"),
):
    """The Stoppa table of each channel: commands, buttons, and the public message."""

    #: Registered by the client's setup_hook (`bot.add_dynamic_items`) so that the buttons of
    #: messages sent before a restart keep working.
    dynamic_items = (TableButton, PickSelect)

    def __init__(self, bot: StoppaBot) -> None:
        self.bot = bot
        self.names = NameBook(bot)
        self.publisher = TablePublisher(bot, self.names, opted_out=bot.pings.opted_out)
        self.publisher.after_close = self._archive
        super().__init__()

    # -- life cycle -----------------------------------------------------------------------
    @property
    def service(self) -> TableService:
        """The table service (`bot.tables`)."""
        service = self.bot.tables
        if service is None:
            raise UserFacingError("errors.unexpected")
        return service

    @property
    def store(self) -> StoreContract | None:
        """The bot's store."""
        return self.bot.store

    async def cog_load(self) -> None:
        """Listen to the service and refresh the message of every table resumed at start."""
        service = self.bot.tables
        if service is None:
            _log.warning("no table service: the table commands will refuse politely")
            return
        service.subscribe(self._on_update)
        for state in service.tables():
            self.publisher.refresh(state, seed_events=True)

    async def cog_unload(self) -> None:
        """Stop listening and stop the publisher's workers."""
        service = self.bot.tables
        if service is not None:
            service.unsubscribe(self._on_update)
        await self.publisher.close()

    async def _on_update(self, update: Any) -> None:
        self.publisher.push(update)

    # -- where a table can no longer be -----------------------------------------------------
    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A channel was deleted: its table closes, the hand in progress refunded (its
        threads come as `raw_thread_delete`)."""
        await self._close_gone(channel.guild.id, channel.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A thread was deleted (cached or not; `on_thread_delete` only sees cached ones)."""
        await self._close_gone(payload.guild_id, payload.thread_id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot left the server (kicked, or the server deleted): every table there closes,
        refunded."""
        service = self.bot.tables
        if service is None:
            return
        try:
            closed = await service.close_guild(guild.id)
        except Exception:
            _log.exception("could not close the tables of a server the bot left")
            return
        for state in closed:
            _log.info("table %s closed: the bot left its server", state.table_id)

    async def _archive(self, state: TableState) -> None:
        """A table that had a thread of its own closed (its last message is shown): archive
        the thread. A thread that is gone or cannot be archived is only logged."""
        if not state.own_thread:
            return
        try:
            thread = self.bot.get_channel(state.channel_id)
            if thread is None:
                await self.bot.requests.acquire()
                thread = await self.bot.fetch_channel(state.channel_id)
            if isinstance(thread, discord.Thread):
                await self.bot.requests.acquire()
                await thread.edit(archived=True)
        except discord.HTTPException as error:
            _log.info("table %s: its thread could not be archived (%s)", state.table_id,
                      error.status)
        except discord.InvalidData:
            _log.info("table %s: its thread could not be found to archive", state.table_id)

    async def _close_gone(self, guild: int, channel: int) -> None:
        service = self.bot.tables
        if service is None:
            return
        try:
            state = await service.close_channel(guild, channel)
        except Exception:
            _log.exception("could not close the table of a deleted channel")
            return
        if state is not None:
            _log.info("table %s closed: its channel was deleted", state.table_id)

    # -- plumbing -------------------------------------------------------------------------
    async def _guard(
        self, interaction: discord.Interaction[StoppaBot], work: Callable[[str], Awaitable[None]],
        where: str, *, table: int | None = None,
    ) -> None:
        """Run `work(lang)`; refusals become short ephemeral replies, bugs are reported.

        A stale click (`stale_button`) of a `table` where it is now the user's turn gets a
        fresh action panel with its refusal."""
        if interaction.guild_id is not None:
            self.names.remember(interaction.guild_id, interaction.user)
        lang = await lang_for(interaction, self.store)
        hidden = self._hidden_here(interaction)
        try:
            await work(lang)
        except (TableError, IllegalAction) as error:
            # the code only: params may name a card of the player's hand
            _log.info("refused %s user=%s: %s", where, interaction.user.id,
                      getattr(error, "code", type(error).__name__))
            text, view = refusal_text(error, lang), None
            if getattr(error, "code", None) == "no_table" and self._tables_elsewhere(interaction):
                text = f"{text}\n{t('living.list.hint', lang)}"
            if table is not None and getattr(error, "code", None) == "stale_button":
                fresh = self._fresh_panel(table, interaction.user.id, lang)
                if fresh is not None:
                    text, view = f"{text}\n{fresh[0]}", fresh[1]
            await send_ephemeral(interaction, text[:CONTENT_LIMIT], view=view)
        except UserFacingError as error:
            _log.info("refused %s user=%s: %s", where, interaction.user.id, error.key)
            await send_ephemeral(interaction, error.text(lang))
        except app_commands.AppCommandError:
            raise
        except Exception as error:
            await report_interaction_error(interaction, error, where=where)
        await self._welcome_back(interaction)
        if hidden and self._hidden_table(interaction) is not None:  # not closed meanwhile
            await send_ephemeral(interaction, t("access.table_hidden", lang,
                                                permissions=permission_names(hidden, lang)))

    def _tables_elsewhere(self, interaction: discord.Interaction[StoppaBot]) -> bool:
        """Whether this server has open tables (in other channels or threads): a slash
        command's "no table here" then points to `/stoppa tables`."""
        if interaction.type is not discord.InteractionType.application_command:
            return False
        service, guild = self.bot.tables, interaction.guild_id
        return service is not None and guild is not None and bool(service.open_tables(guild))

    async def _welcome_back(self, interaction: discord.Interaction[StoppaBot]) -> None:
        """Any table command of a sat-out player (answered by now) brings them back."""
        service, guild = self.bot.tables, interaction.guild_id
        if service is None or guild is None:
            return
        state = service.table_of(guild, interaction.user.id)
        seat = state.seat_of(interaction.user.id) if state is not None else None
        if seat is None or not seat.away:
            return
        with contextlib.suppress(TableError):  # closed meanwhile
            await service.back(guild, interaction.user.id)

    def _hidden_here(self, interaction: discord.Interaction[StoppaBot]) -> list[str]:
        """When the table of this channel cannot be shown (Discord refused the bot the
        channel): the permissions the bot still lacks here, to tell the player; when none is
        missing any more, the publisher tries again (and the clock resumes if that works)."""
        table = self._hidden_table(interaction)
        if table is None:
            return []
        missing = missing_here(interaction)
        if not missing:
            self.publisher.retry(table)
        return missing

    def _hidden_table(self, interaction: discord.Interaction[StoppaBot]) -> int | None:
        """The id of this channel's open table when its message cannot be shown."""
        service = self.bot.tables
        channel = interaction.channel_id
        state = service.state(channel) if service is not None and channel is not None else None
        if state is None or not self.publisher.hidden(state.table_id):
            return None
        return int(state.table_id)

    def _fresh_panel(self, table: int, user: int, lang: str
                     ) -> tuple[str, discord.ui.View] | None:
        """The action panel of `user` at `table` when it is their turn now, else None."""
        service = self.bot.tables
        state = service.state_by_id(table) if service is not None else None
        if service is None or state is None or state.to_act != user:
            return None
        try:
            info = service.hand_for(state.guild_id, state.channel_id, user)
        except TableError:
            return None
        return action_panel(table, info, lang)

    async def _think(self, interaction: discord.Interaction[StoppaBot]) -> None:
        """Defer privately (a "thinking" ephemeral reply) unless already answered."""
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)

    async def _say(self, interaction: discord.Interaction[StoppaBot], text: str) -> None:
        """Answer a deferred interaction privately."""
        await send_ephemeral(interaction, text)

    # -- table actions (commands and buttons) ---------------------------------------------
    async def _open(self, interaction: discord.Interaction[StoppaBot], lang: str) -> None:
        """In a text channel: a new public thread for the table (one short message in the
        channel says where), or the channel itself when the bot may not make threads there
        (saying why). In a thread: the table opens there, unless it has one."""
        missing = missing_here(interaction)
        if missing:  # the table could not be shown here: refuse before anything is opened
            raise UserFacingError("access.missing",
                                  permissions=permission_names(missing, lang))
        guild, channel, user = _guild(interaction), _channel(interaction), interaction.user.id
        parent = interaction.channel
        if in_thread(interaction) or not isinstance(parent, discord.TextChannel):
            if in_thread(interaction) and self.service.state(channel) is not None:
                raise UserFacingError("living.thread.has_table")
            await self._think(interaction)
            await self.service.open_table(guild, channel, user)
            return await self._say(interaction, t("table.reply.opened", lang))
        perms = interaction.app_permissions
        cannot = [] if perms.administrator else [
            name for name in THREAD_PERMISSIONS if not getattr(perms, name)
        ]
        await self._think(interaction)
        if not cannot:
            await self.service.check_can_open(guild, user)
            name = t("living.thread.name", lang, player=interaction.user.display_name)
            await self.bot.requests.acquire()
            try:
                thread = await parent.create_thread(
                    name=name[:THREAD_NAME_LIMIT], type=discord.ChannelType.public_thread
                )
            except discord.Forbidden:
                cannot = ["create_public_threads"]
            else:
                return await self._open_in_thread(interaction, lang, parent, thread)
        await self.service.open_table(guild, channel, user)
        why = t("living.thread.no_threads", lang, permissions=permission_names(cannot, lang))
        await self._say(interaction, f"{t('table.reply.opened', lang)}\n{why}")

    async def _open_in_thread(
        self, interaction: discord.Interaction[StoppaBot], lang: str,
        parent: discord.TextChannel, thread: discord.Thread,
    ) -> None:
        """Open the table in the thread just made for it, then say so in the channel."""
        guild, user = _guild(interaction), interaction.user.id
        try:
            await self.service.open_table(guild, thread.id, user, own_thread=True)
        except Exception:
            await self.bot.requests.acquire()
            with contextlib.suppress(discord.HTTPException):
                await thread.edit(archived=True)
            raise
        public = await table_language(self.bot, guild)
        await self.bot.requests.acquire()
        with contextlib.suppress(discord.HTTPException):  # the table is open all the same
            await parent.send(
                t("living.thread.opened_here", public, player=interaction.user.mention,
                  thread=thread.mention),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        await self._say(interaction, t("living.thread.opened_reply", lang,
                                       thread=thread.mention))

    async def _join(self, interaction: discord.Interaction[StoppaBot], lang: str, guild: int,
                    channel: int) -> None:
        await self._think(interaction)
        await self.service.join(guild, channel, interaction.user.id)
        await self._say(interaction, t("table.reply.joined", lang))

    async def _leave(self, interaction: discord.Interaction[StoppaBot], lang: str, guild: int,
                     channel: int) -> None:
        await self._think(interaction)
        state: TableState = await self.service.leave(guild, channel, interaction.user.id)
        still = state.seat_of(interaction.user.id) is not None and state.status != "closed"
        await self._say(interaction, t("table.reply.leaving" if still else "table.reply.left",
                                       lang))

    async def _back(self, interaction: discord.Interaction[StoppaBot], lang: str) -> None:
        """ "I'm back": a sat-out player's turns are theirs again."""
        guild, user = _guild(interaction), interaction.user.id
        state = self.service.table_of(guild, user)
        seat = state.seat_of(user) if state is not None else None
        if seat is None or not seat.away:
            raise UserFacingError("living.not_away")
        await self._think(interaction)
        await self.service.back(guild, user)
        await self._say(interaction, t("living.back_reply", lang))

    async def _start(self, interaction: discord.Interaction[StoppaBot], lang: str, guild: int,
                     channel: int) -> None:
        await self._think(interaction)
        await self.service.start_game(guild, channel, interaction.user.id)
        await self._say(interaction, t("table.reply.started", lang))

    async def _add_cpu(self, interaction: discord.Interaction[StoppaBot], lang: str, guild: int,
                       channel: int, level: str) -> None:
        await self._think(interaction)
        await self.service.add_cpu(guild, channel, interaction.user.id, level)
        text = t("table.reply.cpu_added", lang)
        ranked: Any = self.bot.get_cog("RankedCog")  # cogs.ranked: the level's rating label
        label = None if ranked is None else await ranked.cpu_label_text(guild, level, lang)
        await self._say(interaction, text if label is None else f"{text}\n{label}")

    async def _send_hand(self, interaction: discord.Interaction[StoppaBot], lang: str, guild: int,
                         channel: int) -> None:
        """A fresh ephemeral reply with the player's cards: image, text, and when it is their
        turn the action panel."""
        await self._think(interaction)
        info = self.service.hand_for(guild, channel, interaction.user.id)
        state = self.service.state(channel)
        text = hand_text(info, state, lang)
        snap = hand_snapshot(info.view, lang=lang, player=interaction.user.display_name)
        png = await asyncio.to_thread(render_hand, snap)
        file = discord.File(io.BytesIO(png), filename="hand.png",
                            description=hand_alt_text(snap)[:1000])
        panel = action_panel(info.table_id, info, lang)
        kwargs: dict[str, Any] = {}
        if panel is not None:
            text = f"{text}\n{panel[0]}"
            kwargs["view"] = panel[1]
        await interaction.edit_original_response(
            content=text[:CONTENT_LIMIT], attachments=[file],
            allowed_mentions=discord.AllowedMentions.none(), **kwargs,
        )

    async def _act(
        self,
        interaction: discord.Interaction[StoppaBot],
        lang: str,
        guild: int,
        channel: int,
        action: Action,
        *,
        hand: int | None = None,
        turn: int | None = None,
    ) -> None:
        """Play `action` for the user. A component click is acknowledged silently (the table
        message changes); a click in a private panel also closes that panel."""
        component = interaction.type in (
            discord.InteractionType.component, discord.InteractionType.modal_submit
        )
        message = interaction.message
        if component and not interaction.response.is_done():
            await interaction.response.defer()
            if message is not None and not message.flags.ephemeral:
                self.publisher.lend(interaction)  # its token edits the table message
        else:
            await self._think(interaction)
        await self.service.act(
            guild, channel, interaction.user.id, action, expected_hand=hand, expected_turn=turn
        )
        done = done_text(action, lang)
        if not component:
            await self._say(interaction, done)
        elif message is not None and message.flags.ephemeral:
            content = f"{message.content}\n{done}" if message.content else done
            try:
                await interaction.edit_original_response(content=content[:CONTENT_LIMIT],
                                                          view=None)
            except discord.HTTPException:
                _log.info("could not close the panel of user %s", interaction.user.id)

    # -- components -----------------------------------------------------------------------
    def _table(self, table_id: int, interaction: discord.Interaction[StoppaBot]) -> TableState:
        """The open table of a component's custom id, which must be the table of the channel
        the interaction comes from (a custom id is data sent by the client)."""
        state = self.service.state_by_id(table_id)
        if state is None:
            raise TableError("table_closed")
        if (state.guild_id, state.channel_id) != (interaction.guild_id, interaction.channel_id):
            raise TableError("no_table")
        return state

    async def on_button(
        self, interaction: discord.Interaction[StoppaBot], button: TableButton
    ) -> None:
        """A table button was pressed (public message or private panel)."""

        async def work(lang: str) -> None:
            state = self._table(button.table, interaction)
            guild, channel = state.guild_id, state.channel_id
            action = button.action
            if action == "join":
                return await self._join(interaction, lang, guild, channel)
            if action == "leave":
                return await self._leave(interaction, lang, guild, channel)
            if action == "start":
                return await self._start(interaction, lang, guild, channel)
            if action == "addcpu":
                return await self._add_cpu(interaction, lang, guild, channel, "easy")
            if action == "hand":
                return await self._send_hand(interaction, lang, guild, channel)
            if action == "back":
                return await self._back(interaction, lang)
            await self._turn_button(interaction, lang, state, button)

        await self._guard(interaction, work, f"button {button.action}", table=button.table)

    @staticmethod
    def _precheck(state: TableState, user: int, hand: int | None, turn: int | None) -> None:
        """Refuse at once (before deferring) a stranger, a stale button, or out of turn; the
        service checks all of it again under the table's lock."""
        if state.seat_of(user) is None:
            raise UserFacingError("table.refuse.not_at_table")
        if (hand is not None and hand != state.hand_no) or (
            turn is not None and turn != state.turn
        ):
            raise TableError("stale_button")
        if state.to_act is None:
            raise TableError("no_hand")
        if state.to_act != user:
            raise TableError("not_your_turn", player=state.to_act)

    def _my_turn_info(self, state: TableState, user: int, hand: int | None) -> PlayerHand:
        """The private view of `user`, checked: seated, same hand, their turn."""
        if state.seat_of(user) is None:
            raise UserFacingError("table.refuse.not_at_table")
        info = self.service.hand_for(state.guild_id, state.channel_id, user)
        if hand is not None and info.hand_no != hand:
            raise TableError("stale_button")
        if not info.my_turn:
            if state.to_act is None:
                raise TableError("no_hand")
            raise TableError("not_your_turn", player=state.to_act)
        return info

    async def _turn_button(
        self, interaction: discord.Interaction[StoppaBot], lang: str, state: TableState,
        button: TableButton
    ) -> None:
        user = interaction.user.id
        guild, channel = state.guild_id, state.channel_id
        action = button.action
        self._precheck(state, user, button.hand, button.turn)
        if action in ("pass", "call"):
            chosen: Action = Pass() if action == "pass" else Call()
            return await self._act(interaction, lang, guild, channel, chosen,
                                   hand=button.hand, turn=button.turn)
        info = self._my_turn_info(state, user, button.hand)
        if button.turn is not None and info.turn != button.turn:
            raise TableError("stale_button")
        if action in ("raise", "declare", "play"):
            panel = action_panel(state.table_id, info, lang)
            if panel is None:
                raise UserFacingError("table.refuse.nothing_to_choose")
            await interaction.response.send_message(panel[0], view=panel[1], ephemeral=True)
            return None
        if action == "other":
            bet_range = info.bet_range
            if not bet_range:
                raise UserFacingError("table.refuse.no_bet_now")
            await interaction.response.send_modal(
                AmountModal(state.table_id, info.hand_no, info.turn, int(bet_range[0]),
                            int(bet_range[1]), lang)
            )
            return None
        if action == "bet":
            chosen = self._bet_action(info, button.arg or 0)
        elif action == "best":
            declares = [a for a in info.actions if isinstance(a, Declare)]
            if not declares:
                raise UserFacingError("table.refuse.nothing_to_choose")
            chosen = declares[0]
        else:  # pragma: no cover - the template lists every action
            raise UserFacingError("table.refuse.nothing_to_choose")
        await self._act(interaction, lang, guild, channel, chosen, hand=button.hand,
                        turn=button.turn)
        return None

    @staticmethod
    def _bet_action(info: PlayerHand, amount: int) -> Action:
        """Bet (nobody bet yet) or Raise (there is a bet) to `amount`."""
        actions = info.actions
        if any(isinstance(a, Raise) for a in actions):
            return Raise(amount)
        if any(isinstance(a, Bet) for a in actions):
            return Bet(amount)
        raise UserFacingError("table.refuse.no_bet_now")

    async def on_pick(
        self, interaction: discord.Interaction[StoppaBot], select: PickSelect
    ) -> None:
        """A declaration or an opening was chosen in a private panel."""
        await self._pick(interaction, select.table, select.hand, select.turn, select.values)

    async def _pick(self, interaction: discord.Interaction[StoppaBot], table: int, hand: int,
    turn: int,
                    values: list[str]) -> None:
        async def work(lang: str) -> None:
            state = self._table(table, interaction)
            self._precheck(state, interaction.user.id, hand, turn)
            if not values:
                raise UserFacingError("table.refuse.nothing_to_choose")
            try:
                action = parse_action(values[0])
            except ValueError:
                raise TableError("bad_action", text=values[0][:40]) from None
            await self._act(interaction, lang, state.guild_id, state.channel_id, action,
                            hand=hand, turn=turn)

        await self._guard(interaction, work, "pick", table=table)

    async def on_amount(
        self, interaction: discord.Interaction[StoppaBot], modal: AmountModal
    ) -> None:
        """A bet amount was typed in the modal."""
        await self._amount(interaction, modal.table, modal.hand, modal.turn,
                           modal.amount.value or "")

    async def _amount(self, interaction: discord.Interaction[StoppaBot], table: int, hand: int,
    turn: int,
                      typed: str) -> None:
        """Bet or raise to the typed amount (the modal's custom id gave table, hand, turn, so
        this works for a modal opened before a restart too)."""

        async def work(lang: str) -> None:
            state = self._table(table, interaction)
            self._precheck(state, interaction.user.id, hand, turn)
            info = self._my_turn_info(state, interaction.user.id, hand)
            text = typed.strip()
            if not text.isdigit():
                low, high = info.bet_range or (0, 0)
                raise UserFacingError("table.refuse.bad_amount", min=low, max=high)
            action = self._bet_action(info, int(text))
            await self._act(interaction, lang, state.guild_id, state.channel_id, action,
                            hand=hand, turn=turn)

        await self._guard(interaction, work, "amount", table=table)

    async def handle_orphan(self, interaction: discord.Interaction[StoppaBot]) -> bool:
        """A click or modal submit of a table component that discord.py handed to nobody: a
        button of an older version of an edited message or of a closed panel, a modal
        submitted after a restart or after its timeout. The custom id says everything, so it
        is handled as if the component were still there: the checks and the service's tokens
        refuse it politely when it is stale (with a fresh panel when it is now the user's turn).
        Returns False for a custom id that is not the table's (the bot answers it)."""
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id") or "")
        if interaction.type is discord.InteractionType.modal_submit:
            found = MODAL_TEMPLATE.fullmatch(custom_id)
            if found is None:
                return False
            typed = submitted_values(interaction).get("amount")
            await self._amount(interaction, int(found["table"]), int(found["hand"]),
                               int(found["turn"]), typed if isinstance(typed, str) else "")
            return True
        found = BUTTON_PATTERN.fullmatch(custom_id)
        if found is not None:
            await self.on_button(interaction, TableButton.from_match(found))
            return True
        found = SELECT_PATTERN.fullmatch(custom_id)
        if found is not None:
            values = [str(v) for v in data.get("values") or []]
            await self._pick(interaction, int(found["table"]), int(found["hand"]),
                             int(found["turn"]), values)
            return True
        return False

    # -- slash commands -------------------------------------------------------------------
    def _here(self, interaction: discord.Interaction[StoppaBot]) -> tuple[int, int]:
        return _guild(interaction), _channel(interaction)

    @app_commands.command(name="new", description=cmd_str("table.cmd.new"))
    async def new(self, interaction: discord.Interaction[StoppaBot]) -> None:
        """Open a table in this channel (the opener sits)."""
        await self._guard(interaction, lambda lang: self._open(interaction, lang), "new")

    @app_commands.command(name="tables", description=cmd_str("living.cmd.tables"))
    async def tables(self, interaction: discord.Interaction[StoppaBot]) -> None:
        """The open tables of this server: where, players, free seats, stakes (private)."""

        async def work(lang: str) -> None:
            states = self.service.open_tables(_guild(interaction))
            if not states:
                return await send_ephemeral(interaction, t("living.list.none", lang))
            lines = [tables_line(state, lang) for state in states]
            embed = discord.Embed(title=t("living.list.title", lang),
                                  description="\n".join(lines)[:4000])
            await interaction.response.send_message(embed=embed, ephemeral=True)
            return None

        await self._guard(interaction, work, "tables")

    @app_commands.command(name="back", description=cmd_str("living.cmd.back"))
    async def back(self, interaction: discord.Interaction[StoppaBot]) -> None:
        """A sat-out player is back."""
        await self._guard(interaction, lambda lang: self._back(interaction, lang), "back")

    @app_commands.command(name="join", description=cmd_str("table.cmd.join"))
    async def join(self, interaction: discord.Interaction[StoppaBot]) -> None:
        """Sit at this channel's table."""
        await self._guard(
            interaction, lambda lang: self._join(interaction, lang, *self._here(interaction)),
            "join",
        )

    @app_commands.command(name="leave", description=cmd_str("table.cmd.leave"))
    async def leave(self, interaction: discord.Interaction[StoppaBot]) -> None:
        """Leave the table (at the end of the hand in progress)."""
        await self._guard(
            interaction, lambda lang: self._leave(interaction, lang, *self._here(interaction)),
            "leave",
        )

    @app_commands.command(name="start", description=cmd_str("table.cmd.start"))
    async def start(self, interaction: discord.Interaction[StoppaBot]) -> None:
        """Start the game (deals the first hand)."""
        await self._guard(
            interaction, lambda lang: self._start(interaction, lang, *self._here(interaction)),
            "start",
        )

    @app_commands.command(name="addbot", description=cmd_str("table.cmd.addbot"))
    @app_commands.describe(level=cmd_str("table.cmd.addbot_level"))
    @app_commands.choices(level=[choice(key_of("table.cmd.level", k), k) for k in CPU_LEVELS])
    async def addbot(
        self, interaction: discord.Interaction[StoppaBot], level: str = "easy"
    ) -> None:
        """Seat a CPU player."""
        await self._guard(
            interaction,
            lambda lang: self._add_cpu(interaction, lang, *self._here(interaction), level),
            "addbot",
        )

    @app_commands.command(name="hand", description=cmd_str("table.cmd.hand"))
    async def hand(self, interaction: discord.Interaction[StoppaBot]) -> None:
        """Your cards, privately."""
        await self._guard(
            interaction,
            lambda lang: self._send_hand(interaction, lang, *self._here(interaction)),
            "hand",
        )

    async def _command_act(self, interaction: discord.Interaction[StoppaBot], action: Action | None,
                           where: str) -> None:
        async def work(lang: str) -> None:
            guild, channel = self._here(interaction)
            chosen = action
            if chosen is None:  # declare without cards: the best point
                info = self.service.hand_for(guild, channel, interaction.user.id)
                declares = [a for a in info.actions if isinstance(a, Declare)]
                chosen = declares[0] if declares else Declare(())
            await self._act(interaction, lang, guild, channel, chosen)

        await self._guard(interaction, work, where)

    @app_commands.command(name="bet", description=cmd_str("table.cmd.bet"))
    @app_commands.describe(amount=cmd_str("table.cmd.bet_amount"))
    async def bet(
        self, interaction: discord.Interaction[StoppaBot], amount: app_commands.Range[int, 1,
        1_000_000]
    ) -> None:
        """Open the betting at `amount`."""
        await self._command_act(interaction, Bet(amount), "bet")

    @app_commands.command(name="call", description=cmd_str("table.cmd.call"))
    async def call(self, interaction: discord.Interaction[StoppaBot]) -> None:
        """Match the current level."""
        await self._command_act(interaction, Call(), "call")

    @app_commands.command(name="raise", description=cmd_str("table.cmd.raise"))
    @app_commands.describe(to=cmd_str("table.cmd.raise_to"))
    async def raise_(
        self, interaction: discord.Interaction[StoppaBot], to: app_commands.Range[int, 1, 1_000_000]
    ) -> None:
        """Raise the level to `to`."""
        await self._command_act(interaction, Raise(to), "raise")

    @app_commands.command(name="pass", description=cmd_str("table.cmd.pass"))
    async def pass_(self, interaction: discord.Interaction[StoppaBot]) -> None:
        """Withdraw from this point."""
        await self._command_act(interaction, Pass(), "pass")

    @app_commands.command(name="declare", description=cmd_str("table.cmd.declare"))
    @app_commands.describe(cards=cmd_str("table.cmd.declare_cards"))
    async def declare(
        self, interaction: discord.Interaction[StoppaBot], cards: str | None = None
    ) -> None:
        """Declare a point (default: the best one); typed cards that are not cards are refused
        with the notation (UserFacingError, answered by the tree)."""
        action = Declare(typed_cards(cards)) if cards else None
        await self._command_act(interaction, action, "declare")

    @app_commands.command(name="play", description=cmd_str("table.cmd.play"))
    @app_commands.describe(cards=cmd_str("table.cmd.play_cards"))
    async def play(self, interaction: discord.Interaction[StoppaBot], cards: str) -> None:
        """Open the stoppa with these cards (or a rank alone naming one legal play)."""

        async def work(lang: str) -> None:
            guild, channel = self._here(interaction)
            legal: list[Action] = []
            if typed_rank(cards) is not None:
                with contextlib.suppress(TableError):
                    legal = list(self.service.hand_for(guild, channel,
                                                       interaction.user.id).actions)
            action = typed_play(cards, legal, lang)
            await self._act(interaction, lang, guild, channel, action)

        await self._guard(interaction, work, "play")

    @play.autocomplete("cards")
    async def play_cards(
        self, interaction: discord.Interaction[StoppaBot], current: str
    ) -> list[app_commands.Choice[str]]:
        """The player's legal openings, matching what they typed."""
        return await self._card_choices(interaction, current, Play)

    @declare.autocomplete("cards")
    async def declare_cards(
        self, interaction: discord.Interaction[StoppaBot], current: str
    ) -> list[app_commands.Choice[str]]:
        """The player's declarable points, best first."""
        return await self._card_choices(interaction, current, Declare)

    async def _card_choices(
        self, interaction: discord.Interaction[StoppaBot], current: str,
        kind: type[Declare] | type[Play],
    ) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None or interaction.channel_id is None:
            return []
        try:
            info = self.service.hand_for(interaction.guild_id, interaction.channel_id,
                                         interaction.user.id)
        except (TableError, UserFacingError):
            return []
        lang = lang_in_memory(interaction)  # autocomplete never waits for the store
        typed = current.strip().lower()
        out: list[app_commands.Choice[str]] = []
        for action in info.actions:
            if not isinstance(action, kind):
                continue
            codes = " ".join(str(c) for c in action.cards)
            names = ", ".join(card_name(str(c), lang) for c in action.cards)
            if typed and typed not in codes and typed not in names.lower():
                continue
            out.append(app_commands.Choice(name=f"{codes}: {names}"[:100], value=codes))
            if len(out) >= MAX_CHOICES:
                break
        return out

    @app_commands.command(name="status", description=cmd_str("table.cmd.status"))
    async def status(self, interaction: discord.Interaction[StoppaBot]) -> None:
        """The table of this channel, privately (image and embed)."""

        async def work(lang: str) -> None:
            guild, channel = self._here(interaction)
            state = self.service.state(channel)
            if state is None or state.guild_id != guild:
                raise TableError("no_table")
            await self._think(interaction)
            users = {s.user_id for s in state.seats} | set(state.players)
            names = await self.names.names(guild, users)
            snap = table_snapshot(
                render_view(state), render_names(state, names), lang=lang,
                hand_no=state.hand_no, title=t("table.embed.title", lang, number=state.table_id),
                cpu=cpu_flags(state),
            )
            currency = server_currency(self.bot, guild)  # in memory: no store read
            snap = replace(snap, currency_name=currency.name, currency_emoji=currency.emoji)
            png = await asyncio.to_thread(render_table, snap)
            file = discord.File(io.BytesIO(png), filename=IMAGE_NAME,
                                description=table_alt_text(snap)[:1000])
            embed = table_embed(state, lang, names, [], image=IMAGE_NAME, currency=currency)
            await interaction.edit_original_response(
                embed=embed, attachments=[file], allowed_mentions=discord.AllowedMentions.none()
            )

        await self._guard(interaction, work, "status")

    @app_commands.command(name="round", description=cmd_str("table.cmd.round"))
    async def round_(self, interaction: discord.Interaction[StoppaBot]) -> None:
        """Call the round (R-14)."""

        async def work(lang: str) -> None:
            guild, channel = self._here(interaction)
            await self._think(interaction)
            await self.service.call_round(guild, channel, interaction.user.id)
            await self._say(interaction, t("table.reply.round_called", lang))

        await self._guard(interaction, work, "round")

    @app_commands.command(name="end", description=cmd_str("table.cmd.end"))
    async def end(self, interaction: discord.Interaction[StoppaBot]) -> None:
        """Managers: close the table, refunding the hand in progress (checked in code: Discord
        drops `default_permissions` on a subcommand)."""

        async def work(lang: str) -> None:
            if not is_manager(interaction):
                raise UserFacingError("errors.need_manage_guild")
            guild, channel = self._here(interaction)
            await self._think(interaction)
            await self.service.force_close(guild, channel, interaction.user.id)
            await self._say(interaction, t("table.reply.ended", lang))

        await self._guard(interaction, work, "end")


    @app_commands.command(name="kick", description=cmd_str("table.cmd.kick"))
    @app_commands.describe(member=cmd_str("table.cmd.kick_member"))
    async def kick(
        self, interaction: discord.Interaction[StoppaBot], member: discord.Member
    ) -> None:
        """The table's host or a manager removes a player (at the end of the hand in progress,
        if they are playing in it)."""

        async def work(lang: str) -> None:
            guild, channel = self._here(interaction)
            state = self.service.state(channel)
            if state is None or state.guild_id != guild:
                raise TableError("no_table")
            host = table_host(state)
            if interaction.user.id != host and not is_manager(interaction):
                raise UserFacingError("kick.not_allowed", host=mention(host) if host else "-")
            if member.id == interaction.user.id:
                raise UserFacingError("kick.yourself")
            if state.seat_of(member.id) is None:
                raise UserFacingError("kick.not_seated", player=member.mention)
            await self._think(interaction)
            after: TableState = await self.service.kick(guild, channel, interaction.user.id,
                                                        member.id)
            still = after.seat_of(member.id) is not None and after.status != "closed"
            await self._say(interaction, t("kick.leaving" if still else "kick.removed", lang,
                                           player=member.mention))

        await self._guard(interaction, work, "kick")


def tables_line(state: TableState, lang: str) -> str:
    """One open table in `/stoppa tables`: where (a channel mention), seats, stakes, status."""
    if state.status == "playing" and state.hand_no:
        status = t("living.list.playing", lang, hand_no=state.hand_no)
    else:
        status = t("living.list.lobby", lang)
    seated = len(state.seats)
    return t("living.list.line", lang, where=f"<#{state.channel_id}>", seated=seated,
             free=max(0, MAX_PLAYERS - seated), ante=state.stakes.get("ante", 0), status=status)


def table_host(state: TableState) -> int | None:
    """The table's host: its opener while seated (the first seat), else the player seated
    longest; CPU seats never host. None when only CPU players are left."""
    return next((seat.user_id for seat in state.seats if not is_cpu(seat.user_id)), None)


async def setup(bot: StoppaBot) -> None:
    """Load the table cog."""
    await bot.add_cog(TableCog(bot))


__all__ = ["TableCog", "setup"]
