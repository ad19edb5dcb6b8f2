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

This module holds the cog: its life cycle, the channels a table can no longer be in, and the
entry points (slash commands, the components' callbacks, orphaned components), each a line
that hands over to `cogs.table_lobby` (open, seat, look), `cogs.table_play` (the hand's moves)
through `cogs.table_replies` (the answer, whatever happens).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import StoppaBot
from bot.discord_utils import choice, cmd_str
from bot.discord_utils.installs import server_command
from bot.engine import Action, Call, Declare, Pass, Play
from bot.tables import PlayerHand, TableState
from cogs.card_input import typed_cards
from cogs.member_names import MemberNames
from cogs.table_items import COG_NAME, AmountModal, PickSelect, TableButton
from cogs.table_lobby import TableLobby
from cogs.table_panel import PanelBook
from cogs.table_play import TablePlay, best_point, wager
from cogs.table_publisher import TablePublisher
from cogs.table_replies import TableReplies, here
from cogs.table_text import key_of

_log = logging.getLogger("stoppa.table")

#: the CPU levels a command offers, in their order (the table's, the practice's, tournaments')
CPU_LEVELS: tuple[str, ...] = ("easy", "hard", "expert", "random")


@server_command
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
        self.names = MemberNames.of(bot)
        self.publisher = TablePublisher(bot, self.names, opted_out=bot.pings.opted_out)
        self.publisher.after_close = self._archive
        self.replies = TableReplies(bot, self.names, self.publisher)
        self.lobby = TableLobby(self.replies)
        #: the players' live private panels (tokens in memory only)
        self.panels = PanelBook(bot, self.names)
        self.moves = TablePlay(self.replies, self.lobby, self.panels)
        super().__init__()

    # -- life cycle -----------------------------------------------------------------------
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
        await self.panels.close()

    async def _on_update(self, update: Any) -> None:
        self.publisher.push(update)
        self.panels.push(update)

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

    # -- components -----------------------------------------------------------------------
    async def on_button(
        self, interaction: discord.Interaction[StoppaBot], button: TableButton
    ) -> None:
        """A table button was pressed (public message or private panel)."""
        await self.moves.button(interaction, button)

    async def on_pick(
        self, interaction: discord.Interaction[StoppaBot], select: PickSelect
    ) -> None:
        """A declaration or an opening was chosen in a private panel."""
        await self.moves.pick(interaction, select.table, select.hand, select.turn, select.values)

    async def on_amount(
        self, interaction: discord.Interaction[StoppaBot], modal: AmountModal
    ) -> None:
        """A bet amount was typed in the modal."""
        await self.moves.amount(interaction, modal.table, modal.hand, modal.turn,
                                modal.amount.value or "")

    async def handle_orphan(self, interaction: discord.Interaction[StoppaBot]) -> bool:
        """A table component discord.py handed to nobody (see `TablePlay.orphan`)."""
        return await self.moves.orphan(interaction)

    # -- slash commands -------------------------------------------------------------------
    @app_commands.command(name="new", description=cmd_str("table.cmd.new"))
    async def new(self, interaction: discord.Interaction[StoppaBot]) -> None:
        """Open a table in this channel (the opener sits)."""
        await self.replies.guard(interaction, lambda lang: self.lobby.open(interaction, lang),
                                 "new")

    @app_commands.command(name="tables", description=cmd_str("living.cmd.tables"))
    async def tables(self, interaction: discord.Interaction[StoppaBot]) -> None:
        """The open tables of this server: where, players, free seats, stakes (private)."""
        await self.replies.guard(
            interaction, lambda lang: self.lobby.list_tables(interaction, lang), "tables"
        )

    @app_commands.command(name="back", description=cmd_str("living.cmd.back"))
    async def back(self, interaction: discord.Interaction[StoppaBot]) -> None:
        """A sat-out player is back."""
        await self.replies.guard(interaction, lambda lang: self.lobby.back(interaction, lang),
                                 "back")

    async def _seat(self, interaction: discord.Interaction[StoppaBot], action: str) -> None:
        await self.replies.guard(
            interaction,
            lambda lang: self.moves.seat_in_panel(interaction, lang, *here(interaction), action),
            action,
        )

    @app_commands.command(name="join", description=cmd_str("table.cmd.join"))
    async def join(self, interaction: discord.Interaction[StoppaBot]) -> None:
        """Sit at this channel's table (answered with the player's panel, as the Join button)."""
        await self._seat(interaction, "join")

    @app_commands.command(name="leave", description=cmd_str("table.cmd.leave"))
    async def leave(self, interaction: discord.Interaction[StoppaBot]) -> None:
        """Leave the table (at the end of the hand in progress)."""
        await self.replies.guard(
            interaction, lambda lang: self.lobby.leave(interaction, lang, *here(interaction)),
            "leave",
        )

    @app_commands.command(name="start", description=cmd_str("table.cmd.start"))
    async def start(self, interaction: discord.Interaction[StoppaBot]) -> None:
        """Start the game (deals the first hand; answered with the player's panel, as the
        Start button)."""
        await self._seat(interaction, "start")

    @app_commands.command(name="addbot", description=cmd_str("table.cmd.addbot"))
    @app_commands.describe(level=cmd_str("table.cmd.addbot_level"))
    @app_commands.choices(level=[choice(key_of("table.cmd.level", k), k) for k in CPU_LEVELS])
    async def addbot(
        self, interaction: discord.Interaction[StoppaBot], level: str = "easy"
    ) -> None:
        """Seat a CPU player."""
        await self.replies.guard(
            interaction,
            lambda lang: self.lobby.add_cpu(interaction, lang, *here(interaction), level),
            "addbot",
        )

    @app_commands.command(name="hand", description=cmd_str("table.cmd.hand"))
    async def hand(self, interaction: discord.Interaction[StoppaBot]) -> None:
        """Your cards, privately."""
        await self.replies.guard(
            interaction,
            lambda lang: self.moves.send_hand(interaction, lang, *here(interaction)),
            "hand",
        )

    async def _move(self, interaction: discord.Interaction[StoppaBot],
                    move: Action | Callable[[PlayerHand], Action], where: str) -> None:
        await self.replies.guard(
            interaction, lambda lang: self.moves.command_act(interaction, lang, move), where
        )

    @app_commands.command(name="bet", description=cmd_str("table.cmd.bet"))
    @app_commands.describe(amount=cmd_str("table.cmd.bet_amount"))
    async def bet(
        self, interaction: discord.Interaction[StoppaBot], amount: app_commands.Range[int, 1,
        1_000_000]
    ) -> None:
        """Bet `amount`, or raise to it when there is a bet (the player says how much they put
        in, as at a practice table and in the terminal)."""
        await self._move(interaction, wager(amount), "bet")

    @app_commands.command(name="call", description=cmd_str("table.cmd.call"))
    async def call(self, interaction: discord.Interaction[StoppaBot]) -> None:
        """Match the current level."""
        await self._move(interaction, Call(), "call")

    @app_commands.command(name="raise", description=cmd_str("table.cmd.raise"))
    @app_commands.describe(to=cmd_str("table.cmd.raise_to"))
    async def raise_(
        self, interaction: discord.Interaction[StoppaBot], to: app_commands.Range[int, 1, 1_000_000]
    ) -> None:
        """Raise to `to`, or bet it when nobody has bet yet (one move, as `/stoppa bet`)."""
        await self._move(interaction, wager(to), "raise")

    @app_commands.command(name="pass", description=cmd_str("table.cmd.pass"))
    async def pass_(self, interaction: discord.Interaction[StoppaBot]) -> None:
        """Withdraw from this point."""
        await self._move(interaction, Pass(), "pass")

    @app_commands.command(name="declare", description=cmd_str("table.cmd.declare"))
    @app_commands.describe(cards=cmd_str("table.cmd.declare_cards"))
    async def declare(
        self, interaction: discord.Interaction[StoppaBot], cards: str | None = None
    ) -> None:
        """Declare a point (default: the best one); typed cards that are not cards are refused
        with the notation (UserFacingError, answered by the tree)."""
        move = Declare(typed_cards(cards)) if cards else best_point
        await self._move(interaction, move, "declare")

    @app_commands.command(name="play", description=cmd_str("table.cmd.play"))
    @app_commands.describe(cards=cmd_str("table.cmd.play_cards"))
    async def play(self, interaction: discord.Interaction[StoppaBot], cards: str) -> None:
        """Open the stoppa with these cards (or a rank alone naming one legal play)."""
        await self.replies.guard(
            interaction, lambda lang: self.moves.play(interaction, lang, cards), "play"
        )

    @play.autocomplete("cards")
    async def play_cards(
        self, interaction: discord.Interaction[StoppaBot], current: str
    ) -> list[app_commands.Choice[str]]:
        """The player's legal openings, matching what they typed."""
        return await self.moves.card_choices(interaction, current, Play)

    @declare.autocomplete("cards")
    async def declare_cards(
        self, interaction: discord.Interaction[StoppaBot], current: str
    ) -> list[app_commands.Choice[str]]:
        """The player's declarable points, best first."""
        return await self.moves.card_choices(interaction, current, Declare)

    @app_commands.command(name="status", description=cmd_str("table.cmd.status"))
    async def status(self, interaction: discord.Interaction[StoppaBot]) -> None:
        """The table of this channel, privately (image and embed)."""
        await self.replies.guard(interaction, lambda lang: self.lobby.status(interaction, lang),
                                 "status")

    @app_commands.command(name="round", description=cmd_str("table.cmd.round"))
    async def round_(self, interaction: discord.Interaction[StoppaBot]) -> None:
        """Call the round (R-14)."""
        await self.replies.guard(
            interaction, lambda lang: self.lobby.call_round(interaction, lang), "round"
        )

    @app_commands.command(name="end", description=cmd_str("table.cmd.end"))
    async def end(self, interaction: discord.Interaction[StoppaBot]) -> None:
        """Managers: close the table, refunding the hand in progress (checked in code: Discord
        drops `default_permissions` on a subcommand)."""
        await self.replies.guard(interaction, lambda lang: self.lobby.end(interaction, lang),
                                 "end")

    @app_commands.command(name="kick", description=cmd_str("table.cmd.kick"))
    @app_commands.describe(member=cmd_str("table.cmd.kick_member"))
    async def kick(
        self, interaction: discord.Interaction[StoppaBot], member: discord.Member
    ) -> None:
        """The table's host or a manager removes a player (at the end of the hand in progress,
        if they are playing in it)."""
        await self.replies.guard(
            interaction, lambda lang: self.lobby.kick(interaction, lang, member), "kick"
        )


async def setup(bot: StoppaBot) -> None:
    """Load the table cog."""
    await bot.add_cog(TableCog(bot))


__all__ = ["TableCog", "setup"]
