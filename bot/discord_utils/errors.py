"""Polite error replies, and the command tree that logs and answers every failure.

Nothing a player does should end in Discord's "This interaction failed": every exception of a
command reaches `StoppaTree.on_error`, which logs it (with the command, guild, channel and user
ids) and answers with an ephemeral message in the user's language. Views and DynamicItems (which
do not go through the tree) call `report_interaction_error` from their own `on_error`.
A refusal of any ring (a `UserFacingError`, the table service's `TableError`, the engine's
`IllegalAction`, the ratings' `RankedError`, the store's errors) is worded in one place,
`refusal_text`, which every guard and this tree use.
"""

from __future__ import annotations

import functools
import logging
import sqlite3
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.discord_utils.checks import NotManager
from bot.discord_utils.client_type import OurMethod, P, R, S, TheirMethod, for_stoppa_bot
from bot.discord_utils.components import custom_id_of, mark_handled
from bot.discord_utils.installs import installed_here
from bot.discord_utils.language import lang_for
from bot.engine import IllegalAction
from bot.i18n import t
from bot.i18n.refusals import readable
from bot.ratings.errors import RankedError
from bot.store.errors import CooldownActive, InvalidStakes, StoreError
from bot.tables.errors import TableError

if TYPE_CHECKING:  # the client imports this package: the bot's type is for mypy only
    from bot.client import StoppaBot

_log = logging.getLogger("stoppa.discord")



class UserFacingError(app_commands.AppCommandError):
    """A refusal to show the user: a catalogue key and its parameters. Not logged as a bug."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def text(self, lang: str) -> str:
        """The message in `lang`."""
        return t(self.key, lang, **self.params)


async def send_ephemeral(
    interaction: discord.Interaction,
    content: str | None = None,
    *,
    embed: discord.Embed | None = None,
    view: discord.ui.View | None = None,
) -> None:
    """Answer `interaction` privately, whether or not it was already answered or deferred.

    Not answered yet: an ephemeral response. Deferred with "thinking": the original (loading)
    message is edited, because Discord turns the first followup into that message anyway.
    Otherwise: an ephemeral followup. `view` adds components (e.g. a fresh action panel).
    A failure to answer (token expired) is logged, not raised.
    """
    embeds = [embed] if embed is not None else []
    shown = view if view is not None else discord.utils.MISSING  # MISSING: no components
    try:
        if not interaction.response.is_done():
            await interaction.response.send_message(
                content, embeds=embeds, ephemeral=True, view=shown
            )
        elif interaction.response.type is discord.InteractionResponseType.deferred_channel_message:
            await interaction.edit_original_response(
                content=content, embeds=embeds, attachments=[], view=view
            )
        else:
            await interaction.followup.send(
                content or "", embeds=embeds, ephemeral=True, view=shown
            )
    except discord.HTTPException:
        _log.warning(
            "could not answer interaction %s (user=%s)", interaction.id, interaction.user.id,
            exc_info=True,
        )


def _store_error_text(error: BaseException, lang: str) -> str | None:
    """The text of a `bot.store` error (they carry `code`/`params` and `message(lang)`)."""
    if isinstance(error, CooldownActive):
        return t("errors.daily_cooldown", lang, when=f"<t:{int(error.retry_at)}:R>")
    if not isinstance(error, StoreError):
        return None
    try:
        text = error.message(lang)
    except (KeyError, IndexError, AttributeError):
        text = str(error)
    if isinstance(error, InvalidStakes):
        return t("errors.invalid_stakes", lang, reason=text)
    return text


#: The params of a table or engine refusal that hold a user id (shown as a mention).
USER_PARAMS = ("player", "by", "dealer", "to")


def _mentioned(params: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(params)
    for key in USER_PARAMS:
        value = out.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            out[key] = f"<@{value}>"
    return out


def _table_refusal_text(error: TableError | IllegalAction, lang: str) -> str:
    """A table or engine refusal, user ids as mentions and engine identifiers named; an
    unplayable set of stakes without the engine's reason (written for developers)."""
    if isinstance(error, TableError):
        key, params = error.key, _mentioned(error.params)
    else:
        key, params = f"engine.{error.code}", _mentioned(getattr(error, "params", {}) or {})
    if key == "tables.errors.bad_stakes":
        key, params = "input.bad_stakes", {}
    try:
        return t(key, lang, **readable(params, lang, cards=isinstance(error, IllegalAction)))
    except (KeyError, IndexError):
        _log.warning("no catalogue text for refusal %s", key)
        return t("errors.not_allowed", lang)


