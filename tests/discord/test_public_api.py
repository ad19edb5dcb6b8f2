"""The Discord side uses discord.py's public API only: no private attribute of its objects and
no override of `Client.dispatch` (a click reaches one handler, orphans are answered from
`on_interaction`)."""

from __future__ import annotations

import ast
from pathlib import Path

from discord.ext import commands

from bot.client import StoppaBot

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "bot"
OUTER = [ROOT / "cogs", BOT / "discord_utils", BOT / "tables", BOT / "client.py"]
#: private names of discord.py objects a bot might be tempted to read
PRIVATE = {"_connection", "_view_store", "_views", "_modals", "_dynamic_items", "_state", "_http"}


def _sources() -> list[Path]:
    files: list[Path] = []
    for path in OUTER:
        files += [path] if path.is_file() else sorted(path.rglob("*.py"))
    return files


def test_no_private_discord_attribute_in_the_outer_rings() -> None:
    found = []
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in PRIVATE:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} .{node.attr}")
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "getattr"
                and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant)
                and node.args[1].value in PRIVATE
            ):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} getattr {node.args[1].value}")
    assert found == []


def test_the_bot_does_not_override_dispatch() -> None:
    assert StoppaBot.dispatch is commands.AutoShardedBot.dispatch
