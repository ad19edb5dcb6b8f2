"""Which language ("it" or "en") to answer an interaction in."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from bot.i18n import DEFAULT, normalize_locale

if TYPE_CHECKING:
    import discord

_log = logging.getLogger(__name__)


#: Seconds a server's pinned language is reused without asking the store (`/settings
#: language` forgets it at once): answers need no store round trip (which may wait for the
#: store's lock) before they are deferred, and the table publisher reads it on every edit.
LANGUAGE_TTL = 60.0
_pinned: dict[tuple[int, int], tuple[float, str | None]] = {}


def forget_server_language(guild_id: int | None = None) -> None:
    """Drop the remembered pinned language of `guild_id` (of every server when None)."""
    if guild_id is None:
        _pinned.clear()
        return
    for cached in [k for k in _pinned if k[1] == guild_id]:
        _pinned.pop(cached, None)


async def server_language(store: Any, guild_id: int | None) -> str | None:
    """The language a server pinned with `/settings language` ("it"/"en"), or None (auto).

    Remembered `LANGUAGE_TTL` seconds per store and server."""
    if store is None or guild_id is None:
        return None
    cache_key = (id(store), guild_id)
    hit = _pinned.get(cache_key)
    if hit is not None and time.monotonic() - hit[0] < LANGUAGE_TTL:
        return hit[1]
    try:
        settings = await store.server_settings(guild_id)
    except Exception:  # a broken store must not stop an error reply from being written
        _log.exception("could not read the language of guild %s", guild_id)
        return None
    language = normalize_locale(getattr(settings, "language", None))
    _pinned[cache_key] = (time.monotonic(), language)
    return language


async def lang_for(interaction: discord.Interaction, store: Any = None) -> str:
    """The language to answer `interaction` in.

    In order: the user's Discord locale if it is Italian or English; else the language the server
    pinned (`server_settings.language`); else the server's preferred locale if Italian or English;
    else English. `store` defaults to `interaction.client.store` when present.
    """
    user_lang = normalize_locale(getattr(interaction, "locale", None))
    if user_lang is not None:
        return user_lang
    if store is None:
        store = getattr(interaction.client, "store", None)
    pinned = await server_language(store, interaction.guild_id)
    if pinned is not None:
        return pinned
    return normalize_locale(getattr(interaction, "guild_locale", None)) or DEFAULT
