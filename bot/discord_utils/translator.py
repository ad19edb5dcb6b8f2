"""Command, option and choice texts from the `commands.toml` catalogue.

Cogs never write a description as a literal: they use `cmd_str("commands.balance.description")`,
which is a `locale_str` whose message is the English text (Discord's default) and whose `key`
extra names the catalogue entry. `StoppaTranslator` serves the Italian (and explicit English)
texts when the tree is synced.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.i18n import has, t

#: Discord locales mapped to our catalogue languages.
LOCALES: dict[discord.Locale, str] = {
    discord.Locale.italian: "it",
    discord.Locale.american_english: "en",
    discord.Locale.british_english: "en",
}


def key(prefix: str, *parts: object) -> str:
    """A catalogue key built from a prefix and variable parts: `key("rules", topic, "body")`."""
    return ".".join((prefix, *(str(part) for part in parts)))


def cmd_str(key: str) -> app_commands.locale_str:
    """A translatable command text: English message, catalogue `key` in the extras."""
    return app_commands.locale_str(t(key, "en"), key=key)


def choice(key: str, value: Any) -> app_commands.Choice:
    """An option choice whose display name comes from the catalogue entry `key`."""
    return app_commands.Choice(name=cmd_str(key), value=value)


class StoppaTranslator(app_commands.Translator):
    """Translates `locale_str`s that carry a `key` extra, for the locales in `LOCALES`."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The catalogue text of `string` in `locale`, or None (Discord shows the default)."""
        lang = LOCALES.get(locale)
        key = string.extras.get("key")
        if lang is None or key is None or not has(key, lang):
            return None
        text = t(key, lang)
        # Discord's limits: names 1-32 chars, descriptions and choice names 1-100 chars
        return text[:100]
