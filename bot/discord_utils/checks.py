"""Permission checks done in code, in addition to Discord's `default_permissions`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import discord
from discord import app_commands

T = TypeVar("T")


class NotManager(app_commands.CheckFailure):
    """The user lacks the Manage Server permission (or the command ran outside a server)."""


def is_manager(interaction: discord.Interaction) -> bool:
    """Whether the user may manage this server: Manage Server (Administrator implies it)."""
    if interaction.guild_id is None:
        return False
    return bool(interaction.permissions.manage_guild)


def manage_guild_check() -> Callable[[T], T]:
    """An `app_commands.check` that raises `NotManager` unless `is_manager`.

    Discord honours `default_permissions` only on top-level commands and groups, and a server can
    override it in its integration settings, so manager commands check again here.
    """

    async def predicate(interaction: discord.Interaction) -> bool:
        if not is_manager(interaction):
            raise NotManager("Manage Server permission required")
        return True

    return app_commands.check(predicate)