def refusal_text(error: BaseException, lang: str) -> str | None:
    """The words, in `lang`, of a refusal of any ring; None when `error` is no refusal (a
    bug, to report)."""
    if isinstance(error, UserFacingError):
        return error.text(lang)
    if isinstance(error, TableError | IllegalAction):
        return _table_refusal_text(error, lang)
    if isinstance(error, RankedError):
        return t(error.key, lang, **error.params)
    return _store_error_text(error, lang)


def refusal_code(error: BaseException) -> str:
    """What a log line says of a refusal: its code or key only (params may name a card of
    the player's hand)."""
    return str(getattr(error, "code", getattr(error, "key", type(error).__name__)))


def check_options(command: app_commands.Command[Any, ..., Any],
                  namespace: app_commands.Namespace) -> None:
    """Refuse (`UserFacingError`) an option that is not one of its choices, or outside its
    declared bounds: numbers by value, strings by length (discord.py keeps both in
    `min_value`/`max_value`); and a text holding a control character (`checked_text`)."""
    from bot.discord_utils.numbers import checked_range, echo  # (numbers imports this module)

    check_texts(namespace)
    for parameter in command.parameters:
        chosen = getattr(namespace, parameter.display_name, None)
        if parameter.choices and chosen is not None and chosen not in {
            c.value for c in parameter.choices
        }:
            raise UserFacingError("errors.bad_option", value=echo(chosen))
        low, high = parameter.min_value, parameter.max_value
        if low is None and high is None:
            continue
        value = getattr(namespace, parameter.display_name, None)
        if isinstance(value, bool) or value is None:
            continue
        if isinstance(value, int | float):
            checked_range(value, low, high)
        elif isinstance(value, str) and not (low or 0) <= len(value) <= (high or len(value)):
            raise UserFacingError("input_numbers.text_length", low=low or 0,
                                  high=high if high is not None else len(value))


def check_texts(namespace: app_commands.Namespace) -> None:
    """Refuse (`UserFacingError`) any string option holding a control character."""
    from bot.discord_utils.text import checked_text  # (text imports this module)

    for _, value in namespace:
        if isinstance(value, str):
            checked_text(value)


