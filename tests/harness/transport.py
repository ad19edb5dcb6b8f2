"""The fake Discord API: records every REST call the bot makes and answers plausible JSON.

Two doors lead out of discord.py and both are replaced here, nothing else:
- `HTTPClient.request` (bot token REST: login, command sync, channel messages, members...),
  replaced on the bot's own `http` object;
- `AsyncWebhookAdapter.request` (interaction callbacks, `@original` edits, followups), replaced
  on the adapter discord.py uses by default (`async_context`), and routed by interaction token
  to the `FakeDiscord` that issued it.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import discord
from discord.webhook.async_ import async_context

from tests.harness.payloads import thread_payload
from tests.harness.snowflakes import Snowflakes, snowflake_time_iso

if TYPE_CHECKING:
    from discord.http import Route

EPHEMERAL = 64
LOADING = 128
COMPONENTS_V2 = 1 << 15
TEXT_DISPLAY, MEDIA_GALLERY = 10, 12
#: An interaction token lasts 15 minutes; an app only the member installed gets 5 follow-ups.
TOKEN_SECONDS = 15 * 60
MAX_FOLLOWUPS = 5
# interaction callback types
PONG, MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, AUTOCOMPLETE, MODAL = (
    1, 4, 5, 6, 7, 8, 9,
)


#: Every call of every fake since the spec check last read it (tests/conftest.py checks them
#: against Discord's OpenAPI document after each phase of each test, then clears the list).
RECORDED: list[Call] = []


@dataclass
class CapturedFile:
    """A file the bot attached: its name and bytes."""

    filename: str
    data: bytes
    content_type: str = "application/octet-stream"
    id: int = 0

    @property
    def is_png(self) -> bool:
        """Whether the bytes are a PNG image."""
        return self.data.startswith(b"\x89PNG\r\n\x1a\n")


@dataclass
class Call:
    """One REST request the bot sent."""

    via: str  # "http" (bot token) or "webhook" (interaction token)
    method: str
    path: str  # the route template, e.g. "/channels/{channel_id}/messages"
    url: str
    params: dict[str, Any]  # the route's parameters (channel_id, webhook_token, ...)
    query: dict[str, Any]
    json: Any  # the JSON body (for multipart: the parsed payload_json)
    files: list[CapturedFile] = field(default_factory=list)
    reason: str | None = None
    at: float = field(default_factory=time.monotonic)
    #: The event loop's time when the call was sent: harness time, which `Harness.slow_store`
    #: moves forward past the store's waits.
    loop_at: float = field(default_factory=lambda: asyncio.get_running_loop().time())
    status: int = 200  # the HTTP status answered (a served harness may answer 429)

    @property
    def token(self) -> str | None:
        """The interaction token of a webhook call."""
        return self.params.get("webhook_token")

    @property
    def data(self) -> dict[str, Any]:
        """The message part of the body (`data` of an interaction callback, else the body)."""
        body = self.json or {}
        if self.path.endswith("/callback"):
            return body.get("data") or {}
        return body if isinstance(body, dict) else {}

    @property
    def callback_type(self) -> int | None:
        """The interaction callback type (4 message, 5 deferred, 7 update, 9 modal...)."""
        if self.path.endswith("/callback"):
            return (self.json or {}).get("type")
        return None

    @property
    def flags(self) -> int:
        """The message flags sent (64 = ephemeral)."""
        return int(self.data.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        """Whether the ephemeral flag (64) was sent."""
        return bool(self.flags & EPHEMERAL)

    @property
    def content(self) -> str | None:
        """The message content sent, if any."""
        return self.data.get("content")

    @property
    def embeds(self) -> list[dict[str, Any]]:
        """The embeds sent."""
        return list(self.data.get("embeds") or [])


@dataclass
class FakeMessage:
    """A message as the fake server keeps it (its latest state)."""

    id: int
    channel_id: int
    guild_id: int | None
    author: dict[str, Any]
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[CapturedFile] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    interaction_token: str | None = None
    webhook_id: int | None = None
    deleted: bool = False
    edits: int = 0

    @property
    def ephemeral(self) -> bool:
        """Whether only the interaction's user can see it."""
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """Whether it is still a deferred "thinking" message."""
        return bool(self.flags & LOADING)

    @property
    def files(self) -> list[CapturedFile]:
        """Its attached files."""
        return list(self.attachments)

    @property
    def text(self) -> str:
        """Content plus every embed text (title, description, fields, footer) as one string."""
        parts = [self.content or ""]
        for embed in self.embeds:
            parts.append(embed.get("title") or "")
            parts.append(embed.get("description") or "")
            for fld in embed.get("fields") or []:
                parts.append(f"{fld.get('name', '')}: {fld.get('value', '')}")
            parts.append((embed.get("footer") or {}).get("text") or "")
        parts += text_displays(self.components)  # a Components V2 message's text
        return "\n".join(p for p in parts if p)

    @property
    def v2(self) -> bool:
        """Whether it is a Components V2 message (flag 32768)."""
        return bool(self.flags & COMPONENTS_V2)

    def all_components(self) -> list[dict[str, Any]]:
        """Every component, nested ones included (rows, containers, sections), in order."""
        return walk_components(self.components)

    def text_displays(self) -> list[str]:
        """The text of every TextDisplay of a layout (Components V2) message, in order."""
        return text_displays(self.components)

    def media_urls(self) -> list[str]:
        """The URLs of its V2 media items (gallery items, thumbnails, files) as the bot sent
        them ("attachment://table.png"...); `media_items` has their descriptions too."""
        return [str(item["url"]) for item in media_items(self.components)]

    def custom_ids(self) -> list[str]:
        """The custom ids of every component (buttons, selects), in order."""
        out: list[str] = []

        def walk(items: list[dict[str, Any]]) -> None:
            for item in items:
                if "custom_id" in item:
                    out.append(item["custom_id"])
                walk(item.get("components") or [])
                if isinstance(item.get("component"), dict):
                    walk([item["component"]])
                if isinstance(item.get("accessory"), dict):
                    walk([item["accessory"]])

        walk(self.components)
        return out

    def payload(self) -> dict[str, Any]:
        """The message object as Discord returns it."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author,
            "content": self.content,
            "timestamp": snowflake_time_iso(self.id),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [
                {
                    "id": str(f.id),
                    "filename": f.filename,
                    "size": len(f.data),
                    "url": f"https://cdn.discordapp.com/attachments/{self.channel_id}/{f.id}/"
                    f"{f.filename}",
                    "proxy_url": f"https://media.discordapp.net/attachments/{self.channel_id}/"
                    f"{f.id}/{f.filename}",
                    "content_type": "image/png" if f.is_png else f.content_type,
                }
                for f in self.attachments
            ],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        return data


class HarnessHTTPError(discord.HTTPException):
    """An error answer of the fake server (404 and friends)."""

    def __init__(self, status: int, message: str, code: int = 0) -> None:
        response = SimpleNamespace(status=status, reason=message)
        super().__init__(response, {"code": code, "message": message})  # type: ignore[arg-type]


def _forbidden(code: int, message: str) -> discord.Forbidden:
    response = SimpleNamespace(status=403, reason="Forbidden")
    return discord.Forbidden(response, {"code": code, "message": message})  # type: ignore[arg-type]


#: What the bot needs to post (and edit) a message with an image in a channel or a thread.
POST_NEEDS = ("view_channel", "send_messages", "embed_links", "attach_files")
POST_NEEDS_THREAD = ("view_channel", "send_messages_in_threads", "embed_links", "attach_files")


def _not_found(what: str, code: int = 10008) -> discord.NotFound:
    response = SimpleNamespace(status=404, reason="Not Found")
    return discord.NotFound(response, {"code": code, "message": f"Unknown {what}"})  # type: ignore[arg-type]


def _read_file(value: Any) -> bytes:
    fp = getattr(value, "fp", value)
    if hasattr(fp, "seek"):
        fp.seek(0)
    data = fp.read()
    if hasattr(fp, "seek"):
        fp.seek(0)
    return data if isinstance(data, bytes) else bytes(data)


def _body(payload: Any, multipart: list[dict[str, Any]] | None) -> tuple[Any, list[CapturedFile]]:
    """The JSON body and the files of a request (JSON, or multipart with payload_json)."""
    files: list[CapturedFile] = []
    if multipart:
        body: Any = None
        for part in multipart:
            if part["name"] == "payload_json":
                body = json.loads(part["value"])
            elif "filename" in part:
                files.append(
                    CapturedFile(
                        filename=part["filename"],
                        data=_read_file(part["value"]),
                        content_type=part.get("content_type", "application/octet-stream"),
                    )
                )
        return body, files
    return payload, files


class FakeDiscord:
    """The server side: keeps messages, records calls, answers like Discord's API v10."""

    def __init__(self, snowflakes: Snowflakes, *, bot_user: dict, application_id: int) -> None:
        self.snowflakes = snowflakes
        self.bot_user = bot_user
        self.application_id = application_id
        self.calls: list[Call] = []
        self.messages: dict[int, FakeMessage] = {}
        self.originals: dict[str, int] = {}  # interaction token -> original response message
        self.interactions: dict[str, dict[str, Any]] = {}  # token -> interaction payload
        self.modals: dict[str, dict[str, Any]] = {}  # token -> the modal the bot opened
        self.users: dict[int, dict[str, Any]] = {}
        self.members: dict[int, dict[str, Any]] = {}
        self.synced_commands: dict[int | None, list[dict[str, Any]]] = {}
        self.channels: dict[int, dict[str, Any]] = {}
        #: The bot's permissions per channel where they differ from the default (see
        #: `Harness.set_bot_permissions`): bot-token posts and edits there answer 403.
        self.bot_permissions: dict[int, discord.Permissions] = {}
        #: Channels and servers the bot was not invited to (`tests.harness.places`): every
        #: bot-token request naming one is refused 403 Missing Access, as Discord does.
        self.uninvited: set[int] = set()
        #: Interactions of an app only the member installed: token -> when it was issued (loop
        #: time). Discord allows them 5 follow-ups and 15 minutes (`_check_limited`).
        self.limited_tokens: dict[str, float] = {}
        #: Awaited with every call before it is answered (`tests.harness.traffic` counts,
        #: times and throttles calls there); None: answer at once.
        self.gate: Callable[[Call], Awaitable[None]] | None = None
        self.application: dict[str, Any] = {
            "id": str(application_id),
            "name": bot_user["username"],
            "icon": None,
            "description": "",
            "summary": "",
            "rpc_origins": [],
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": {"id": "1", "username": "owner", "discriminator": "0", "avatar": None},
            "verify_key": "0" * 64,
            "team": None,
            "flags": 0,
            "bot": bot_user,
        }

    # -- the two doors ------------------------------------------------------------------
    def record(self, call: Call) -> None:
        """Keep `call` (`calls`), and hand it to the spec check of the running test
        (`RECORDED`, read by tests/conftest.py)."""
        self.calls.append(call)
        RECORDED.append(call)

    async def http_request(
        self, route: Route, *, files: Any = None, form: Any = None, **kwargs: Any
    ) -> Any:
        """Stands in for `HTTPClient.request` (bound on the bot's http object)."""
        payload = kwargs.get("json")
        multipart = list(form) if form else None
        body, captured = _body(payload, multipart)
        call = Call(
            via="http",
            method=route.method,
            path=route.path,
            url=route.url,
            params=_route_params(route),
            query=dict(kwargs.get("params") or {}),
            json=body,
            files=captured,
            reason=kwargs.get("reason"),
        )
        return await self.serve_http(call)

    async def serve_http(self, call: Call) -> Any:
        """Record a bot-token call, pass it through the `gate`, and answer it."""
        self.record(call)
        if self.gate is not None:
            await self.gate(call)
        return self._answer_http(call)

    async def webhook_request(
        self,
        route: Route,
        session: Any = None,
        *,
        payload: dict[str, Any] | None = None,
        multipart: list[dict[str, Any]] | None = None,
        files: Any = None,
        params: dict[str, Any] | None = None,
        reason: str | None = None,
        **_: Any,
    ) -> Any:
        """Stands in for `AsyncWebhookAdapter.request` for this harness's interaction tokens."""
        body, captured = _body(payload, multipart)
        call = Call(
            via="webhook",
            method=route.method,
            path=route.path,
            url=route.url,
            params=_route_params(route),
            query=dict(params or {}),
            json=body,
            files=captured,
            reason=reason,
        )
        self.record(call)
        if self.gate is not None:
            await self.gate(call)
        return self._answer_webhook(call)

    # -- messages -----------------------------------------------------------------------
    def _new_files(self, files: list[CapturedFile]) -> list[CapturedFile]:
        for f in files:
            f.id = self.snowflakes.next()
        return files

    def create_message(
        self, channel_id: int, body: dict[str, Any], files: list[CapturedFile], **extra: Any
    ) -> FakeMessage:
        """Store a new message built from a message body."""
        _check_media(body.get("components"), [f.filename for f in files])
        channel = self.channels.get(channel_id, {})
        guild_id = int(channel["guild_id"]) if channel.get("guild_id") else None
        msg = FakeMessage(
            id=self.snowflakes.next(),
            channel_id=channel_id,
            guild_id=guild_id,
            author=self.bot_user,
            content=body.get("content") or "",
            embeds=list(body.get("embeds") or []),
            components=list(body.get("components") or []),
            attachments=self._new_files(files),
            flags=int(body.get("flags") or 0),
            **extra,
        )
        self.messages[msg.id] = msg
        return msg

    def edit_message(
        self, msg: FakeMessage, body: dict[str, Any], files: list[CapturedFile]
    ) -> FakeMessage:
        """Apply an edit body (only the keys present change) to a stored message. As Discord
        does, an edit refers by `attachment://NAME` to a file it uploads or to one the
        message keeps (no `attachments` key: all of them; else those it lists by id)."""
        kept = msg.attachments
        if "attachments" in body:
            ids = {int(a["id"]) for a in body["attachments"] or [] if _is_snowflake(a.get("id"))}
            kept = [f for f in msg.attachments if f.id in ids]
        if "components" in body:
            _check_media(body["components"], [f.filename for f in [*kept, *files]])
        if "content" in body:
            msg.content = body["content"] or ""
        if "embeds" in body:
            msg.embeds = list(body["embeds"] or [])
        if "components" in body:
            msg.components = list(body["components"] or [])
        if "attachments" in body:
            keep = {int(a["id"]) for a in body["attachments"] or [] if _is_snowflake(a.get("id"))}
            msg.attachments = [f for f in msg.attachments if f.id in keep]
            msg.attachments += self._new_files(files)
        elif files:
            msg.attachments += self._new_files(files)
        if "flags" in body and body["flags"] is not None:
            msg.flags = (msg.flags & EPHEMERAL) | int(body["flags"])
        msg.flags &= ~LOADING
        msg.edits += 1
        return msg

    # -- answers ------------------------------------------------------------------------
    def _answer_http(self, call: Call) -> Any:
        p, m = call.path, call.method
        named = {int(v) for k, v in call.params.items() if k in ("channel_id", "guild_id")}
        if named & self.uninvited:
            raise _forbidden(50001, "Missing Access")
        if p == "/users/@me" and m == "GET":
            return self.bot_user
        if p == "/oauth2/applications/@me" and m == "GET":
            return self.application
        if p == "/applications/{application_id}/commands" and m == "PUT":
            return self._sync(None, call.json)
        if p == "/applications/{application_id}/guilds/{guild_id}/commands" and m == "PUT":
            return self._sync(int(call.params["guild_id"]), call.json)
        if p == "/applications/{application_id}/commands" and m == "GET":
            return self.synced_commands.get(None, [])
        if p.startswith("/channels/{channel_id}/messages"):
            self._check_access(int(call.params["channel_id"]), m)
        if p == "/channels/{channel_id}/messages" and m == "POST":
            channel_id = int(call.params["channel_id"])
            return self.create_message(channel_id, call.json or {}, call.files).payload()
        if p == "/channels/{channel_id}/messages/{message_id}":
            msg = self._message(call.params["message_id"])
            if m == "GET":
                return msg.payload()
            if m == "PATCH":
                return self.edit_message(msg, call.json or {}, call.files).payload()
            if m == "DELETE":
                msg.deleted = True
                return None
        if p == "/guilds/{guild_id}/members/{member_id}" and m == "GET":
            member = self.members.get(int(call.params["member_id"]))
            if member is None:
                raise _not_found("Member", 10007)
            return member
        if p == "/users/{user_id}" and m == "GET":
            user = self.users.get(int(call.params["user_id"]))
            if user is None:
                raise _not_found("User", 10013)
            return user
        if p == "/channels/{channel_id}/typing":
            return None
        if p == "/channels/{channel_id}/threads" and m == "POST":
            return self._create_thread(int(call.params["channel_id"]), call.json or {})
        if p == "/channels/{channel_id}" and m == "GET":
            channel = self.channels.get(int(call.params["channel_id"]))
            if channel is None:
                raise _not_found("Channel", 10003)
            return channel
        if p == "/channels/{channel_id}" and m == "PATCH":
            return self._edit_channel(int(call.params["channel_id"]), call.json or {})
        raise HarnessHTTPError(501, f"harness: no fake answer for {m} {p}")

    def _create_thread(self, parent_id: int, body: dict[str, Any]) -> dict[str, Any]:
        """`TextChannel.create_thread` without a message: a public thread of `parent_id`
        (403 50013 unless the bot may create public threads there)."""
        if parent_id not in self.channels:
            raise _not_found("Channel", 10003)
        permissions = self.bot_permissions.get(parent_id)
        if permissions is not None and not permissions.administrator and not (
            permissions.view_channel and permissions.create_public_threads
        ):
            raise _forbidden(50013, "Missing Permissions")
        parent = self.channels[parent_id]
        thread_id = self.snowflakes.next()
        payload = thread_payload(thread_id, int(parent["guild_id"]), str(body.get("name")),
                                 parent_id, int(self.bot_user["id"]))
        self.channels[thread_id] = payload
        return payload

    def _edit_channel(self, channel_id: int, body: dict[str, Any]) -> dict[str, Any]:
        """`Thread.edit(...)`/`TextChannel.edit(...)`: name, archived and locked change."""
        channel = self.channels.get(channel_id)
        if channel is None:
            raise _not_found("Channel", 10003)
        if "name" in body:
            channel["name"] = body["name"]
        meta = channel.get("thread_metadata")
        if meta is not None:
            for key in ("archived", "locked"):
                if key in body:
                    meta[key] = bool(body[key])
        return channel

    def _check_access(self, channel_id: int, method: str) -> None:
        """Answer like Discord in a channel that is gone (404) or where the bot lacks a
        permission it needs (403: 50001 without View Channel, else 50013)."""
        if channel_id not in self.channels:
            raise _not_found("Channel", 10003)
        permissions = self.bot_permissions.get(channel_id)
        if permissions is None or permissions.administrator:
            return
        if not permissions.view_channel:
            raise _forbidden(50001, "Missing Access")
        thread = self.channels[channel_id].get("type") in (10, 11, 12)
        needs = POST_NEEDS_THREAD if thread else POST_NEEDS
        if method in ("POST", "PATCH") and not all(getattr(permissions, n) for n in needs):
            raise _forbidden(50013, "Missing Permissions")

    def _sync(self, guild_id: int | None, commands: list[dict[str, Any]]) -> list[dict]:
        out = []
        for command in commands or []:
            data = dict(command)
            data.setdefault("type", 1)
            data.update(
                id=str(self.snowflakes.next()),
                application_id=str(self.application_id),
                version=str(self.snowflakes.next()),
            )
            if guild_id is not None:
                data["guild_id"] = str(guild_id)
            out.append(data)
        self.synced_commands[guild_id] = out
        return out

    def _message(self, raw_id: Any) -> FakeMessage:
        msg = self.messages.get(int(raw_id))
        if msg is None or msg.deleted:
            raise _not_found("Message")
        return msg

    def _original(self, token: str) -> FakeMessage:
        message_id = self.originals.get(token)
        if message_id is None:
            raise _not_found("Message")
        return self._message(message_id)

    def _answer_webhook(self, call: Call) -> Any:
        token = call.token or ""
        interaction = self.interactions.get(token)
        if interaction is None:
            raise _not_found("Webhook", 10015)
        p, m = call.path, call.method
        if token in self.limited_tokens:
            self._check_limited(token, p, m)
        if p == "/interactions/{webhook_id}/{webhook_token}/callback":
            return self._callback(call, interaction)
        if p == "/webhooks/{webhook_id}/{webhook_token}" and m == "POST":
            return self._followup(call, interaction).payload()
        if p.startswith("/webhooks/{webhook_id}/{webhook_token}/messages/"):
            raw = call.params.get("message_id", p.rsplit("/", 1)[-1])
            msg = self._original(token) if raw == "@original" else self._message(raw)
            if m == "GET":
                return msg.payload()
            if m == "PATCH":
                return self.edit_message(msg, call.json or {}, call.files).payload()
            if m == "DELETE":
                msg.deleted = True
                return None
        raise HarnessHTTPError(501, f"harness: no fake answer for webhook {m} {p}")

    def _check_limited(self, token: str, path: str, method: str) -> None:
        """Discord's limits on an interaction of an app only the member installed: its
        token lasts 15 minutes, and it takes at most 5 follow-up messages."""
        if asyncio.get_running_loop().time() - self.limited_tokens[token] > TOKEN_SECONDS:
            raise HarnessHTTPError(401, "Invalid Webhook Token", 50027)
        if path == "/webhooks/{webhook_id}/{webhook_token}" and method == "POST":
            sent = sum(1 for c in self.calls if c.token == token and c.method == "POST"
                       and c.path == path)
            if sent > MAX_FOLLOWUPS:
                raise HarnessHTTPError(400, "Maximum number of follow-up messages reached",
                                       40094)

    def _callback(self, call: Call, interaction: dict[str, Any]) -> dict[str, Any]:
        token = interaction["token"]
        if token in self.originals or interaction.get("_acknowledged"):
            raise HarnessHTTPError(400, "Interaction has already been acknowledged.", 40060)
        interaction["_acknowledged"] = True
        kind = call.callback_type
        data = call.data
        channel_id = int(interaction["channel_id"])
        answer: dict[str, Any] = {
            "id": interaction["id"],
            "type": interaction["type"],
        }
        resource: dict[str, Any] = {"type": kind}
        if kind in (MESSAGE, DEFERRED_MESSAGE):
            flags = int(data.get("flags") or 0)
            if kind == DEFERRED_MESSAGE:
                flags |= LOADING
            msg = self.create_message(
                channel_id,
                {**data, "flags": flags},
                call.files,
                type=20 if interaction["type"] == 2 else 0,
                interaction_token=token,
            )
            self.originals[token] = msg.id
            answer.update(
                response_message_id=str(msg.id),
                response_message_loading=kind == DEFERRED_MESSAGE,
                response_message_ephemeral=msg.ephemeral,
            )
            resource["message"] = msg.payload()
        elif kind in (DEFERRED_UPDATE, UPDATE_MESSAGE):
            message = interaction.get("message")
            if message is not None:
                msg = self._message(message["id"])
                self.originals[token] = msg.id
                if kind == UPDATE_MESSAGE:
                    self.edit_message(msg, data, call.files)
                answer.update(
                    response_message_id=str(msg.id),
                    response_message_loading=False,
                    response_message_ephemeral=msg.ephemeral,
                )
                resource["message"] = msg.payload()
        elif kind == MODAL:
            self.modals[token] = data
        out: dict[str, Any] = {"interaction": answer}
        if kind not in (AUTOCOMPLETE, MODAL, DEFERRED_UPDATE, PONG):
            out["resource"] = resource
        return out

    def _followup(self, call: Call, interaction: dict[str, Any]) -> FakeMessage:
        token = interaction["token"]
        original_id = self.originals.get(token)
        if original_id is not None:
            original = self.messages[original_id]
            if original.loading and original.edits == 0:
                # Discord: the first followup after a "thinking" defer replaces that message
                return self.edit_message(original, call.json or {}, call.files)
        return self.create_message(
            int(interaction["channel_id"]),
            call.json or {},
            call.files,
            type=0,
            interaction_token=token,
            webhook_id=self.application_id,
        )


