"""`MeteredHarness`: the served harness with metrics on, and interaction answers over HTTP.

`ServedHarness` already sends the bot-token requests through discord.py's real HTTP client;
interaction callbacks, `@original` edits and followups still take the harness's webhook door,
which never reaches aiohttp. Here that door hands each webhook call to discord.py's real
`AsyncWebhookAdapter.request` with the bot's own session (so the bot's `http_trace` sees it,
as in production), and the served fake answers it through the same `FakeDiscord`: the same
calls are recorded and the same answers come back.

The bot is built as `python -m bot` builds it with `STOPPA_METRICS_PORT` set: its `metrics`
settings (port 0: a free port) and the trace are given before login, so `setup_hook` starts
the server.
"""

from __future__ import annotations

import io
import json
import re
from typing import Any

import discord
from aiohttp import web
from discord.http import Route
from discord.webhook.async_ import AsyncWebhookAdapter

from bot.client import StoppaBot
from bot.metrics.discord_http import discord_trace
from bot.metrics.server import MetricsServer
from bot.metrics.settings import MetricsSettings
from tests.harness.served import API_PREFIX, ServedHarness, _json, _request_body
from tests.harness.transport import FakeDiscord

#: the webhook routes of discord.py 2.7 (`discord/webhook/async_.py`), most specific first
WEBHOOK_ROUTES = (
    "/interactions/{webhook_id}/{webhook_token}/callback",
    "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
    "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
    "/webhooks/{webhook_id}/{webhook_token}",
)
_PATTERNS = [
    (template, re.compile(re.sub(r"\\{(\w+)\\}", r"(?P<\1>[^/]+)", re.escape(template)) + "$"))
    for template in WEBHOOK_ROUTES
]


def webhook_route(method: str, path: str) -> Route | None:
    """discord.py's Route of a webhook API path, or None."""
    for template, pattern in _PATTERNS:
        found = pattern.match(path)
        if found is not None:
            return Route(method, template, **found.groupdict())
    return None


class MeteredHarness(ServedHarness):
    """A served harness whose bot serves metrics and answers interactions over HTTP."""

    async def install_rest(self, bot: StoppaBot) -> None:
        await super().install_rest(bot)
        bot.metrics_settings = MetricsSettings(port=0)
        bot.http.http_trace = discord_trace()
        self.fake.webhook_request = self._over_http  # type: ignore[method-assign]

    @property
    def metrics_server(self) -> MetricsServer:
        """The bot's running metrics server."""
        server = self.bot.metrics_server
        assert server is not None, "the bot serves no metrics"
        return server

    async def _over_http(self, route: Route, session: Any = None, **kwargs: Any) -> Any:
        """The harness's webhook door, sent for real by discord.py's adapter."""
        # `session` is the one discord.py passes: the bot's own (its connector, its trace)
        return await AsyncWebhookAdapter.request(AsyncWebhookAdapter(), route, session, **kwargs)

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        route = webhook_route(request.method, request.path.removeprefix(API_PREFIX))
        if route is None:
            return await super()._handle(request)
        body, files = await _request_body(request)
        multipart = None
        if files:
            multipart = [{"name": "payload_json", "value": json.dumps(body)}] + [
                {"name": f"files[{i}]", "filename": f.filename, "value": io.BytesIO(f.data),
                 "content_type": f.content_type}
                for i, f in enumerate(files)
            ]
        try:
            answer = await FakeDiscord.webhook_request(
                self.fake, route, payload=None if multipart else body, multipart=multipart,
                params=dict(request.query),
            )
        except discord.HTTPException as error:
            return _json({"code": error.code, "message": error.text}, error.status)
        if answer is None:
            return web.Response(status=204)
        return _json(answer, 200)
