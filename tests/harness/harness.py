"""`Harness`: the real bot, a real store on a temporary file, and a fake Discord around them.

    async with Harness.create(tmp_path, seed=1) as h:
        anna = h.member("Anna", locale="it")
        boss = h.member("Boss", manage_guild=True)
        r = await h.slash(anna, "balance")
        assert r.ephemeral and "1.000" in r.text
        r = await h.slash(boss, "settings stakes", ante=80)
        await h.click(anna, message_id, custom_id)
        await h.select(anna, message_id, custom_id, ["3c"])
        await h.submit_modal(anna, custom_id, {"amount": "30"})
        h.calls, h.messages()            # every REST call; the channel's public messages
        await h.restart()                 # close the bot, build a new one on the same file

What is real: `bot.client.create_bot` and its `setup_hook` (run through `Client.login`, whose
HTTP calls the fake answers), the cogs, the command tree, discord.py's gateway parsers (READY,
GUILD_CREATE and INTERACTION_CREATE payloads go through `state.parsers`), the Interaction
objects, views and modals, and the store. What is fake: the two REST doors (see `transport`).
After each interaction the harness waits until the bot has settled (see `settle`).
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from bot.client import StoppaBot, TableOptions, create_bot
from tests.harness.payloads import (
    ALL_PERMISSIONS,
    EVERYONE_PERMISSIONS,
    MANAGER_PERMISSIONS,
    FakeMember,
    FakeUser,
    category_payload,
    guild_payload,
    role_payload,
    text_channel_payload,
    thread_payload,
)
from tests.harness.settle import settle, sleeping_for
from tests.harness.snowflakes import Snowflakes
from tests.harness.transport import (
    Call,
    CapturedFile,
    FakeDiscord,
    FakeMessage,
    forget_webhook_routes,
    install_webhook_route,
)

_harness_numbers = itertools.count(1)
OptionType = discord.AppCommandOptionType

#: The bot's own permissions in the guild (as `app_permissions` of an interaction). Like a
#: bot added with the invite URL (`bot.invite`), it may not create threads: `/stoppa new`
#: opens in the channel. `THREAD_BOT_PERMISSIONS` (through `set_bot_permissions`) adds them.
BOT_PERMISSIONS = discord.Permissions(
    (EVERYONE_PERMISSIONS.value
     | discord.Permissions(manage_messages=True, use_external_emojis=True).value)
    & ~discord.Permissions(create_public_threads=True).value
)
THREAD_BOT_PERMISSIONS = discord.Permissions(
    BOT_PERMISSIONS.value | discord.Permissions(create_public_threads=True).value
)


#: Harness seconds the event loop's clock moves at a time, and at most per settle, past the
#: sleeps of a slowed store (`Harness.slow_store`).
SKEW_STEP = 0.1
SKEW_LIMIT = 60.0


def _slowed(method: Any, seconds: float) -> Any:
    """`method`, waiting `seconds` first."""

    async def slowed(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(seconds)
        return await method(*args, **kwargs)

    return slowed


@dataclass
class Reply:
    """What the bot answered to one interaction (read after the bot settled)."""

    token: str
    calls: list[Call]
    http_calls: list[Call]
    fake: FakeDiscord = field(repr=False)
    #: The event loop's time when the interaction was sent (see `Call.loop_at`).
    sent_at: float = 0.0

    @property
    def callback(self) -> Call | None:
        """The interaction callback call (the first answer), if any."""
        return next((c for c in self.calls if c.callback_type is not None), None)

    @property
    def type(self) -> int | None:
        """The callback type: 4 message, 5 deferred, 6 deferred update, 7 update, 8, 9 modal."""
        return self.callback.callback_type if self.callback else None

    @property
    def first_response_after(self) -> float | None:
        """Seconds of harness time (the event loop's) between the interaction and its first
        answer (the callback: a message, a defer, a modal or autocomplete choices)."""
        callback = self.callback
        return callback.loop_at - self.sent_at if callback is not None else None

    @property
    def responded(self) -> bool:
        """Whether the interaction was answered at all."""
        return self.callback is not None

    @property
    def messages(self) -> list[FakeMessage]:
        """Messages this interaction created or edited (their latest state), not deleted."""
        out = [
            m
            for m in self.fake.messages.values()
            if m.interaction_token == self.token and not m.deleted
        ]
        original = self.fake.originals.get(self.token)
        if original is not None:
            msg = self.fake.messages[original]
            if not msg.deleted and msg not in out:
                out.insert(0, msg)
        return out

    @property
    def message(self) -> FakeMessage | None:
        """The first message of the reply (the original response, else the first followup)."""
        messages = self.messages
        return messages[0] if messages else None

    @property
    def ephemeral(self) -> bool:
        """Whether the reply's message is ephemeral (flag 64)."""
        msg = self.message
        if msg is not None:
            return msg.ephemeral
        return bool(self.callback and self.callback.ephemeral)

    @property
    def text(self) -> str:
        """Content and embed texts of every message of the reply."""
        return "\n".join(m.text for m in self.messages)

    @property
    def embeds(self) -> list[dict[str, Any]]:
        """Every embed of the reply's messages."""
        return [e for m in self.messages for e in m.embeds]

    @property
    def files(self) -> list[CapturedFile]:
        """Every file attached to the reply's messages."""
        return [f for m in self.messages for f in m.attachments]

    @property
    def modal(self) -> dict[str, Any] | None:
        """The modal the bot opened (custom_id, title, components), if it did."""
        return self.fake.modals.get(self.token)

    @property
    def choices(self) -> list[dict[str, Any]]:
        """The autocomplete choices the bot offered."""
        cb = self.callback
        if cb is None or cb.callback_type != 8:
            return []
        return list(cb.data.get("choices") or [])


class Harness:
    """A running bot in a fake guild. Build it with `Harness.create` (or `start`/`close`)."""

    def __init__(
        self,
        tmp_path: Path,
        *,
        seed: int | None,
        turn_timeout: float,
        guild_locale: str,
        db_name: str,
        database: str | None = None,
        sync_commands: bool = False,
        dev_guild: bool = False,
        table_options: TableOptions | None = None,
        publish_interval: float = 0.0,
    ) -> None:
        self.number = next(_harness_numbers)
        self.table_options = table_options
        self.publish_interval = publish_interval
        self.sync_at_start = sync_commands
        self.use_dev_guild = dev_guild
        #: The bot's database: a SQLite file in `tmp_path`, or the URL given as `database`
        #: (`postgresql://...`, see `tests.harness.backends`).
        self.db_path = database or str(Path(tmp_path) / db_name)
        self.seed = seed
        self.turn_timeout = turn_timeout
        self.guild_locale = guild_locale
        self.snowflakes = Snowflakes(worker=self.number)
        bot_id = self.snowflakes.next()
        self.bot_user = FakeUser(id=bot_id, name="Stoppa", bot=True)
        self.fake = FakeDiscord(
            self.snowflakes, bot_user=self.bot_user.payload(), application_id=bot_id
        )
        self.guild_id = self.snowflakes.next()
        self.manager_role_id = self.snowflakes.next()
        self.admin_role_id = self.snowflakes.next()
        self.category_id = self.snowflakes.next()
        self.channels: dict[str, int] = {
            name: self.snowflakes.next() for name in ("general", "stoppa", "stoppa-2")
        }
        self.channel_id = self.channels["stoppa"]
        self.members: dict[int, FakeMember] = {}
        self.owner = self.member("Owner", owner=True)
        self.bot: StoppaBot = None  # type: ignore[assignment]
        self._baseline: set[asyncio.Task] = set()
        self._interaction_count = 0
        #: Every interaction's reply, in order (including the panel clicks of a driver).
        self.replies: list[Reply] = []
        #: Real seconds an interaction may take to settle before it fails the test; a test
        #: whose answers draw big images (replays) in a thread may give more on a busy CI.
        self.settle_timeout = 10.0
        #: Seconds the event loop's clock was moved forward (`slow_store`).
        self._skew = 0.0
        self._skewed_loop: asyncio.AbstractEventLoop | None = None
        for position, (name, cid) in enumerate(self.channels.items()):
            self.fake.channels[cid] = text_channel_payload(
                cid, self.guild_id, name, position, self.category_id
            )

    # -- life cycle -----------------------------------------------------------------------
    @classmethod
    @asynccontextmanager
    async def create(cls, tmp_path: Path, **options: Any) -> AsyncIterator[Harness]:
        """`async with Harness.create(tmp_path) as h:` a ready bot, closed at the end.

        `options` are those of `start`: `seed`, `turn_timeout`, `guild_locale`, `db_name`,
        `database` (a URL instead of a file in `tmp_path`), `sync_commands`, `dev_guild`,
        `table_options`, `publish_interval`.
        `sync_commands=True` lets `setup_hook` sync the tree (to the harness guild when
        `dev_guild=True`), as in production; by default the harness skips the sync.
        `table_options` go to `TableService.start` (e.g. `TableOptions(clock=FakeClock())`);
        the same options are used again by `restart()`. `publish_interval` is the bot's least time
        between two edits of a table message (0 here: every change is published at once; the
        settling treats longer sleeps as idle, so a test of the throttle sets it large).
        """
        harness = await cls.start(tmp_path, **options)
        try:
            yield harness
        finally:
            await harness.close()

    @classmethod
    async def start(
        cls,
        tmp_path: Path,
        *,
        seed: int | None = 1,
        turn_timeout: float = 60.0,
        guild_locale: str = "en-US",
        db_name: str = "stoppa.db",
        database: str | None = None,
        sync_commands: bool = False,
        dev_guild: bool = False,
        table_options: TableOptions | None = None,
        publish_interval: float = 0.0,
    ) -> Harness:
        """Build and start a harness (call `close()` when done)."""
        harness = cls(
            tmp_path,
            seed=seed,
            turn_timeout=turn_timeout,
            guild_locale=guild_locale,
            db_name=db_name,
            database=database,
            sync_commands=sync_commands,
            dev_guild=dev_guild,
            table_options=table_options,
            publish_interval=publish_interval,
        )
        harness._baseline = set(asyncio.all_tasks())
        try:
            await harness._boot()
        except BaseException:
            await harness.close()
            raise
        return harness

    async def _boot(self) -> None:
        bot = create_bot(
            self.db_path,
            seed=self.seed,
            turn_timeout=self.turn_timeout,
            dev_guild=self.guild_id if self.use_dev_guild else None,
            sync_commands=self.sync_at_start,
            table_options=self.table_options,
            publish_interval=self.publish_interval,
        )
        await self.install_rest(bot)
        bot.shard_count = 1
        state = bot._connection
        state.shard_count = 1
        state.shard_ids = [0]
        state.guild_ready_timeout = 0.01
        self.bot = bot
        # Client.login: _async_setup_hook, GET /users/@me, GET /oauth2/applications/@me,
        # then setup_hook (store, table service, cogs, translator) - as in production
        await bot.login("harness.token.not-a-secret")
        state.parsers["READY"](self._ready_payload())
        state.parsers["GUILD_CREATE"](self._guild_payload())
        await asyncio.wait_for(bot.wait_until_ready(), timeout=10)
        await self.settle()

    async def restart(self) -> None:
        """Close the bot and build a new one on the same database file (and the same guild,
        members and messages): persistent components must keep working."""
        await self.settle()
        await self.bot.close()
        await self.settle()
        await self._boot()

    async def close(self) -> None:
        """Close the bot and cancel whatever it left running."""
        try:
            await self.settle()
        finally:
            if self.bot is not None and not self.bot.is_closed():
                await self.bot.close()
            elif self.bot is not None and self.bot.store is not None:
                await self.bot.store.close()
            forget_webhook_routes(self.fake)
            self._unskew()
            leftovers = [
                t
                for t in asyncio.all_tasks()
                if t not in self._baseline and t is not asyncio.current_task() and not t.done()
            ]
            for task in leftovers:
                task.cancel()
            if leftovers:
                await asyncio.gather(*leftovers, return_exceptions=True)

    async def settle(self, timeout: float = 10.0) -> None:
        """Wait until every task the bot started is finished or parked (timers, queues).

        After `slow_store`, the event loop's clock is also moved forward (in `SKEW_STEP`s)
        while a task is parked in a short `asyncio.sleep` (a slowed store call, a defer
        watchdog), so the bot finishes its work without the test waiting for real."""
        await settle(self._baseline, timeout=timeout)
        if self._skewed_loop is None:
            return
        moved = 0.0
        while moved < SKEW_LIMIT and self._short_sleepers():
            self._skew += SKEW_STEP
            moved += SKEW_STEP
            await settle(self._baseline, timeout=timeout)

    def _short_sleepers(self) -> bool:
        for task in asyncio.all_tasks():
            if task in self._baseline or task.done():
                continue
            delay = sleeping_for(task)
            if delay is not None and delay <= SKEW_LIMIT:
                return True
        return False

    def slow_store(self, seconds: float = 4.0) -> None:
        """Make every public coroutine method of the bot's store wait `seconds` of harness
        time first (as a store stuck behind a lock or a slow disk would), and let `settle` move
        the event loop's clock past those waits: `Reply.first_response_after` then says how
        long the interaction waited for its first answer, in harness time."""
        store = self.bot.store
        for name in dir(store):
            if name.startswith("_") or name == "close":
                continue
            method = getattr(store, name)
            if not asyncio.iscoroutinefunction(method):
                continue
            setattr(store, name, _slowed(method, seconds))
        if self._skewed_loop is None:
            loop = asyncio.get_running_loop()
            real_time = loop.time
            loop.time = lambda: real_time() + self._skew  # type: ignore[method-assign]
            self._skewed_loop = loop

    def _unskew(self) -> None:
        loop, self._skewed_loop = self._skewed_loop, None
        if loop is not None:
            del loop.time  # back to the class's method

    # -- the guild ------------------------------------------------------------------------
    @property
    def store(self) -> Any:
        """The bot's store (real, on the harness's database file)."""
        return self.bot.store

    @property
    def tables(self) -> Any:
        """The bot's table service (None if `bot.tables` is not available)."""
        return self.bot.tables

    @property
    def guild(self) -> discord.Guild:
        """The guild as discord.py has it in its cache."""
        guild = self.bot.get_guild(self.guild_id)
        assert guild is not None
        return guild

    @property
    def calls(self) -> list[Call]:
        """Every REST call the bot made, in order (both doors)."""
        return self.fake.calls

    def member(
        self,
        name: str,
        *,
        locale: str = "en-US",
        manage_guild: bool = False,
        admin: bool = False,
        owner: bool = False,
        bot: bool = False,
        nick: str | None = None,
        joined_at: str | None = None,
    ) -> FakeMember:
        """A new member of the guild (ordinary unless `manage_guild`, `admin` or `owner`);
        `joined_at` (ISO 8601) is when they joined, by default when their id was made."""
        roles: list[int] = []
        permissions = EVERYONE_PERMISSIONS
        if manage_guild:
            roles.append(self.manager_role_id)
            permissions = MANAGER_PERMISSIONS
        if admin or owner:
            if admin:
                roles.append(self.admin_role_id)
            permissions = ALL_PERMISSIONS
        member = FakeMember(
            id=self.snowflakes.next(),
            name=name,
            bot=bot,
            guild_id=self.guild_id,
            locale=locale,
            roles=roles,
            owner=owner,
            nick=nick,
            permissions=permissions,
            joined_at=joined_at,
        )
        self.members[member.id] = member
        self.fake.users[member.id] = member.payload()
        self.fake.members[member.id] = member.member_payload(with_permissions=False)
        return member

    def _roles(self) -> list[dict[str, Any]]:
        return [
            role_payload(self.guild_id, "@everyone", EVERYONE_PERMISSIONS, 0),
            role_payload(self.manager_role_id, "Manager", MANAGER_PERMISSIONS, 1),
            role_payload(self.admin_role_id, "Admin", discord.Permissions(administrator=True), 2),
        ]

    def _guild_payload(self) -> dict[str, Any]:
        channels = [category_payload(self.category_id, self.guild_id, "Text Channels", 0)]
        channels += list(self.fake.channels.values())
        bot_member = FakeMember(
            id=self.bot_user.id, name=self.bot_user.name, bot=True, guild_id=self.guild_id
        )
        members = [
            bot_member.member_payload(with_permissions=False),
            self.owner.member_payload(with_permissions=False),
        ]
        return guild_payload(
            guild_id=self.guild_id,
            name="Circolo della Stoppa",
            owner_id=self.owner.id,
            locale=self.guild_locale,
            roles=self._roles(),
            channels=channels,
            members=members,
            member_count=len(self.members) + 1,
        )

    def _ready_payload(self) -> dict[str, Any]:
        return {
            "v": 10,
            "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(self.guild_id), "unavailable": True}],
            "session_id": f"harness-session-{self.number}",
            "resume_gateway_url": "wss://gateway-harness.invalid",
            "shard": [0, 1],
            "application": {"id": str(self.bot_user.id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
        }

    # -- channels, permissions and gateway events -------------------------------------
    def bot_permissions(self, channel: int | str | None = None) -> discord.Permissions:
        """The bot's permissions in a channel (what interactions carry as `app_permissions`)."""
        return self.fake.bot_permissions.get(self._channel(channel), BOT_PERMISSIONS)

    def set_bot_permissions(
        self, channel: int | str | None = None, *, deny: tuple[str, ...] = (),
        permissions: discord.Permissions | None = None,
    ) -> discord.Permissions:
        """Change the bot's permissions in a channel: `deny` some of the default ones (by
        discord.py attribute name), or give exactly `permissions`. Interactions there carry
        them as `app_permissions`, and the fake answers the bot's posts and edits there as
        Discord would (403 when a needed permission is missing)."""
        base = permissions if permissions is not None else BOT_PERMISSIONS
        changed = discord.Permissions(base.value)
        for name in deny:
            setattr(changed, name, False)
        self.fake.bot_permissions[self._channel(channel)] = changed
        return changed

    def restore_bot_permissions(self, channel: int | str | None = None) -> None:
        """Give the bot its default permissions in a channel again."""
        self.fake.bot_permissions.pop(self._channel(channel), None)

    async def create_thread(self, name: str, *, parent: int | str | None = None) -> int:
        """A public thread of `parent` (default "stoppa"), announced by THREAD_CREATE; its id
        is in `h.channels[name]` and usable as `channel=name`."""
        thread_id = self.snowflakes.next()
        payload = thread_payload(
            thread_id, self.guild_id, name, self._channel(parent), self.owner.id
        )
        self.channels[name] = thread_id
        self.fake.channels[thread_id] = payload
        self.bot._connection.parsers["THREAD_CREATE"]({**payload, "newly_created": True})
        await self.settle()
        return thread_id

    async def gateway(self, event: str, data: dict[str, Any]) -> None:
        """Feed one gateway event (e.g. "CHANNEL_DELETE") to discord.py's parser, then
        settle."""
        self.bot._connection.parsers[event](data)
        await self.settle()

    async def delete_channel(self, channel: int | str) -> None:
        """Delete a text channel or thread as Discord does: CHANNEL_DELETE or THREAD_DELETE;
        the fake then answers 404 (Unknown Channel) there."""
        channel_id = self._channel(channel)
        payload = self.fake.channels.pop(channel_id)
        if payload.get("type") in (10, 11, 12):
            await self.gateway("THREAD_DELETE", {
                "id": payload["id"], "guild_id": payload["guild_id"],
                "parent_id": payload["parent_id"], "type": payload["type"],
            })
        else:
            await self.gateway("CHANNEL_DELETE", payload)

    async def remove_from_guild(self) -> None:
        """The bot is kicked (or the server deleted): GUILD_DELETE without `unavailable`."""
        for channel_id in [c for c, p in self.fake.channels.items()
                           if p.get("guild_id") == str(self.guild_id)]:
            self.fake.channels.pop(channel_id)
        await self.gateway("GUILD_DELETE", {"id": str(self.guild_id)})

    # -- messages -------------------------------------------------------------------------
    def message(self, message_id: int) -> FakeMessage:
        """A message the bot sent (its latest state)."""
        return self.fake.messages[int(message_id)]

    def messages(
        self, channel: int | str | None = None, *, ephemeral: bool = False
    ) -> list[FakeMessage]:
        """Messages of a channel (default the "stoppa" channel), oldest first, not deleted;
        public ones only unless `ephemeral=True` (then every one)."""
        channel_id = self._channel(channel)
        return [
            m
            for m in self.fake.messages.values()
            if m.channel_id == channel_id and not m.deleted and (ephemeral or not m.ephemeral)
        ]

    def _channel(self, channel: int | str | None) -> int:
        if channel is None:
            return self.channel_id
        if isinstance(channel, str):
            if channel not in self.channels:  # a thread the bot created
                return self.thread_named(channel)
            return self.channels[channel]
        return int(channel)

    def thread_named(self, name: str) -> int:
        """The id of the thread called `name` (one the bot created through the API, or one of
        `create_thread`); KeyError when there is none."""
        for channel_id, payload in self.fake.channels.items():
            if payload.get("type") in (10, 11, 12) and payload.get("name") == name:
                return channel_id
        raise KeyError(name)

    def threads(self) -> list[dict[str, Any]]:
        """Every thread the fake knows (payloads: name, parent_id, thread_metadata...)."""
        return [p for p in self.fake.channels.values() if p.get("type") in (10, 11, 12)]

    # -- interactions ---------------------------------------------------------------------
    async def sync_commands(self) -> list[dict[str, Any]]:
        """Run the real `tree.sync()` against the fake API; returns the PUT payload."""
        await self.bot.tree.sync()
        put = [c for c in self.calls if c.method == "PUT" and c.path.endswith("/commands")]
        return list(put[-1].json)

    def _interaction(
        self,
        user: FakeMember,
        kind: int,
        data: dict[str, Any],
        *,
        channel: int | str | None = None,
        message: FakeMessage | None = None,
    ) -> dict[str, Any]:
        interaction_id = self.snowflakes.next()
        self._interaction_count += 1
        token = f"aW50ZXJhY3Rpb24.h{self.number}.{interaction_id}"
        channel_id = message.channel_id if message is not None else self._channel(channel)
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.bot_user.id),
            "type": kind,
            "data": data,
            "guild_id": str(self.guild_id),
            "guild": {"id": str(self.guild_id), "locale": self.guild_locale, "features": []},
            "channel_id": str(channel_id),
            "channel": {**self.fake.channels[channel_id], "permissions": str(
                user.permissions.value)},
            "member": user.member_payload(),
            "token": token,
            "version": 1,
            "app_permissions": str(self.bot_permissions(channel_id).value),
            "locale": user.locale,
            "guild_locale": self.guild_locale,
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(self.guild_id)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if message is not None:
            payload["message"] = message.payload()
        return payload

    async def _dispatch(self, payload: dict[str, Any]) -> Reply:
        token = payload["token"]
        self.fake.interactions[token] = payload
        install_webhook_route(token, self.fake)
        first_call = len(self.fake.calls)
        sent_at = asyncio.get_running_loop().time()
        self.bot._connection.parsers["INTERACTION_CREATE"](payload)
        await self.settle(self.settle_timeout)
        calls = self.fake.calls[first_call:]
        reply = Reply(
            token=token,
            calls=[c for c in calls if c.token == token],
            http_calls=[c for c in calls if c.via == "http"],
            fake=self.fake,
            sent_at=sent_at,
        )
        self.replies.append(reply)
        return reply

    def _find_command(self, path: str) -> tuple[list[str], app_commands.Command]:
        parts = path.split()
        found: Any = self.bot.tree.get_command(parts[0])
        for part in parts[1:]:
            if not isinstance(found, app_commands.Group):
                raise LookupError(f"/{path}: {found.qualified_name!r} has no subcommands")
            found = found.get_command(part)
        if not isinstance(found, app_commands.Command):
            raise LookupError(f"/{path} is not a command of the bot")
        return parts, found

    def _options(
        self,
        command: app_commands.Command,
        values: dict[str, Any],
        focused: str | None = None,
    ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        params = {p.name: p for p in command.parameters}
        params.update({p.display_name: p for p in command.parameters})
        options: list[dict[str, Any]] = []
        resolved: dict[str, dict[str, Any]] = {}
        for name, value in values.items():
            param = params.get(name)
            if param is None:
                raise TypeError(f"/{command.qualified_name} has no option {name!r}")
            option: dict[str, Any] = {"name": param.display_name, "type": param.type.value}
            if name == focused or param.name == focused:
                option["focused"] = True
                option["value"] = str(value)
            else:
                option["value"] = self._option_value(param.type, value, resolved)
            options.append(option)
        if focused is not None and not any(o.get("focused") for o in options):
            param = params[focused]
            options.append(
                {"name": param.display_name, "type": param.type.value, "value": "",
                 "focused": True}
            )
        return options, resolved

    def _option_value(self, kind: OptionType, value: Any, resolved: dict[str, Any]) -> Any:
        if kind in (OptionType.user, OptionType.mentionable) and isinstance(value, FakeUser):
            resolved.setdefault("users", {})[str(value.id)] = value.payload()
            if isinstance(value, FakeMember):
                member = value.member_payload(with_user=False)
                resolved.setdefault("members", {})[str(value.id)] = member
            return str(value.id)
        if kind is OptionType.channel:
            channel_id = self._channel(value)
            channel = self.fake.channels[channel_id]
            resolved.setdefault("channels", {})[str(channel_id)] = {
                "id": channel["id"], "name": channel["name"], "type": channel["type"],
                "permissions": str(ALL_PERMISSIONS.value),
            }
            return str(channel_id)
        if kind is OptionType.integer:
            return int(value)
        if kind is OptionType.number:
            return float(value)
        if kind is OptionType.boolean:
            return bool(value)
        if kind in (OptionType.user, OptionType.mentionable, OptionType.role):
            return str(int(value))
        return str(value)

    def _command_data(
        self, path: str, values: dict[str, Any], focused: str | None = None
    ) -> dict[str, Any]:
        parts, command = self._find_command(path)
        options, resolved = self._options(command, values, focused)
        for depth, name in reversed(list(enumerate(parts[1:], start=1))):
            kind = 1 if depth == len(parts) - 1 else 2  # 1 subcommand, 2 subcommand group
            options = [{"type": kind, "name": name, "options": options}]
        data: dict[str, Any] = {
            "id": str(abs(hash(parts[0])) % (1 << 40) + (1 << 50)),
            "name": parts[0],
            "type": 1,
            "options": options,
        }
        if resolved:
            data["resolved"] = resolved
        return data

    async def slash(
        self,
        user: FakeMember,
        command: str,
        *,
        channel: int | str | None = None,
        **options: Any,
    ) -> Reply:
        """Run `/command` (e.g. "balance", "settings stakes") as `user` with these options."""
        data = self._command_data(command, options)
        return await self._dispatch(self._interaction(user, 2, data, channel=channel))

    async def autocomplete(
        self,
        user: FakeMember,
        command: str,
        focused: str,
        *,
        channel: int | str | None = None,
        **options: Any,
    ) -> Reply:
        """Ask the choices of option `focused` (its typed text in `options[focused]`)."""
        data = self._command_data(command, options, focused)
        return await self._dispatch(self._interaction(user, 4, data, channel=channel))

    async def click(self, user: FakeMember, message_id: int, custom_id: str) -> Reply:
        """Press the button `custom_id` of message `message_id`."""
        message = self.message(message_id)
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._dispatch(self._interaction(user, 3, data, message=message))

    async def select(
        self, user: FakeMember, message_id: int, custom_id: str, values: list[str]
    ) -> Reply:
        """Choose `values` in the string select `custom_id` of message `message_id`."""
        message = self.message(message_id)
        data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        return await self._dispatch(self._interaction(user, 3, data, message=message))

    async def submit_modal(
        self,
        user: FakeMember,
        custom_id: str,
        values: dict[str, Any],
        *,
        opened_by: Reply | None = None,
        channel: int | str | None = None,
    ) -> Reply:
        """Submit the modal `custom_id` with `values` (text input custom_id -> text).

        With `opened_by` (the Reply that opened the modal) the submitted components mirror the
        modal's own layout (action rows or labels), as Discord does.
        """
        layout = (opened_by.modal or {}).get("components") if opened_by else None
        components = _modal_components(layout, values)
        data = {"custom_id": custom_id, "components": components}
        message = None
        if opened_by is not None and opened_by.callback is not None:
            source = self.fake.interactions.get(opened_by.token, {}).get("message")
            if source is not None:
                message = self.message(int(source["id"]))
        payload = self._interaction(user, 5, data, channel=channel, message=message)
        return await self._dispatch(payload)

    # -- hooks and building blocks (benchmarks, served harness) ----------------------------
    async def install_rest(self, bot: StoppaBot) -> None:
        """Connect the bot's bot-token REST door to the fake (before login). The default
        replaces `HTTPClient.request`; `tests.harness.served` serves real HTTP instead."""
        bot.http.request = self.fake.http_request  # type: ignore[method-assign]

    def add_channel(self, name: str) -> int:
        """A new text channel of the guild (CHANNEL_CREATE once the bot is ready); its id."""
        channel_id = self.snowflakes.next()
        self.channels[name] = channel_id
        payload = text_channel_payload(
            channel_id, self.guild_id, name, len(self.channels), self.category_id
        )
        self.fake.channels[channel_id] = payload
        if self.bot is not None and self.bot.is_ready():
            self.bot._connection.parsers["CHANNEL_CREATE"](payload)
        return channel_id

    def slash_payload(
        self, user: FakeMember, command: str, *, channel: int | str | None = None,
        **options: Any,
    ) -> dict[str, Any]:
        """The INTERACTION_CREATE payload of `/command` (see `slash`), not sent."""
        data = self._command_data(command, options)
        return self._interaction(user, 2, data, channel=channel)

    def component_payload(
        self, user: FakeMember, message_id: int, custom_id: str,
        values: list[str] | None = None,
    ) -> dict[str, Any]:
        """The payload of a button click (or, with `values`, a select choice), not sent."""
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        if values is not None:
            data.update(component_type=3, values=list(values))
        return self._interaction(user, 3, data, message=self.message(message_id))

    def send_nowait(self, payload: dict[str, Any]) -> str:
        """Feed an interaction payload to the bot without waiting for it to settle (many
        simulated members at once); returns its token (`fake.calls` by `Call.token`)."""
        token = str(payload["token"])
        self.fake.interactions[token] = payload
        install_webhook_route(token, self.fake)
        self.bot._connection.parsers["INTERACTION_CREATE"](payload)
        return token


def _submitted(component: dict[str, Any], values: dict[str, Any]) -> dict[str, Any] | None:
    custom_id = component.get("custom_id")
    if custom_id is None or custom_id not in values:
        return None
    value = values[custom_id]
    out = {"type": component.get("type", 4), "custom_id": custom_id}
    if isinstance(value, list | tuple):
        out["values"] = [str(v) for v in value]
    else:
        out["value"] = str(value)
    return out


def _modal_components(
    layout: list[dict[str, Any]] | None, values: dict[str, Any]
) -> list[dict[str, Any]]:
    """The `components` of a modal submit: mirror `layout` when known, else action rows."""
    if not layout:
        return [
            {"type": 1, "components": [_submitted({"type": 4, "custom_id": k}, values)]}
            for k in values
        ]
    out: list[dict[str, Any]] = []
    for row in layout:
        if row.get("type") == 1:
            inner = [s for c in row.get("components", []) if (s := _submitted(c, values))]
            out.append({"type": 1, "components": inner})
        elif row.get("type") == 18 and isinstance(row.get("component"), dict):
            inner_one = _submitted(row["component"], values)
            if inner_one is not None:
                out.append({"type": 18, "id": row.get("id", 0), "component": inner_one})
    return out
