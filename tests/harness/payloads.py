"""Discord-shaped JSON for the harness: users, members, roles, guild, channels, messages.

Shapes follow discord.py's `types/` TypedDicts and what the API sends (API v10).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord

from tests.harness.snowflakes import snowflake_time_iso

#: What @everyone may do on a fresh server (no management rights).
EVERYONE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    read_message_history=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    use_external_emojis=True,
    use_application_commands=True,
    create_instant_invite=True,
    change_nickname=True,
    connect=True,
    speak=True,
)
MANAGER_PERMISSIONS = discord.Permissions(
    EVERYONE_PERMISSIONS.value | discord.Permissions(manage_guild=True, manage_messages=True).value
)
ALL_PERMISSIONS = discord.Permissions.all()


@dataclass
class FakeUser:
    """A Discord user as the harness knows it."""

    id: int
    name: str
    global_name: str | None = None
    bot: bool = False

    def payload(self) -> dict[str, Any]:
        """The user object."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "username": self.name.lower(),
            "global_name": self.global_name or self.name,
            "discriminator": "0",
            "avatar": None,
            "public_flags": 0,
        }
        if self.bot:
            data["bot"] = True
        return data


@dataclass
class FakeMember(FakeUser):
    """A member of the harness guild: a user with roles, a locale and computed permissions."""

    guild_id: int = 0
    locale: str = "en-US"
    roles: list[int] = field(default_factory=list)
    owner: bool = False
    nick: str | None = None
    permissions: discord.Permissions = field(default_factory=lambda: EVERYONE_PERMISSIONS)
    #: when the member joined the server (ISO 8601); None: when their id was made
    joined_at: str | None = None

    @property
    def mention(self) -> str:
        """How Discord writes a mention of this member."""
        return f"<@{self.id}>"

    def member_payload(self, *, with_user: bool = True, with_permissions: bool = True) -> dict:
        """The guild member object (as in an interaction: with `permissions`)."""
        data: dict[str, Any] = {
            "roles": [str(r) for r in self.roles],
            "joined_at": self.joined_at or snowflake_time_iso(self.id),
            "nick": self.nick,
            "avatar": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "premium_since": None,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.payload()
        if with_permissions:
            data["permissions"] = str(self.permissions.value)
        return data


def role_payload(role_id: int, name: str, permissions: discord.Permissions, position: int) -> dict:
    """A role object."""
    return {
        "id": str(role_id),
        "name": name,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": position,
        "permissions": str(permissions.value),
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }


def text_channel_payload(
    channel_id: int, guild_id: int, name: str, position: int, parent_id: int | None = None
) -> dict:
    """A guild text channel object."""
    return {
        "id": str(channel_id),
        "type": 0,
        "guild_id": str(guild_id),
        "name": name,
        "position": position,
        "permission_overwrites": [],
        "nsfw": False,
        "parent_id": str(parent_id) if parent_id else None,
        "topic": None,
        "rate_limit_per_user": 0,
        "last_message_id": None,
        "flags": 0,
    }


def thread_payload(
    thread_id: int, guild_id: int, name: str, parent_id: int, owner_id: int
) -> dict:
    """A public thread object (type 11), as in THREAD_CREATE."""
    created = snowflake_time_iso(thread_id)
    return {
        "id": str(thread_id),
        "type": 11,
        "guild_id": str(guild_id),
        "parent_id": str(parent_id),
        "owner_id": str(owner_id),
        "name": name,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "message_count": 0,
        "member_count": 1,
        "flags": 0,
        "thread_metadata": {
            "archived": False,
            "auto_archive_duration": 1440,
            "archive_timestamp": created,
            "locked": False,
            "create_timestamp": created,
        },
    }


def category_payload(channel_id: int, guild_id: int, name: str, position: int) -> dict:
    """A category channel object."""
    return {
        "id": str(channel_id),
        "type": 4,
        "guild_id": str(guild_id),
        "name": name,
        "position": position,
        "permission_overwrites": [],
        "nsfw": False,
        "parent_id": None,
        "flags": 0,
    }


def guild_payload(
    *,
    guild_id: int,
    name: str,
    owner_id: int,
    locale: str,
    roles: list[dict],
    channels: list[dict],
    members: list[dict],
    member_count: int,
) -> dict:
    """A GUILD_CREATE payload (a full guild with its channels, roles and some members)."""
    return {
        "id": str(guild_id),
        "name": name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "owner_id": str(owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 1,
        "default_message_notifications": 1,
        "explicit_content_filter": 2,
        "roles": roles,
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "application_id": None,
        "system_channel_id": channels[-1]["id"] if channels else None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "vanity_url_code": None,
        "description": None,
        "banner": None,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": locale,
        "public_updates_channel_id": None,
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
        "max_members": 500_000,
        "max_video_channel_users": 25,
        "joined_at": "2025-01-01T00:00:00.000000+00:00",
        "large": False,
        "unavailable": False,
        "member_count": member_count,
        "voice_states": [],
        "members": members,
        "channels": channels,
        "threads": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "lazy": True,
    }