def walk_components(items: Any) -> list[dict[str, Any]]:
    """Every component of a list, nested ones included (rows, containers, sections)."""
    out: list[dict[str, Any]] = []
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict):
            out.append(item)
            out += walk_components(item.get("components"))
            inner = [item[k] for k in ("accessory", "component") if isinstance(item.get(k), dict)]
            out += walk_components(inner)
    return out


def sent_text(data: dict[str, Any]) -> str:
    """The text of a message body as sent: its content and its text displays."""
    texts = text_displays(data.get("components"))
    return "\n".join(x for x in [str(data.get("content") or ""), *texts] if x)


def text_displays(components: Any) -> list[str]:
    """The text of every TextDisplay of V2 components (a message's, or a request body's), in
    order."""
    return [str(c.get("content") or "") for c in walk_components(components)
            if c.get("type") == TEXT_DISPLAY]


def media_items(components: Any) -> list[dict[str, Any]]:
    """The media of V2 components: gallery items, thumbnails and files, each as
    `{"url", "description"}`."""
    out: list[dict[str, Any]] = []
    for item in walk_components(components):
        entries = item.get("items") if item.get("type") == MEDIA_GALLERY else [item]
        for entry in entries or []:
            media = entry.get("media") or entry.get("file")
            if isinstance(media, dict) and "url" in media:
                out.append({"url": media["url"], "description": entry.get("description")})
    return out


