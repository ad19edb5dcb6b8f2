"""What the bot must be allowed to do in a channel to run a table there, and how to say what
is missing.

A table is one public message with an image, an embed and buttons, edited as the game goes:
the bot needs to see the channel, post in it (in a thread: post in threads), embed, attach,
and read the history (to edit its own message). Discord tells the bot its permissions in the
channel of every interaction (`interaction.app_permissions`), so they are checked there,
before anything is opened, with no request.
"""

from __future__ import annotations

import discord

from bot.discord_utils.translator import key
from bot.i18n import t

#: Permissions a table needs in a text channel (discord.py attribute names), in the order
#: Discord's settings list them.
TABLE_PERMISSIONS: tuple[str, ...] = (
    "view_channel",
    "send_messages",
    "embed_links",
    "attach_files",
    "read_message_history",
)
#: The same in a thread: posting there is "Send Messages in Threads".
THREAD_TABLE_PERMISSIONS: tuple[str, ...] = (
    "view_channel",
    "send_messages_in_threads",
    "embed_links",
    "attach_files",
    "read_message_history",
)
_THREAD_TYPES = frozenset(
    {discord.ChannelType.public_thread, discord.ChannelType.private_thread,
     discord.ChannelType.news_thread}
)


def in_thread(interaction: discord.Interaction) -> bool:
    """Whether the interaction comes from a thread."""
    channel = interaction.channel
    return isinstance(channel, discord.Thread) or getattr(channel, "type", None) in _THREAD_TYPES


def missing_permissions(permissions: discord.Permissions, *, thread: bool) -> list[str]:
    """The table permissions `permissions` lacks (none for an administrator)."""
    if permissions.administrator:
        return []
    needed = THREAD_TABLE_PERMISSIONS if thread else TABLE_PERMISSIONS
    return [name for name in needed if not getattr(permissions, name)]


def missing_here(interaction: discord.Interaction) -> list[str]:
    """The table permissions the bot lacks in the interaction's channel."""
    return missing_permissions(interaction.app_permissions, thread=in_thread(interaction))


def permission_names(names: list[str], lang: str) -> str:
    """The permissions as Discord's settings name them, in `lang`, as one list."""
    return t("access.separator", lang).join(t(key("access.permission", n), lang) for n in names)
