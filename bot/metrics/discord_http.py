"""Discord's 429s and the answers to interactions, read from discord.py's HTTP session.

discord.py offers one public hook on its requests: the `http_trace` option of `Client`, an
`aiohttp.TraceConfig` added to the session that carries every request of the bot, bot-token
REST and interaction callbacks alike (discord.py's documentation names metrics as its use).
It sees each answer after discord.py's own rate limiter let the request go, so:

- every HTTP 429 is counted by its route TEMPLATE (`PATCH /channels/{channel_id}/messages/
  {message_id}`), never by its path, which holds ids and interaction tokens;
- an accepted interaction callback (`POST /interactions/{interaction_id}/{token}/callback`) is
  the answer to that interaction: the time since the interaction's creation, which its
  snowflake id carries, is what Discord's 3-second deadline measures.

The trace sees a URL, not discord.py's `Route` (which keeps its template in `path`, but no
public hook hands it over), so `route_template` rebuilds the template from the path: a run of
digits is an id named after the segment before it, the segment after a webhook or interaction
id is its token, and the segment after `reactions` is an emoji.
"""

from __future__ import annotations

import re
import time
from types import SimpleNamespace

import aiohttp

import bot.metrics as metrics

#: milliseconds from the Unix epoch to Discord's (2015-01-01), the origin of snowflake times
DISCORD_EPOCH_MS = 1_420_070_400_000

_API_PREFIX = re.compile(r"^/api(?:/v\d+)?")
_WORD = re.compile(r"[a-z@][a-z0-9@_-]{0,39}")
_TOKEN_AFTER = {"webhooks": "{webhook_token}", "interactions": "{interaction_token}"}
_CALLBACK = re.compile(r"^/interactions/(\d+)/[^/]+/callback$")


def route_template(method: str, path: str) -> str:
    """`METHOD /template` of a Discord API path, with every id, token and emoji replaced by a
    named placeholder (`GET /guilds/{guild_id}/members/{member_id}`)."""
    segments = _API_PREFIX.sub("", path).strip("/").split("/")
    out: list[str] = []
    previous = ""
    after_id_of = ""
    for segment in segments:
        if after_id_of in _TOKEN_AFTER:  # whatever it looks like, even all digits
            name = _TOKEN_AFTER[after_id_of]
        elif segment.isdigit():
            name = f"{{{previous.removesuffix('s') or 'id'}_id}}"
            after_id_of, previous = previous, name
            out.append(name)
            continue
        elif previous == "reactions":
            name = "{emoji}"
        elif _WORD.fullmatch(segment):
            name = segment
        else:
            name = "{param}"
        after_id_of, previous = "", name
        out.append(name)
    return f"{method.upper()} /{'/'.join(out)}"


def snowflake_seconds(snowflake: int) -> float:
    """The Unix time (seconds) at which Discord made `snowflake`."""
    return ((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000


def record_answer(method: str, path: str, status: int, now: float | None = None) -> None:
    """Count one answer of Discord's API to `method path` (while metrics are on)."""
    recorder = metrics.active()
    if recorder is None:
        return
    if status == 429:
        recorder.rate_limited.labels(route_template(method, path)).inc()
        return
    if method == "POST" and 200 <= status < 300:
        found = _CALLBACK.match(_API_PREFIX.sub("", path))
        if found is not None:
            at = time.time() if now is None else now
            recorder.interaction_answer.observe(max(at - snowflake_seconds(int(found[1])), 0.0))


async def _on_request_end(
    session: aiohttp.ClientSession, context: SimpleNamespace,
    params: aiohttp.TraceRequestEndParams,
) -> None:
    record_answer(params.method, params.url.path, params.response.status)


def discord_trace() -> aiohttp.TraceConfig:
    """The trace to give discord.py (`Client(http_trace=...)`) while metrics are on."""
    trace = aiohttp.TraceConfig()
    trace.on_request_end.append(_on_request_end)
    return trace
