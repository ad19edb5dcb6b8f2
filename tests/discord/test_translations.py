"""Command texts are localised in the payload Discord receives when the tree is synced."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord_utils import StoppaTranslator
from bot.i18n import t
from tests.harness import Harness

MANAGE_GUILD = discord.Permissions(manage_guild=True).value
MANAGER_GROUPS = {"chips", "settings"}


def _walk(command: dict[str, Any]) -> list[dict[str, Any]]:
    """The command, its subcommands and options (everything that has a description)."""
    out = [command]
    for option in command.get("options", []):
        out += _walk(option)
    return out


async def test_synced_payload_is_localised_in_italian(h: Harness) -> None:
    payload = await h.sync_commands()
    names = {c["name"] for c in payload}
    assert {"rules", "balance", "daily", "leaderboard", "stats", "stakes", "variants"} | (
        MANAGER_GROUPS
    ) <= names
    for command in payload:
        for item in _walk(command):
            assert item["description"], item["name"]
            assert len(item["description"]) <= 100
            assert item.get("description_localizations", {}).get("it"), item["name"]
            assert item["description_localizations"]["it"] != item["description"]
            for option_choice in item.get("choices", []):
                assert option_choice["name_localizations"].get("it")
    rules = next(c for c in payload if c["name"] == "rules")
    assert rules["description"] == t("commands.rules.description", "en")
    assert rules["description_localizations"]["it"] == t("commands.rules.description", "it")
    assert rules["description_localizations"]["en-GB"] == t("commands.rules.description", "en")
    topic = rules["options"][0]
    assert topic["description_localizations"]["it"] == t("commands.rules.topic", "it")
    names_it = {c["value"]: c["name_localizations"]["it"] for c in topic["choices"]}
    assert names_it["big_point"] == t("commands.rules.choices.big_point", "it")


async def test_manager_groups_carry_default_permissions(h: Harness) -> None:
    payload = await h.sync_commands()
    for command in payload:
        if command["name"] in MANAGER_GROUPS:
            assert command["default_member_permissions"] == MANAGE_GUILD, command["name"]
            assert command["contexts"] == [0]  # guild only
            for sub in command["options"]:
                assert "default_member_permissions" not in sub
        else:
            assert command.get("default_member_permissions") is None, command["name"]


async def test_translated_payload_of_one_command(h: Harness) -> None:
    command = h.bot.tree.get_command("leaderboard")
    assert command is not None
    data = await command.get_translated_payload(h.bot.tree, StoppaTranslator())
    by = next(o for o in data["options"] if o["name"] == "by")
    it_names = sorted(c["name_localizations"]["it"] for c in by["choices"])
    assert it_names == sorted(
        t(f"commands.leaderboard.choices.{k}", "it") for k in ("balance", "net", "closes", "rating")
    )


async def test_translator_ignores_unknown_locales_and_keys() -> None:
    translator = StoppaTranslator()
    text = discord.app_commands.locale_str("x", key="commands.daily.description")
    ctx = discord.app_commands.TranslationContext(
        discord.app_commands.TranslationContextLocation.other, None
    )
    assert await translator.translate(text, discord.Locale.german, ctx) is None
    assert await translator.translate(text, discord.Locale.italian, ctx) == t(
        "commands.daily.description", "it"
    )
    plain = discord.app_commands.locale_str("no key")
    assert await translator.translate(plain, discord.Locale.italian, ctx) is None
