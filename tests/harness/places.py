"""Interactions from the four places a command can come from (issue 38).

A Discord app installed to a member's account works where the bot itself was never invited.
`Places(h)` sends interactions from:

| place | `guild_id` | `context` | `authorizing_integration_owners` | the bot may |
|---|---|---|---|---|
| `SERVER` (the harness guild) | the guild | 0 | `{"0": guild}` | everything |
| `FOREIGN_SERVER` (the bot is not in it) | another guild | 0 | `{"1": user}` | only answer |
| `BOT_DM` (the member's DM with the bot) | none | 1 | `{"1": user}` | answer, post in the DM |
| `GROUP_DM` (a group DM of members) | none | 2 | `{"1": user}` | only answer |

Where the bot may only answer, the fake refuses every bot-token request naming that channel
or server (403 Missing Access, `FakeDiscord.uninvited`), and the interaction's token takes at
most 5 follow-ups and lasts 15 minutes (`FakeDiscord.limited_tokens`), as Discord does.

`places.slash(place, user, "learn")` sends a command only if Discord would offer it there
(its registered `integration_types` and `contexts`); `NotOffered` otherwise.
`places.force_slash` sends it anyway (a client with an out-of-date command list).
`places.click` / `places.select` answer a message shown in that place.
"""

from __future__ import annotations

import asyncio
import enum
from typing import Any

from tests.harness.harness import Harness, Reply
from tests.harness.payloads import EVERYONE_PERMISSIONS, FakeMember, text_channel_payload
from tests.harness.transport import FakeMessage

GUILD_INSTALL, USER_INSTALL = 0, 1


class Place(enum.Enum):
    """Where an interaction happens: its `context` value, and whether the bot was invited."""

    SERVER = (0, True)
    FOREIGN_SERVER = (0, False)
    BOT_DM = (1, True)
    GROUP_DM = (2, False)

    @property
    def context(self) -> int:
        """The interaction's `context` (0 guild, 1 bot DM, 2 private channel)."""
        return self.value[0]

    @property
    def invited(self) -> bool:
        """Whether the bot itself may send requests there (bot token)."""
        return self.value[1]

    @property
    def install(self) -> int:
        """The install a command needs to be offered here."""
        return GUILD_INSTALL if self is Place.SERVER else USER_INSTALL


class NotOffered(LookupError):
    """Discord does not offer this command in this place."""


