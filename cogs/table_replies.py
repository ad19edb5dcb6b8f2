"""`TableReplies`: how every table interaction is answered, whatever it asks.

`guard` runs one interaction's work and turns what goes wrong into a short ephemeral reply in
the user's language (a stale click where it is now their turn gets a fresh panel; a bug is
reported politely); it also brings a sat-out player back and says when the table cannot be
shown in this channel. `think` defers privately before slow work, `say` answers a deferred
interaction. The lobby and in-hand handlers (`cogs.table_lobby`, `cogs.table_play`) share one.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable

import discord
from discord import app_commands

from bot.client import StoppaBot
from bot.discord_utils import (
    UserFacingError,
    lang_for,
    report_interaction_error,
    send_ephemeral,
)
from bot.discord_utils.access import missing_here, permission_names
from bot.discord_utils.errors import refusal_code, refusal_text
from bot.i18n import t
from bot.tables import TableError, TableService
from cogs.member_names import MemberNames
from cogs.table_items import action_panel
from cogs.table_publisher import TablePublisher

_log = logging.getLogger("stoppa.table")

#: Discord's limit of a message's content.
CONTENT_LIMIT = 2000


def guild_of(interaction: discord.Interaction[StoppaBot]) -> int:
    """The server of a table interaction (table commands are guild-only)."""
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    return interaction.guild_id


def channel_of(interaction: discord.Interaction[StoppaBot]) -> int:
    """The channel (or thread) of a table interaction."""
    channel_id = interaction.channel_id
    if channel_id is None:
        raise app_commands.NoPrivateMessage()
    return channel_id


def here(interaction: discord.Interaction[StoppaBot]) -> tuple[int, int]:
    """(server, channel) of a slash command: the table it speaks of."""
    return guild_of(interaction), channel_of(interaction)


class TableReplies:
    """The answering of table interactions, shared by the cog's handlers."""

    def __init__(self, bot: StoppaBot, names: MemberNames, publisher: TablePublisher) -> None:
        self.bot = bot
        self.names = names
        self.publisher = publisher

    @property
    def service(self) -> TableService:
        """The table service (`bot.tables`)."""
        service = self.bot.tables
        if service is None:
            raise UserFacingError("errors.unexpected")
        return service

    async def guard(
        self, interaction: discord.Interaction[StoppaBot], work: Callable[[str], Awaitable[None]],
        where: str, *, table: int | None = None,
    ) -> None:
        """Run `work(lang)`; refusals become short ephemeral replies, bugs are reported.

        A stale click (`stale_button`) of a `table` where it is now the user's turn gets a
        fresh action panel with its refusal."""
        if interaction.guild_id is not None:
            self.names.remember(interaction.guild_id, interaction.user)
        lang = await lang_for(interaction, self.bot.store)
        hidden = self.hidden_here(interaction)
        try:
            await work(lang)
        except Exception as error:
            if (isinstance(error, app_commands.AppCommandError)
                    and not isinstance(error, UserFacingError)):
                raise
            await self.refuse(interaction, error, lang, where, table)
        await self.welcome_back(interaction)
        if hidden and self.hidden_table(interaction) is not None:  # not closed meanwhile
            await send_ephemeral(interaction, t("access.table_hidden", lang,
                                                permissions=permission_names(hidden, lang)))

    async def refuse(self, interaction: discord.Interaction[StoppaBot], error: Exception,
                     lang: str, where: str, table: int | None) -> None:
        """Answer a refusal privately (`refusal_text`, the one wording), or report a bug. A
        "no table" of a slash command points to the server's tables; a stale click of a
        `table` where it is now the user's turn gets a fresh action panel."""
        text = refusal_text(error, lang)
        if text is None:
            await report_interaction_error(interaction, error, where=where)
            return
        _log.info("refused %s user=%s: %s", where, interaction.user.id, refusal_code(error))
        view = None
        code = getattr(error, "code", None) if isinstance(error, TableError) else None
        if code == "no_table" and self.tables_elsewhere(interaction):
            text = f"{text}\n{t('living.list.hint', lang)}"
        if table is not None and code == "stale_button":
            fresh = self.fresh_panel(table, interaction.user.id, lang)
            if fresh is not None:
                text, view = f"{text}\n{fresh[0]}", fresh[1]
        await send_ephemeral(interaction, text[:CONTENT_LIMIT], view=view)

    def tables_elsewhere(self, interaction: discord.Interaction[StoppaBot]) -> bool:
        """Whether this server has open tables (in other channels or threads): a slash
        command's "no table here" then points to `/stoppa tables`."""
        if interaction.type is not discord.InteractionType.application_command:
            return False
        service, guild = self.bot.tables, interaction.guild_id
        return service is not None and guild is not None and bool(service.open_tables(guild))

    async def welcome_back(self, interaction: discord.Interaction[StoppaBot]) -> None:
        """Any table command of a sat-out player (answered by now) brings them back."""
        service, guild = self.bot.tables, interaction.guild_id
        if service is None or guild is None:
            return
        state = service.table_of(guild, interaction.user.id)
        seat = state.seat_of(interaction.user.id) if state is not None else None
        if seat is None or not seat.away or seat.left:  # a leaver comes back only by I'm back
            return
        with contextlib.suppress(TableError):  # closed meanwhile
            await service.back(guild, interaction.user.id)

    def hidden_here(self, interaction: discord.Interaction[StoppaBot]) -> list[str]:
        """When the table of this channel cannot be shown (Discord refused the bot the
        channel): the permissions the bot still lacks here, to tell the player; when none is
        missing any more, the publisher tries again (and the clock resumes if that works)."""
        table = self.hidden_table(interaction)
        if table is None:
            return []
        missing = missing_here(interaction)
        if not missing:
            self.publisher.retry(table)
        return missing

    def hidden_table(self, interaction: discord.Interaction[StoppaBot]) -> int | None:
        """The id of this channel's open table when its message cannot be shown."""
        service = self.bot.tables
        channel = interaction.channel_id
        state = service.state(channel) if service is not None and channel is not None else None
        if state is None or not self.publisher.hidden(state.table_id):
            return None
        return int(state.table_id)

    def fresh_panel(self, table: int, user: int, lang: str
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

    async def think(self, interaction: discord.Interaction[StoppaBot]) -> None:
        """Defer privately (a "thinking" ephemeral reply) unless already answered."""
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)

    async def say(self, interaction: discord.Interaction[StoppaBot], text: str) -> None:
        """Answer a deferred interaction privately."""
        await send_ephemeral(interaction, text)
