"""The permissions the bot asks for when a server adds it, its invite URL, and the URL that
adds it to a member's own account (issue 38).

The table message needs to be seen and written (View Channel, Send Messages, and Send Messages
in Threads for a table in a thread), carry the embed and the table image (Embed Links, Attach
Files), and be found again to be edited (Read Message History). The README quotes the integer
and the URL; `tests/test_readme.py` checks that they agree with this module.
"""

from __future__ import annotations

import discord

BOT_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
)

#: The OAuth2 scopes: the bot user and its slash commands.
SCOPES = ("bot", "applications.commands")


def invite_url(application_id: int | str) -> str:
    """The URL that adds the bot to a server with `BOT_PERMISSIONS`."""
    return (
        "https://discord.com/oauth2/authorize"
        f"?client_id={application_id}&scope={'+'.join(SCOPES)}"
        f"&permissions={BOT_PERMISSIONS.value}"
    )


#: Discord's integration type of an install to a member's account (0 is a server install).
USER_INSTALL = 1


def user_install_url(application_id: int | str) -> str:
    """The URL that adds the app to a member's own account: only its commands (no bot user,
    no permissions), usable in DMs, group DMs and servers without the bot."""
    return (
        "https://discord.com/oauth2/authorize"
        f"?client_id={application_id}&integration_type={USER_INSTALL}"
        "&scope=applications.commands"
    )
