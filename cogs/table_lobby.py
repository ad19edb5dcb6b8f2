"""`TableLobby`: opening, seating and looking at tables (everything but the hand's moves).

Open (in a thread of its own when the bot may make one), join, leave, "I'm back", start, seat a
CPU player, the server's open tables, a private look at this channel's table, call the round,
and the managers' and host's end and kick. Each handler takes the user's language and answers
through `TableReplies`; the cog wraps each in `guard`.
"""

from __future__ import annotations

import contextlib
from typing import Any

import discord

from bot.client import StoppaBot
from bot.discord_utils import (
    UserFacingError,
    is_manager,
    send_ephemeral,
    server_currency,
    spoken,
)
from bot.discord_utils.access import in_thread, missing_here, permission_names
from bot.i18n import t
from bot.tables import TableState, is_cpu
from bot.tables.limits import MAX_PLAYERS
from cogs.table_publisher import compose
from cogs.table_replies import TableReplies, channel_of, guild_of, here
from cogs.table_text import mention, table_language

#: What the bot needs in a text channel to open a table in a thread of its own.
THREAD_PERMISSIONS: tuple[str, ...] = ("create_public_threads", "send_messages_in_threads")
#: Discord's limit of a thread name.
THREAD_NAME_LIMIT = 100


class TableLobby:
    """The table commands and buttons that are not a move of the hand."""

    def __init__(self, replies: TableReplies) -> None:
        self.replies = replies

    async def open(self, interaction: discord.Interaction[StoppaBot], lang: str) -> None:
        """In a text channel: a new public thread for the table (one short message in the
        channel says where), or the channel itself when the bot may not make threads there
        (saying why). In a thread: the table opens there, unless it has one."""
        r = self.replies
        missing = missing_here(interaction)
        if missing:  # the table could not be shown here: refuse before anything is opened
            raise UserFacingError("access.missing",
                                  permissions=permission_names(missing, lang))
        guild, channel, user = guild_of(interaction), channel_of(interaction), interaction.user.id
        parent = interaction.channel
        if in_thread(interaction) or not isinstance(parent, discord.TextChannel):
            if in_thread(interaction) and r.service.state(channel) is not None:
                raise UserFacingError("living.thread.has_table")
            await r.think(interaction)
            await r.service.open_table(guild, channel, user, lang=spoken(interaction))
            return await r.say(interaction, t("table.reply.opened", lang))
        perms = interaction.app_permissions
        cannot = [] if perms.administrator else [
            name for name in THREAD_PERMISSIONS if not getattr(perms, name)
        ]
        await r.think(interaction)
        if not cannot:
            await r.service.check_can_open(guild, user)
            name = t("living.thread.name", lang, player=interaction.user.display_name)
            await r.bot.requests.acquire()
            try:
                thread = await parent.create_thread(
                    name=name[:THREAD_NAME_LIMIT], type=discord.ChannelType.public_thread
                )
            except discord.Forbidden:
                cannot = ["create_public_threads"]
            else:
                return await self._open_in_thread(interaction, lang, parent, thread)
        await r.service.open_table(guild, channel, user, lang=spoken(interaction))
        why = t("living.thread.no_threads", lang, permissions=permission_names(cannot, lang))
        await r.say(interaction, f"{t('table.reply.opened', lang)}\n{why}")

    async def _open_in_thread(
        self, interaction: discord.Interaction[StoppaBot], lang: str,
        parent: discord.TextChannel, thread: discord.Thread,
    ) -> None:
        """Open the table in the thread just made for it, then say so in the channel."""
        r = self.replies
        guild, user = guild_of(interaction), interaction.user.id
        try:
            await r.service.open_table(guild, thread.id, user, own_thread=True,
                                       lang=spoken(interaction))
        except Exception:
            await r.bot.requests.acquire()
            with contextlib.suppress(discord.HTTPException):
                await thread.edit(archived=True)
            raise
        public = await table_language(r.bot, guild, [user])  # the opener's
        await r.bot.requests.acquire()
        with contextlib.suppress(discord.HTTPException):  # the table is open all the same
            await parent.send(
                t("living.thread.opened_here", public, player=interaction.user.mention,
                  thread=thread.mention),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        await r.say(interaction, t("living.thread.opened_reply", lang, thread=thread.mention))

    async def leave(self, interaction: discord.Interaction[StoppaBot], lang: str, guild: int,
                    channel: int) -> None:
        """Leave the table (at the end of the hand in progress)."""
        r = self.replies
        await r.think(interaction)
        state: TableState = await r.service.leave(guild, channel, interaction.user.id)
        await r.say(interaction, leave_text(state, interaction.user.id, lang))

    async def back(self, interaction: discord.Interaction[StoppaBot], lang: str) -> None:
        """ "I'm back": a sat-out player's turns are theirs again."""
        r = self.replies
        guild, user = guild_of(interaction), interaction.user.id
        state = r.service.table_of(guild, user)
        seat = state.seat_of(user) if state is not None else None
        if seat is None or not seat.away:
            raise UserFacingError("living.not_away")
        await r.think(interaction)
        await r.service.back(guild, user)
        await r.say(interaction, t("living.back_reply", lang))

    async def add_cpu(self, interaction: discord.Interaction[StoppaBot], lang: str, guild: int,
                      channel: int, level: str) -> None:
        """Seat a CPU player (with its level's rating label when the ranked cog is loaded)."""
        r = self.replies
        await r.think(interaction)
        await r.service.add_cpu(guild, channel, interaction.user.id, level)
        text = t("table.reply.cpu_added", lang)
        ranked: Any = r.bot.get_cog("RankedCog")  # cogs.ranked: the level's rating label
        label = None if ranked is None else await ranked.cpu_label_text(guild, level, lang)
        await r.say(interaction, text if label is None else f"{text}\n{label}")

    async def list_tables(self, interaction: discord.Interaction[StoppaBot], lang: str) -> None:
        """The open tables of this server: where, players, free seats, stakes (private)."""
        states = self.replies.service.open_tables(guild_of(interaction))
        if not states:
            return await send_ephemeral(interaction, t("living.list.none", lang))
        lines = [tables_line(state, lang) for state in states]
        embed = discord.Embed(title=t("living.list.title", lang),
                              description="\n".join(lines)[:4000])
        await interaction.response.send_message(embed=embed, ephemeral=True)
        return None

    async def status(self, interaction: discord.Interaction[StoppaBot], lang: str) -> None:
        """The table of this channel, privately: the table message (its image and texts, in
        the user's language) without its buttons, which stay on the table message."""
        r = self.replies
        guild, channel = here(interaction)
        state = r.service.table_here(guild, channel)
        await r.think(interaction)
        users = {s.user_id for s in state.seats} | set(state.players)
        names = await r.names.names(guild, users)
        currency = server_currency(r.bot, guild)  # in memory: no store read
        draft = await compose(state, lang, names, [], currency)
        await interaction.edit_original_response(
            view=draft.view(buttons=False), attachments=[draft.file()],
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def call_round(self, interaction: discord.Interaction[StoppaBot], lang: str) -> None:
        """Call the round (R-14)."""
        r = self.replies
        guild, channel = here(interaction)
        await r.think(interaction)
        await r.service.call_round(guild, channel, interaction.user.id)
        await r.say(interaction, t("table.reply.round_called", lang))

    async def end(self, interaction: discord.Interaction[StoppaBot], lang: str) -> None:
        """Managers: close the table, refunding the hand in progress (checked in code: Discord
        drops `default_permissions` on a subcommand)."""
        r = self.replies
        if not is_manager(interaction):
            raise UserFacingError("errors.need_manage_guild")
        guild, channel = here(interaction)
        await r.think(interaction)
        await r.service.force_close(guild, channel, interaction.user.id)
        await r.say(interaction, t("table.reply.ended", lang))

    async def kick(self, interaction: discord.Interaction[StoppaBot], lang: str,
                   member: discord.Member) -> None:
        """The table's host or a manager removes a player (at the end of the hand in progress,
        if they are playing in it)."""
        r = self.replies
        guild, channel = here(interaction)
        state = r.service.table_here(guild, channel)
        host = table_host(state)
        if interaction.user.id != host and not is_manager(interaction):
            raise UserFacingError("kick.not_allowed", host=mention(host) if host else "-")
        if member.id == interaction.user.id:
            raise UserFacingError("kick.yourself")
        if state.seat_of(member.id) is None:
            raise UserFacingError("kick.not_seated", player=member.mention)
        await r.think(interaction)
        after: TableState = await r.service.kick(guild, channel, interaction.user.id, member.id)
        still = after.seat_of(member.id) is not None and after.status != "closed"
        await r.say(interaction, t("kick.leaving" if still else "kick.removed", lang,
                                   player=member.mention))


def leave_text(state: TableState, user: int, lang: str) -> str:
    """What a player who pressed Leave is told, from the table after it: left, or leaving at
    the end of the hand (a tournament's leaver stays in, sat out)."""
    still = state.seat_of(user) is not None and state.status != "closed"
    if still and state.tournament is not None:
        return t("table_kinds.tournament.left_reply", lang)
    return t("table.reply.leaving" if still else "table.reply.left", lang)


def tables_line(state: TableState, lang: str) -> str:
    """One open table in `/stoppa tables`: where (a channel mention), seats, stakes, status."""
    if state.status == "playing" and state.hand_no:
        status = t("living.list.playing", lang, hand_no=state.hand_no)
    else:
        status = t("living.list.lobby", lang)
    seated = len(state.seats)
    return t("living.list.line", lang, where=f"<#{state.channel_id}>", seated=seated,
             free=max(0, MAX_PLAYERS - seated), ante=state.stakes.ante, status=status)


def table_host(state: TableState) -> int | None:
    """The table's host: its opener while seated (the first seat), else the player seated
    longest; CPU seats never host. None when only CPU players are left."""
    return next((seat.user_id for seat in state.seats if not is_cpu(seat.user_id)), None)
