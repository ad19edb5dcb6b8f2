"""Which language ("it" or "en") to answer an interaction in."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bot.i18n import DEFAULT, normalize_locale
from bot.i18n.currency import Currency

if TYPE_CHECKING:  # the client imports this package: the bot's type is for mypy only
    import discord

    from bot.client import StoppaBot
    from bot.store.contract import StoreContract
    from bot.store.models import ServerSettings

_log = logging.getLogger(__name__)


class ServerLanguages:
    """The language each server pinned, and all its settings (its currency, the rules of
    /daily and /give), kept in memory by the client (`client.languages`).

    Answers must not wait for the store before they are deferred (Discord's 3 seconds, and the
    store may be busy): the client loads a server's setting when the server becomes available
    (`load`), `/settings` writes the new one (`remember`), and `lang_for` only reads memory.
    A server not loaded yet is read from the store once (`known` is False until then).

    It also keeps the language each member last used the bot in (their Discord locale, when
    Italian or English: `member`): a ping or a table whose seats' languages are not stored
    (seated before they were, or not seated yet) speaks it. Only memory: what a table speaks
    is kept with its seats (`spoken`, `TableState.languages`), which survives a restart.
    """

    def __init__(self) -> None:
        self._pinned: dict[int, str | None] = {}
        self._settings: dict[int, ServerSettings] = {}
        self._members: dict[int, str] = {}

    def known(self, guild_id: int) -> bool:
        """Whether the server's setting is in memory."""
        return guild_id in self._pinned

    def get(self, guild_id: int) -> str | None:
        """The pinned language ("it"/"en"), or None (automatic, or not known)."""
        return self._pinned.get(guild_id)

    def member(self, user_id: int) -> str | None:
        """The language `user_id` last used the bot in ("it"/"en"), or None (not known)."""
        return self._members.get(user_id)

    def remember_member(self, user_id: int, locale: object | None) -> str | None:
        """Keep the language of a member's Discord locale (none kept when neither Italian nor
        English); the language, or None."""
        language = normalize_locale(locale)
        if language is not None:
            self._members[user_id] = language
        return language

    def remember(self, guild_id: int, language: str | None) -> None:
        """Keep the server's setting (after `/settings language`, or a load)."""
        self._pinned[guild_id] = normalize_locale(language)

    def forget(self, guild_id: int) -> None:
        """Drop the server's setting: the next use reads the store (another writer)."""
        self._pinned.pop(guild_id, None)
        self._settings.pop(guild_id, None)

    def remember_settings(self, guild_id: int, settings: ServerSettings) -> None:
        """Keep all of the server's settings (after a load or any `/settings` change)."""
        self._settings[guild_id] = settings
        self.remember(guild_id, settings.language)

    def settings(self, guild_id: int) -> ServerSettings | None:
        """The server's settings in memory (None: not loaded yet)."""
        return self._settings.get(guild_id)

    def currency(self, guild_id: int | None) -> Currency:
        """The server's currency (the bot's own words when not loaded or not named)."""
        settings = self._settings.get(guild_id) if guild_id is not None else None
        if settings is None:
            return Currency()
        return Currency(settings.currency_name, settings.currency_emoji)

    async def load(self, store: StoreContract, guild_id: int) -> str | None:
        """Read the server's setting from the store and keep it."""
        try:
            settings = await store.server_settings(guild_id)
        except Exception:  # a broken store must not stop an answer: automatic language
            _log.exception("could not read the language of guild %s", guild_id)
            return None
        self.remember_settings(guild_id, settings)
        return self.get(guild_id)


def server_currency(client: StoppaBot, guild_id: int | None) -> Currency:
    """The currency of a server from the client's memory (`client.languages`), without I/O;
    the bot's own words when the client has not loaded the server yet."""
    return client.languages.currency(guild_id)


def remember_settings(client: StoppaBot, guild_id: int | None, settings: ServerSettings) -> None:
    """Tell the client's `ServerLanguages` a server's new settings."""
    if guild_id is not None:
        client.languages.remember_settings(guild_id, settings)


def remember_language(client: StoppaBot, guild_id: int | None, language: str | None) -> None:
    """Tell the client's `ServerLanguages` a server's new pinned language."""
    if guild_id is not None:
        client.languages.remember(guild_id, language)


def spoken(interaction: discord.Interaction[StoppaBot]) -> str | None:
    """The language of the member's own Discord ("it"/"en"; None: neither), kept with their
    seat when they sit (`TableMeta.languages`), so that their table speaks it after a restart
    too (and remembered in memory, as `lang_for` does)."""
    return interaction.client.languages.remember_member(interaction.user.id, interaction.locale)


def lang_in_memory(interaction: discord.Interaction[StoppaBot]) -> str:
    """The language of `lang_for` without any I/O (for autocomplete, which must answer at
    once): a server whose setting is not in memory yet counts as automatic."""
    user_lang = interaction.client.languages.remember_member(interaction.user.id,
                                                             interaction.locale)
    if user_lang is not None:
        return user_lang
    guild_id = interaction.guild_id
    if guild_id is not None:
        pinned = interaction.client.languages.get(guild_id)
        if pinned is not None:
            return pinned
    return normalize_locale(interaction.guild_locale) or DEFAULT


async def lang_for(
    interaction: discord.Interaction[StoppaBot], store: StoreContract | None = None
) -> str:
    """The language to answer `interaction` in.

    In order: the user's Discord locale if it is Italian or English; else the language the server
    pinned (`server_settings.language`); else the server's preferred locale if Italian or English;
    else English. The pinned language comes from the client's memory (`client.languages`, a
    `ServerLanguages`); only a server it has not loaded yet costs a store read (`store`, by
    default `interaction.client.store`; none while the bot is closed).
    The user's language is kept (`ServerLanguages.remember_member`): their tables speak it.
    """
    client = interaction.client
    user_lang = client.languages.remember_member(interaction.user.id, interaction.locale)
    if user_lang is not None:
        return user_lang
    if store is None:
        store = client.store
    languages = client.languages
    guild_id = interaction.guild_id
    pinned: str | None = None
    if guild_id is not None:
        if languages.known(guild_id):
            pinned = languages.get(guild_id)
        elif store is not None:
            pinned = await languages.load(store, guild_id)
    if pinned is not None:
        return pinned
    return normalize_locale(interaction.guild_locale) or DEFAULT
