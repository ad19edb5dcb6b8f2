"""Every command a reader is told about exists, and /help names every command (issue 25).

/help once left out `/settings economy`, `/settings tournaments`, `/settings show` and
`/season new`, and docs/rules.md sent managers to `/stakes` (it is `/settings stakes`). The
names are checked against the real CommandTree the bot syncs to Discord."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from discord import app_commands

from bot.i18n import SUPPORTED, catalogue, t
from cogs.help import SECTIONS
from tests.harness import Harness

ROOT = Path(__file__).resolve().parents[2]
#: a command written in backticks: `/stoppa new`, `/rules topic:` (group and subcommand)
NAMED = re.compile(r"`/([a-z]+)(?: ([a-z]+))?")
#: backticked paths that are not commands (a Docker volume, the metrics server's pages)
NOT_COMMANDS = {"data", "metrics", "livez", "readyz", "srv"}
#: commands /help deliberately does not name: none (it names /help itself where it says what
#: works anywhere, issue 38)
LEFT_OUT_OF_HELP: set[str] = set()
#: named in a catalogue before they exist (reported defects, not a way to silence the test)
NOT_BUILT_YET: set[str] = set()


def tree_commands(h: Harness) -> tuple[set[str], set[str]]:
    """(every command's full name, the names of the groups) of the bot's CommandTree."""
    commands = {c.qualified_name for c in h.bot.tree.walk_commands()
                if isinstance(c, app_commands.Command)}
    groups = {c.qualified_name for c in h.bot.tree.walk_commands()
              if isinstance(c, app_commands.Group)}
    return commands, groups


def named_commands(text: str, groups: set[str]) -> set[str]:
    """The commands `text` names in backticks (a group's name with its subcommand)."""
    out = set()
    for first, second in NAMED.findall(text):
        if first in NOT_COMMANDS:
            continue
        out.add(f"{first} {second}" if first in groups and second else first)
    return out


def help_text(lang: str) -> str:
    return "\n".join(t(f"help.{s}", lang) for s in SECTIONS)


async def test_every_command_named_for_readers_exists(h: Harness) -> None:
    commands, groups = tree_commands(h)
    assert "stoppa new" in commands and "stoppa" in groups
    sources = {"README.md": (ROOT / "README.md").read_text(encoding="utf-8")} | {
        f"docs/{page.name}": page.read_text(encoding="utf-8")
        for page in (ROOT / "docs").glob("*.md")
    }
    for lang in SUPPORTED:
        sources[f"catalogue {lang}"] = "\n".join(catalogue(lang).values())
    for name, text in sources.items():
        unknown = named_commands(text, groups) - commands - NOT_BUILT_YET
        assert not unknown, f"{name} names commands that do not exist: {unknown}"
    assert not NOT_BUILT_YET & commands, "built now: take it off NOT_BUILT_YET"


@pytest.mark.parametrize("lang", SUPPORTED)
async def test_help_names_every_command(h: Harness, lang: str) -> None:
    commands, groups = tree_commands(h)
    named = named_commands(help_text(lang), groups)
    assert named <= commands
    assert commands - named == LEFT_OUT_OF_HELP
    reply = await h.slash(h.member("Zoe", locale=lang), "help")
    shown = reply.text
    for command in commands - LEFT_OUT_OF_HELP:
        assert f"/{command}" in shown, command
    assert len(shown) < 6000
    assert all(len(field["value"]) <= 1024 for field in reply.embeds[0]["fields"])


def test_a_missing_command_would_be_caught() -> None:
    groups = {"settings", "stoppa"}
    assert named_commands("`/settings economy` and `/stakes` and `/data`", groups) == {
        "settings economy", "stakes"}


def test_stoppa_new_says_it_opens_a_thread() -> None:
    assert "thread" in t("help.play", "en") and "thread" in t("help.play", "it")
    assert "thread" in t("table.cmd.new", "en") and "thread" in t("table.cmd.new", "it")
