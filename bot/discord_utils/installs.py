"""Where each top-level command is installed and offered (issue 38).

A Discord app is installed to a server (the bot joins it) or to a member's account (the
member's commands then work in DMs, group DMs and servers the bot is not in). Install types
(`integration_types`) and contexts belong to a top-level command, so every top-level command
of the bot says both, with one of the two decorators here:

- `@server_command`: server install, server context. It needs the bot in the server (tables,
  chips, settings, ratings live in the server's rows and channels).
- `@member_command`: server and member install, every context (the bot's DM, group DMs,
  servers). It answers through the interaction alone where the bot was not invited
  (`bot_is_here`), and writes nothing to a server it is not in.

`installed_here` is the tree's check for a client that offers a server command where the
bot is not (an out-of-date command list): the polite refusal Discord itself spares an honest
client. (In a DM the tree's `guild_only` check answers first.)
"""

from __future__ import annotations

from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

#: What a decorator of this module may decorate: a command or a group (above its
#: `@app_commands.command`), or a cog class (a `GroupCog`: its group). Never a plain function:
#: placed on a helper by mistake, it would leave the command without its installs and
#: contexts (mypy refuses it).
CommandT = TypeVar(
    "CommandT",
    bound=app_commands.Command[Any, ..., Any] | app_commands.Group | type[commands.Cog],
)


def server_command(item: CommandT) -> CommandT:
    """A top-level command (or group, or GroupCog class) for servers that invited the bot."""
    item = app_commands.guild_only()(item)
    return app_commands.allowed_installs(guilds=True, users=False)(item)


def member_command(item: CommandT) -> CommandT:
    """A top-level command a member may also install to their account, usable anywhere."""
    item = app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)(item)
    return app_commands.allowed_installs(guilds=True, users=True)(item)


def bot_is_here(interaction: discord.Interaction) -> bool:
    """Whether the bot itself was invited where `interaction` happens: a server that installed
    it, or the bot's own DM. Elsewhere (a server without the bot, a group DM) only the
    interaction's own answers and follow-ups may be sent."""
    if interaction.guild_id is not None:
        return interaction.is_guild_integration()
    return interaction.context.dm_channel


def is_server_only(command: app_commands.Command | app_commands.Group) -> bool:
    """Whether the top-level command of `command` is installed to servers only."""
    root = command.root_parent or command
    installs = root.allowed_installs
    return installs is None or not installs.user


def installed_here(
    interaction: discord.Interaction, command: app_commands.Command | app_commands.Group
) -> bool:
    """False for a server command used outside a server that installed the bot (a client
    with an out-of-date command list): the tree refuses it politely (`errors.not_installed_here`)
    instead of writing rows of a server the bot is not in."""
    if not is_server_only(command):
        return True
    return interaction.guild_id is None or interaction.is_guild_integration()