def is_busy(error: BaseException) -> bool:
    """Whether `error` says the database is busy (another process holds SQLite's write lock
    longer than the busy timeout): worth "try again", not a bug."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if not isinstance(error, sqlite3.OperationalError):
        return False
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)  # (extended codes)
    return "database is locked" in str(error)  # i18n: not user-facing


def describe_error(error: BaseException, lang: str) -> tuple[str, bool]:
    """The text to show for `error` in `lang`, and whether it is expected (not a bug)."""
    original = error
    if isinstance(error, app_commands.CommandInvokeError):
        original = error.original
    refused = refusal_text(original, lang)
    if refused is not None:
        return refused, True
    if isinstance(original, NotManager | app_commands.MissingPermissions):
        return t("errors.need_manage_guild", lang), True
    if isinstance(original, app_commands.NoPrivateMessage):
        return t("errors.guild_only", lang), True
    if isinstance(original, app_commands.CommandOnCooldown):
        return t("errors.slow_down", lang, seconds=f"{original.retry_after:.0f}"), True
    if isinstance(original, app_commands.TransformerError):
        return t("errors.bad_option", lang, value=str(original.value)[:50]), True
    if isinstance(original, app_commands.CheckFailure):
        return t("errors.not_allowed", lang), True
    if isinstance(original, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        return t("errors.out_of_date", lang), True
    if is_busy(original):
        return t("input_context.busy", lang), True
    return t("errors.unexpected", lang), False


async def report_interaction_error(
    interaction: discord.Interaction[StoppaBot], error: BaseException, *, where: str = ""
) -> None:
    """Log `error` (a full traceback when it is a bug) and answer the user politely."""
    command = interaction.command.qualified_name if interaction.command else (where or "?")
    try:
        lang = await lang_for(interaction)
    except Exception:
        lang = "en"
    text, expected = describe_error(error, lang)
    cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    if is_busy(cause):
        _log.warning(
            "database busy in %s guild=%s channel=%s user=%s: %s",
            command, interaction.guild_id, interaction.channel_id, interaction.user.id, cause,
        )
    elif expected:
        _log.info(
            "refused %s guild=%s channel=%s user=%s: %r",
            command, interaction.guild_id, interaction.channel_id, interaction.user.id, cause,
        )
    else:
        _log.error(
            "error in %s guild=%s channel=%s user=%s interaction=%s",
            command, interaction.guild_id, interaction.channel_id, interaction.user.id,
            interaction.id, exc_info=cause,
        )
        text = f"{text}\n-# {t('errors.reference', lang, ref=interaction.id)}"
    await send_ephemeral(interaction, text)


class StoppaTree(app_commands.CommandTree["StoppaBot"]):
    """The bot's command tree: every command error is logged and answered (never swallowed).

    Before any command runs, `interaction_check` refuses politely what Discord itself would
    have refused for an honest client: a server command used in a DM, an option outside
    the bounds the command declares (`Range`: Discord checks them, discord.py does not), and
    a text holding a control character (`bot.discord_utils.text`)."""

    async def interaction_check(self, interaction: discord.Interaction[StoppaBot], /) -> bool:
        """Refuse (an `AppCommandError`, answered by `on_error`) a server command in a DM
        and an option out of its bounds; an autocomplete there gets no suggestions."""
        command = interaction.command
        if not isinstance(command, app_commands.Command):
            return True
        try:
            if interaction.guild_id is None and (command.root_parent or command).guild_only:
                raise app_commands.NoPrivateMessage()
            if not installed_here(interaction, command):
                raise UserFacingError("errors.not_installed_here")
            if interaction.type is discord.InteractionType.application_command:
                check_options(command, interaction.namespace)
            else:  # an autocomplete: the text typed so far
                check_texts(interaction.namespace)
        except app_commands.AppCommandError:
            if interaction.type is discord.InteractionType.autocomplete:
                if not interaction.response.is_done():
                    await interaction.response.autocomplete([])
                return False
            raise
        return True

    async def on_error(
        self, interaction: discord.Interaction[StoppaBot], error: app_commands.AppCommandError, /
    ) -> None:
        """Log the error with its ids and send the user an ephemeral explanation."""
        await report_interaction_error(interaction, error)


class StoppaView(discord.ui.View):
    """A View whose item errors are logged and answered politely (not "This interaction
    failed"). Use it as the base of every view with callbacks."""

    @for_stoppa_bot
    async def on_error(
        self, interaction: discord.Interaction[StoppaBot], error: Exception,
        item: discord.ui.Item[Any], /,
    ) -> None:
        """Log the error with its ids and answer the user privately."""
        where = f"{type(self).__name__}:{getattr(item, 'custom_id', None)}"
        await report_interaction_error(interaction, error, where=where)


async def answer_out_of_date(interaction: discord.Interaction[StoppaBot]) -> None:
    """The last resort of a component nobody answered: "this button is out of date"."""
    if interaction.response.is_done():
        return
    try:
        lang = await lang_for(interaction)
    except Exception:
        lang = "en"
    _log.info(
        "unanswered component %r user=%s: answered as out of date",
        custom_id_of(interaction), interaction.user.id,
    )
    await send_ephemeral(interaction, t("errors.button_out_of_date", lang))


def guarded(callback: OurMethod[S, P, R]) -> TheirMethod[S, P, R | None]:
    """Decorate a component callback (`async def callback(self, interaction, ...)`) so that an
    exception is logged and answered politely, and a callback that returned without answering
    is answered "out of date". Needed for `DynamicItem.callback`: discord.py runs dynamic items
    in a plain View whose `on_error` only logs, and nobody else answers them. The callback is
    written for our client and typed as discord.py calls it (`for_stoppa_bot`)."""

    @functools.wraps(callback)
    async def wrapper(
        self: S, interaction: discord.Interaction[StoppaBot], /, *args: P.args, **kwargs: P.kwargs
    ) -> R | None:
        mark_handled(interaction)  # before any await: `on_interaction` leaves it to us
        try:
            result = await callback(self, interaction, *args, **kwargs)
        except Exception as error:
            where = f"{type(self).__name__}:{getattr(self, 'custom_id', None)}"
            await report_interaction_error(interaction, error, where=where)
            return None
        await answer_out_of_date(interaction)
        return result

    return for_stoppa_bot(wrapper)
