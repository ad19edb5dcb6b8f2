"""Helpers shared by the cogs: language choice, command translations, errors, permission checks.

- `lang_for(interaction, store=None) -> "it" | "en"`
- `cmd_str(key)`, `choice(key, value)`, `StoppaTranslator`: command texts from `commands.toml`
- `key(prefix, *parts)`: a catalogue key with variable parts (`key("rules", topic, "body")`)
- `UserFacingError(key, **params)`: raise it in a command to refuse politely (catalogue text)
- `send_ephemeral(interaction, text, embed=None)`: private answer, responded or not
- `report_interaction_error(interaction, error)`: log + polite answer
- `StoppaView`: a View base whose `on_error` does that; `@guarded`: the same for a
  `DynamicItem.callback` (discord.py runs those in a plain View that only logs)
- `StoppaTree`: the CommandTree whose `on_error` does the above for every command
- `is_manager(interaction)`, `manage_guild_check()`, `NotManager`
"""

from __future__ import annotations

from bot.discord_utils.checks import NotManager, is_manager, manage_guild_check
from bot.discord_utils.errors import (
    StoppaTree,
    StoppaView,
    UserFacingError,
    describe_error,
    guarded,
    report_interaction_error,
    send_ephemeral,
)
from bot.discord_utils.language import lang_for, server_language
from bot.discord_utils.translator import LOCALES, StoppaTranslator, choice, cmd_str, key

__all__ = [
    "LOCALES",
    "NotManager",
    "StoppaTranslator",
    "StoppaTree",
    "StoppaView",
    "UserFacingError",
    "choice",
    "cmd_str",
    "describe_error",
    "guarded",
    "is_manager",
    "key",
    "lang_for",
    "manage_guild_check",
    "report_interaction_error",
    "send_ephemeral",
    "server_language",
]
