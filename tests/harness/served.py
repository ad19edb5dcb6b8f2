"""`ServedHarness`: the harness with discord.py's own HTTP client and rate limiter in the loop.

The ordinary harness replaces `HTTPClient.request`, so discord.py's handling of 429 answers
never runs. Here the bot keeps its real `HTTPClient.request` and aiohttp session; only the
session's connector is swapped (`HTTPClient.connector`, a constructor option of discord.py)
for a Unix socket on which a small aiohttp server answers as Discord would, through the same
`FakeDiscord` (same calls recorded, same answers). Interaction callbacks still go through the
harness's webhook door.

`h.rate_limit(method, path, count, retry_after)` makes the next `count` calls of a route
answer 429 with the body and headers discord.py 2.7 reads (`http.py`): `Via` (without it a
429 is taken for a Cloudflare ban), `X-RateLimit-*`, `Retry-After`, and `retry_after` /
`global` in the JSON body. Those calls are recorded too (`Call.status == 429`), so a test can
count exactly how many requests went out.
"""

from __future__ import annotations

import json
import math
import re
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import discord
from aiohttp import web
from aiohttp.web_protocol import RequestHandler

from bot.client import StoppaBot
from tests.harness.harness import Harness
from tests.harness.settle import register_idle
from tests.harness.transport import Call, CapturedFile

API_PREFIX = "/api/v10"
#: The route templates the fake answers (as `discord.http.Route.path`).
ROUTES = (
    "/users/@me",
    "/oauth2/applications/@me",
    "/applications/{application_id}/commands",
    "/applications/{application_id}/guilds/{guild_id}/commands",
    "/channels/{channel_id}/messages",
    "/channels/{channel_id}/messages/{message_id}",
    "/channels/{channel_id}/typing",
    "/guilds/{guild_id}/members/{member_id}",
    "/users/{user_id}",
)
# The server's connection tasks wait for the next request: parked, not working (the bot's
# side of a request stays busy until it has its answer).
register_idle(RequestHandler.start)

_PATTERNS = [
    (template, re.compile(re.sub(r"\\{(\w+)\\}", r"(?P<\1>[^/]+)", re.escape(template)) + "$"))
    for template in ROUTES
]


def match_route(path: str) -> tuple[str, dict[str, str]]:
    """The route template of a concrete API path and its parameters."""
    for template, pattern in _PATTERNS:
        found = pattern.match(path)
        if found is not None:
            return template, found.groupdict()
    return path, {}


@dataclass
class RateLimit:
    """The next `count` calls of `method path` (a route template) answer 429."""

    method: str
    path: str
    count: int
    retry_after: float
    is_global: bool = False

    def answer(self, template: str) -> web.Response:
        """A 429 as Discord sends it."""
        bucket = "harness" + format(abs(hash((self.method, self.path))) % 10**8, "08d")
        headers = {
            "Content-Type": "application/json",
            "Via": "1.1 google",
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset": f"{time.time() + self.retry_after:.3f}",
            "X-RateLimit-Reset-After": f"{self.retry_after:.3f}",
            "X-RateLimit-Bucket": bucket,
            "X-RateLimit-Scope": "shared" if not self.is_global else "global",
            "Retry-After": str(math.ceil(self.retry_after)),
        }
        if self.is_global:
            headers["X-RateLimit-Global"] = "true"
        body = {
            "message": "You are being rate limited.",
            "retry_after": self.retry_after,
            "global": self.is_global,
        }
        return web.Response(status=429, body=json.dumps(body).encode(), headers=headers)


class ServedHarness(Harness):
    """A `Harness` whose bot-token REST calls go through discord.py's real HTTP client."""

    server: web.AppRunner | None = None
    socket_dir: str | None = None

    async def install_rest(self, bot: StoppaBot) -> None:
        """Serve the fake on a Unix socket and point the bot's connector at it."""
        if self.server is None:
            self.rate_limits: list[RateLimit] = []
            self.socket_dir = tempfile.mkdtemp(prefix="stoppa-h")
            app = web.Application(client_max_size=64 * 1024 * 1024)
            app.router.add_route("*", "/{tail:.*}", self._handle)
            self.server = web.AppRunner(app, access_log=None)
            await self.server.setup()
            await web.UnixSite(self.server, self.socket_path).start()
        bot.http.connector = aiohttp.UnixConnector(path=self.socket_path)

    @property
    def socket_path(self) -> str:
        """The Unix socket the fake is served on."""
        assert self.socket_dir is not None
        return str(Path(self.socket_dir) / "discord.sock")

    def rate_limit(
        self, method: str, path: str, count: int, retry_after: float, *, is_global: bool = False
    ) -> RateLimit:
        """Answer the next `count` calls of `method path` (a template of `ROUTES`) with 429."""
        limit = RateLimit(method.upper(), path, count, retry_after, is_global)
        self.rate_limits.append(limit)
        return limit

    async def close(self) -> None:
        """Close the bot, then the server."""
        try:
            await super().close()
        finally:
            if self.server is not None:
                await self.server.cleanup()
                self.server = None
            if self.socket_dir is not None:
                shutil.rmtree(self.socket_dir, ignore_errors=True)

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        template, params = match_route(request.path.removeprefix(API_PREFIX))
        body, files = await _request_body(request)
        call = Call(
            via="http", method=request.method, path=template, url=str(request.url),
            params=params, query=dict(request.query), json=body, files=files,
            reason=request.headers.get("X-Audit-Log-Reason"),
        )
        for limit in self.rate_limits:
            if limit.count > 0 and (limit.method, limit.path) == (request.method, template):
                limit.count -= 1
                call.status = 429
                self.fake.record(call)
                return limit.answer(template)
        try:
            data = await self.fake.serve_http(call)
        except discord.HTTPException as error:
            call.status = error.status
            answer = {"code": error.code, "message": error.text}
            return _json(answer, error.status)
        if data is None:
            call.status = 204
            return web.Response(status=204)
        return _json(data, 200)


def _json(data: Any, status: int) -> web.Response:
    # discord.py parses a body as JSON only when Content-Type is exactly application/json
    return web.Response(
        status=status, body=json.dumps(data).encode(),
        headers={"Content-Type": "application/json"},
    )


async def _request_body(request: web.Request) -> tuple[Any, list[CapturedFile]]:
    """The JSON body (for multipart: the parsed payload_json) and the files of a request."""
    if request.content_type.startswith("multipart/"):
        body: Any = None
        files: list[CapturedFile] = []
        reader = await request.multipart()
        async for part in reader:
            if not isinstance(part, aiohttp.BodyPartReader):
                continue
            if part.name == "payload_json":
                body = json.loads(await part.text())
            elif part.filename:
                files.append(
                    CapturedFile(
                        filename=part.filename,
                        data=bytes(await part.read(decode=False)),
                        content_type=part.headers.get("Content-Type",
                                                      "application/octet-stream"),
                    )
                )
        return body, files
    raw = await request.read()
    return (json.loads(raw) if raw else None), []
