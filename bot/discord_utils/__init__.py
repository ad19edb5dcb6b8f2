"""Helpers shared by the cogs: language choice, command translations, errors, permission checks.

- `lang_for(interaction, store=None) -> "it" | "en"`, from memory: `ServerLanguages` (the
  client's `languages`: each server's pinned language, loaded when the server is available,
  updated by `/settings`; a server not loaded yet is read from the store once)
- `cmd_str(key)`, `choice(key, value)`, `StoppaTranslator`: command texts from `commands.toml`
- `key(prefix, *parts)`: a catalogue key with variable parts (`key("rules", topic, "body")`)
- `UserFacingError(key, **params)`: raise it in a command to refuse politely (catalogue text)
- `send_ephemeral(interaction, text, embed=None)`: private answer, responded or not
- `report_interaction_error(interaction, error)`: log + polite answer
- `StoppaView`: a View base whose `on_error` does that; `@guarded`: the same for a
  `DynamicItem.callback` or a modal's `on_submit` (discord.py runs dynamic items in a plain
  View that only logs)
- `@for_stoppa_bot`: an overridden discord.py method (`on_error`, `interaction_check`...)
  written with `Interaction[StoppaBot]`, typed as discord.py calls it (our client, said once)
- `answer_out_of_date(interaction)`: the last-resort answer of a component nobody answered
- `custom_id_of`, `selected_values`, `submitted_values`: what a click, a pick or a modal
  submit carries (`interaction.data` is read there only)
- `mark_handled`, `is_orphan`, `OrphanHandler`, `PREFIX`: the
  bookkeeping that lets the bot answer clicks/submits discord.py would drop (see
  `bot.discord_utils.components`)
- `edits.MessageEdit`: a message's new content, sent through an interaction or the channel
- `defer_if_slow(interaction)`: defer when a block of work turns out slow; `send_public`
  answers publicly whether deferred or not
- `StoppaTree`: the CommandTree whose `on_error` does the above for every command
- `is_manager(interaction)`, `manage_guild_check()`, `NotManager`
- `request_budget.RequestBudget`: the bot's one budget of bot-token requests a second
  (`StoppaBot.requests`); every bot-token request of ours waits for room in it first
"""

from __future__ import annotations

from bot.discord_utils.checks import NotManager, is_manager, manage_guild_check
from bot.discord_utils.client_type import for_stoppa_bot
from bot.discord_utils.components import (
    HANDLED,
    PREFIX,
    OrphanHandler,
    custom_id_of,
    is_orphan,
    is_ours,
    mark_handled,
    selected_values,
    submitted_values,
)
from bot.discord_utils.errors import (
    StoppaTree,
    StoppaView,
    UserFacingError,
    answer_out_of_date,
    describe_error,
    guarded,
    report_interaction_error,
    send_ephemeral,
)
from bot.discord_utils.language import (
    ServerLanguages,
    lang_for,
    lang_in_memory,
    remember_language,
    remember_settings,
    server_currency,
    spoken,
)
from bot.discord_utils.timing import (
    DEFER_AFTER,
    defer_if_slow,
    send_public,
    within_autocomplete,
)
from bot.discord_utils.translator import LOCALES, StoppaTranslator, choice, cmd_str, key

__all__ = [
    "DEFER_AFTER",
    "HANDLED",
    "LOCALES",
    "PREFIX",
    "NotManager",
    "OrphanHandler",
    "ServerLanguages",
    "StoppaTranslator",
    "StoppaTree",
    "StoppaView",
    "UserFacingError",
    "answer_out_of_date",
    "choice",
    "cmd_str",
    "custom_id_of",
    "defer_if_slow",
    "describe_error",
    "for_stoppa_bot",
    "guarded",
    "is_manager",
    "is_orphan",
    "is_ours",
    "key",
    "lang_for",
    "lang_in_memory",
    "manage_guild_check",
    "mark_handled",
    "remember_language",
    "remember_settings",
    "report_interaction_error",
    "selected_values",
    "send_ephemeral",
    "send_public",
    "server_currency",
    "spoken",
    "submitted_values",
    "within_autocomplete",
]
