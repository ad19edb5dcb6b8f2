"""The README's invite URL and permission list agree with the code (issue 15: README)."""

from __future__ import annotations

from pathlib import Path

import discord

from bot.invite import BOT_PERMISSIONS, invite_url

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")

#: discord.py's permission names as Discord's client shows them
SHOWN = {
    "read_messages": "View Channel",  # discord.py iterates view_channel under its old name
    "send_messages": "Send Messages",
    "send_messages_in_threads": "Send Messages in Threads",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
    "read_message_history": "Read Message History",
}


def test_the_permission_integer_is_computed_from_the_permissions() -> None:
    expected = discord.Permissions(
        view_channel=True, send_messages=True, send_messages_in_threads=True,
        embed_links=True, attach_files=True, read_message_history=True,
    ).value
    assert BOT_PERMISSIONS.value == expected == 274878024704
    assert f"permissions={expected}" in README
    assert invite_url("YOUR_APPLICATION_ID") in README


def test_every_permission_is_listed_and_no_other() -> None:
    granted = {name for name, value in BOT_PERMISSIONS if value}
    assert granted == set(SHOWN)
    for name in granted:
        assert f"| {SHOWN[name]} |" in README


def test_the_service_sections_are_there() -> None:
    for text in ("python -m bot sync", "SIGTERM", ".backup", "ephemeral disk", "PostgreSQL",
                 "database file: "):
        assert text in README
    assert (ROOT / "Procfile").read_text().strip() == "worker: python -m bot"