def _check_media(components: Any, filenames: list[str]) -> None:
    """Discord refuses (400) a V2 payload whose `attachment://NAME` names no file the message
    will have."""
    for media in media_items(components):
        url = str(media["url"])
        if url.startswith("attachment://") and url.removeprefix("attachment://") not in filenames:
            raise HarnessHTTPError(400, f"Invalid Form Body: unknown attachment {url!r}", 50035)


def _is_snowflake(value: Any) -> bool:
    try:
        return int(value) > 1_000_000
    except (TypeError, ValueError):
        return False


def _route_params(route: Route) -> dict[str, Any]:
    """The parameters a Route was built with, recovered from its template and URL."""
    import re

    names = re.findall(r"{(\w+)}", route.path)
    pattern = re.escape(route.BASE + route.path)
    for name in names:
        pattern = pattern.replace(re.escape("{" + name + "}"), f"(?P<{name}>[^/?]+)")
    match = re.fullmatch(pattern, route.url)
    return dict(match.groupdict()) if match else {}


# -- routing of the shared webhook adapter ----------------------------------------------
_ROUTES: dict[str, FakeDiscord] = {}
_installed: dict[str, Any] = {}


def _default_adapter() -> Any:
    return contextvars.Context().run(async_context.get)


async def _routed_webhook_request(route: Route, session: Any = None, **kwargs: Any) -> Any:
    fake = _ROUTES.get(route.webhook_token or "")
    if fake is None:
        raise RuntimeError(
            f"harness: webhook call {route.method} {route.path} with an unknown token; "
            "the network is disabled in tests"
        )
    return await fake.webhook_request(route, session, **kwargs)


def install_webhook_route(token: str, fake: FakeDiscord) -> None:
    """Route webhook calls made with `token` to `fake` (installs the adapter hook once)."""
    adapter = _default_adapter()
    if "adapter" not in _installed:
        _installed["adapter"] = adapter
        adapter.request = _routed_webhook_request
    _ROUTES[token] = fake


def forget_webhook_routes(fake: FakeDiscord) -> None:
    """Drop the routes of `fake`; restore the real adapter when no harness is left."""
    for token in [tok for tok, owner in _ROUTES.items() if owner is fake]:
        del _ROUTES[token]
    if not _ROUTES and "adapter" in _installed:
        adapter = _installed.pop("adapter")
        del adapter.request  # back to the class's method