class Places:
    """Send interactions to `h`'s bot from every place (see the module's docstring)."""

    def __init__(self, h: Harness) -> None:
        self.h = h
        self.foreign_guild_id = h.snowflakes.next()
        self.foreign_channel_id = h.snowflakes.next()
        self.group_dm_id = h.snowflakes.next()
        self.dm_ids: dict[int, int] = {}
        h.fake.channels[self.foreign_channel_id] = text_channel_payload(
            self.foreign_channel_id, self.foreign_guild_id, "elsewhere", 0)
        h.fake.channels[self.group_dm_id] = {
            "id": str(self.group_dm_id), "type": 3, "name": None, "icon": None,
            "owner_id": str(h.owner.id), "recipients": [], "last_message_id": None, "flags": 0,
        }
        h.fake.uninvited |= {self.foreign_guild_id, self.foreign_channel_id, self.group_dm_id}

    def channel(self, place: Place, user: FakeMember) -> int:
        """The channel of `place` (for `BOT_DM`, `user`'s DM with the bot)."""
        if place is Place.SERVER:
            return self.h.channel_id
        if place is Place.FOREIGN_SERVER:
            return self.foreign_channel_id
        if place is Place.GROUP_DM:
            return self.group_dm_id
        if user.id not in self.dm_ids:
            dm = self.h.snowflakes.next()
            self.dm_ids[user.id] = dm
            self.h.fake.channels[dm] = {
                "id": str(dm), "type": 1, "recipients": [user.payload()],
                "last_message_id": None, "flags": 0,
            }
        return self.dm_ids[user.id]

    def messages(self, place: Place, user: FakeMember) -> list[FakeMessage]:
        """Every message (ephemeral ones too) the bot showed in `place`."""
        return self.h.messages(self.channel(place, user), ephemeral=True)

    # -- what Discord offers ------------------------------------------------------------
    def registration(self, name: str) -> dict[str, Any]:
        """The JSON the bot registers for top-level command `name` (as `tree.sync` sends)."""
        command = self.h.bot.tree.get_command(name)
        if command is None:
            raise NotOffered(f"/{name} is not a command of the bot")
        return command.to_dict(self.h.bot.tree)

    def offered(self, place: Place, path: str) -> bool:
        """Whether Discord offers `/path` in `place`: its install and its context."""
        data = self.registration(path.split()[0])
        installs = data.get("integration_types") or [GUILD_INSTALL]
        contexts = data.get("contexts") or [0, 1, 2]
        return place.install in installs and place.context in contexts

    # -- interactions -------------------------------------------------------------------
    def payload(
        self, place: Place, user: FakeMember, kind: int, data: dict[str, Any],
        message: FakeMessage | None = None,
    ) -> dict[str, Any]:
        """An INTERACTION_CREATE payload from `place`."""
        h = self.h
        if place is Place.SERVER:
            return h._interaction(user, kind, data, message=message)
        channel = message.channel_id if message is not None else self.channel(place, user)
        payload = h._interaction(user, kind, data)
        if message is not None:
            payload["message"] = message.payload()
        payload["channel_id"] = str(channel)
        payload["app_permissions"] = str(EVERYONE_PERMISSIONS.value)
        payload["context"] = place.context
        payload["authorizing_integration_owners"] = {str(USER_INSTALL): str(user.id)}
        if place is Place.FOREIGN_SERVER:
            payload["guild_id"] = str(self.foreign_guild_id)
            payload["guild"] = {"id": str(self.foreign_guild_id), "locale": "en-US",
                                "features": []}
            payload["guild_locale"] = "en-US"
            payload["channel"] = {**h.fake.channels[channel],
                                  "permissions": str(user.permissions.value)}
            return payload
        for field in ("guild_id", "guild", "guild_locale", "member"):
            payload.pop(field, None)
        payload["user"] = user.payload()
        payload["channel"] = dict(h.fake.channels[channel])
        if place is Place.GROUP_DM:
            payload["channel"]["recipients"] = [user.payload()]
        return payload

    async def send(self, place: Place, payload: dict[str, Any]) -> Reply:
        """Dispatch `payload`; where the bot was not invited its token is a limited one."""
        if not place.invited:
            issued = asyncio.get_running_loop().time()
            self.h.fake.limited_tokens[str(payload["token"])] = issued
        return await self.h._dispatch(payload)

    async def slash(self, place: Place, user: FakeMember, path: str, **options: Any) -> Reply:
        """`/path` from `place`, if Discord offers it there (else `NotOffered`)."""
        if not self.offered(place, path):
            raise NotOffered(f"/{path} is not offered in {place.name}")
        return await self.force_slash(place, user, path, **options)

    async def force_slash(
        self, place: Place, user: FakeMember, path: str, **options: Any
    ) -> Reply:
        """`/path` from `place` whether offered or not (an out-of-date client)."""
        data = self.h._command_data(path, options)
        return await self.send(place, self.payload(place, user, 2, data))

    async def click(
        self, place: Place, user: FakeMember, message_id: int, custom_id: str
    ) -> Reply:
        """Press button `custom_id` of a message shown in `place`."""
        data = {"custom_id": custom_id, "component_type": 2}
        message = self.h.message(message_id)
        return await self.send(place, self.payload(place, user, 3, data, message))

    async def select(
        self, place: Place, user: FakeMember, message_id: int, custom_id: str,
        values: list[str],
    ) -> Reply:
        """Choose `values` in the string select `custom_id` of a message shown in `place`."""
        data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        message = self.h.message(message_id)
        return await self.send(place, self.payload(place, user, 3, data, message))

