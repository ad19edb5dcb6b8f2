"""`MemberNames`: a member's display name by server and id, for every cog (one per bot).

The bot has no members intent, so it cannot list a server's members: a name is remembered
from the member's own interactions (free), else read from discord.py's cache, else fetched
once by REST (through the bot's request budget: the member in the server, else the user, for
someone who left) and kept `NAME_TTL` seconds; a name Discord does not know (404) is not
asked again for as long. CPU seats and forgotten members are never asked for (nobody on
Discord to ask): "CPU n", "anon-n".

What a person reads when no name is found depends on where it is written: in a message's
text a mention, which their client shows as the name (`names`, the tables, tournaments and
history); on an image, where a mention cannot be drawn, "Player 123…" in their language
(`name`, the leaderboards).
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Iterable

import discord

from bot.client import StoppaBot
from bot.i18n import t
from bot.store.privacy import is_forgotten
from bot.tables import display_name, is_cpu

#: Seconds a name (or Discord's "no such member") is reused.
NAME_TTL = 600.0

_BY_BOT: weakref.WeakKeyDictionary[StoppaBot, MemberNames] = weakref.WeakKeyDictionary()


class MemberNames:
    """Display names by (server, member): see the module docstring. `MemberNames.of(bot)` is
    the bot's one instance, shared by its cogs."""

    def __init__(self, client: StoppaBot) -> None:
        self.client = client
        #: (guild, user) -> (when, name; None: Discord knows no such member or user)
        self._names: dict[tuple[int, int], tuple[float, str | None]] = {}

    @classmethod
    def of(cls, client: StoppaBot) -> MemberNames:
        """The one instance of `client` (made on first use)."""
        names = _BY_BOT.get(client)
        if names is None:
            names = _BY_BOT[client] = cls(client)
        return names

    def remember(self, guild_id: int | None, user: discord.abc.User) -> None:
        """Keep the display name of the user of an interaction."""
        self._names[(guild_id or 0, user.id)] = (time.monotonic(), user.display_name)

    def known(self, guild_id: int, user_id: int) -> str | None:
        """The remembered name, if fresh."""
        hit = self._names.get((guild_id, user_id))
        if hit is not None and time.monotonic() - hit[0] < NAME_TTL:
            return hit[1]
        return None

    async def names(self, guild_id: int, users: Iterable[int]) -> dict[int, str]:
        """Display names of `users` for a message's text: an unknown member as a mention,
        CPU seats and forgotten members by their neutral name (`display_name`)."""
        out: dict[int, str] = {}
        for user in set(users):
            name = await self.lookup(guild_id, user)
            out[user] = name if name is not None else display_name(user)
        return out

    async def name(self, guild: discord.Guild | None, user_id: int, lang: str) -> str:
        """The display name of `user_id` for an image: an unknown member as "Player …" in
        `lang` (a mention cannot be drawn)."""
        if is_cpu(user_id) or is_forgotten(user_id):
            return display_name(user_id)
        name = await self.lookup(guild.id if guild is not None else 0, user_id)
        return name if name is not None else t("economy.unknown_user", lang, id=user_id)

    async def lookup(self, guild_id: int, user_id: int) -> str | None:
        """The display name of a member (None: a CPU seat, a forgotten member, or nobody
        Discord knows)."""
        if is_cpu(user_id) or is_forgotten(user_id):
            return None
        key = (guild_id, user_id)
        hit = self._names.get(key)
        if hit is not None and time.monotonic() - hit[0] < NAME_TTL:
            return hit[1]
        name, found = await self._fetch(guild_id, user_id)
        if found:
            self._names[key] = (time.monotonic(), name)
        return name

    async def _fetch(self, guild_id: int, user_id: int) -> tuple[str | None, bool]:
        """The name from discord.py's cache or by REST, and whether Discord answered (a name
        or 404: worth keeping; another error is not)."""
        guild = self.client.get_guild(guild_id) if guild_id else None
        if guild is not None:
            member = guild.get_member(user_id)
            if member is not None:
                return member.display_name, True
            try:
                await self.client.requests.acquire()
                return (await guild.fetch_member(user_id)).display_name, True
            except discord.NotFound:
                pass  # not in the server (any more): their name as a user
            except discord.HTTPException:
                return None, False
        user = self.client.get_user(user_id)
        if user is not None:
            return user.display_name, True
        try:
            await self.client.requests.acquire()
            return (await self.client.fetch_user(user_id)).display_name, True
        except discord.NotFound:
            return None, True
        except discord.HTTPException:
            return None, False
