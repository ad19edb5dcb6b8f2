"""`Watch`: Discord's 15-minute interaction tokens, and a count of what the bot sent.

It sits in the fake Discord's gate (`FakeDiscord.gate`) in front of a `Traffic`: every call is
recorded by the traffic (route kind, loop times, bytes uploaded), then a call made with an
interaction token older than `TOKEN_LIFE` seconds of loop time is refused as Discord refuses
it (401, code 50027 "Invalid Webhook Token"; such refusals count toward Discord's limit of
invalid requests, so a bot should never make them). A token's age starts when a `Person` sent
its interaction (`Watch.sent`); a token the watch was not told about never expires.

The watch also sorts the calls the way issue 36 counts them: a new private (ephemeral)
message, an edit of a private message that was already shown (a panel edit: an update response
on it, or a PATCH of it that is not the first fill of a "thinking" answer), a public message, a
ping (a public message that mentions a user).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from tests.harness import Harness
from tests.harness.traffic import Traffic
from tests.harness.transport import Call, FakeMessage, HarnessHTTPError

#: Seconds an interaction token works (Discord: 15 minutes).
TOKEN_LIFE = 15 * 60.0
#: Discord's error of a request made with an expired interaction token.
INVALID_WEBHOOK_TOKEN = 50027
#: Callback types (Discord's interaction response types).
MESSAGE, DEFERRED_MESSAGE, UPDATE_MESSAGE = 4, 5, 7


@dataclass
class Counts:
    """What the bot sent, sorted as issue 36 counts it (reset by `Watch.reset`)."""

    private_messages: int = 0
    panel_edits: int = 0
    public_messages: int = 0
    pings: int = 0
    expired_refused: int = 0
    #: the private messages of each user (a new message each)
    private_by_user: dict[int, int] = field(default_factory=dict)


class Watch:
    """Expiring interaction tokens and counts of the calls (see the module docstring)."""

    def __init__(self, h: Harness, traffic: Traffic | None = None) -> None:
        self.h = h
        self.traffic = traffic if traffic is not None else Traffic(h)
        self.sent_at: dict[str, float] = {}
        self.users: dict[str, int] = {}
        self.counts = Counts()
        h.fake.gate = self.gate

    def sent(self, token: str, user: int) -> None:
        """An interaction of `user` was sent now: its token's 15 minutes start."""
        self.sent_at[token] = asyncio.get_running_loop().time()
        self.users[token] = user

    def reset(self) -> None:
        """Start counting afresh (the traffic's record is kept: slice it by time)."""
        self.counts = Counts()

    def expired(self, token: str | None) -> bool:
        """Whether the interaction token is past its life (in loop time)."""
        sent = self.sent_at.get(token or "")
        return sent is not None and asyncio.get_running_loop().time() - sent >= TOKEN_LIFE

    async def gate(self, call: Call) -> None:
        """Count the call, let the traffic record it, and refuse it if its token expired."""
        self._sort(call)
        await self.traffic.gate(call)
        if call.via == "webhook" and self.expired(call.token):
            self.counts.expired_refused += 1
            raise HarnessHTTPError(401, "Invalid Webhook Token", INVALID_WEBHOOK_TOKEN)

    # -- sorting ------------------------------------------------------------------------------
    def _sort(self, call: Call) -> None:
        if call.via == "http":
            if call.method == "POST" and call.path == "/channels/{channel_id}/messages":
                self._public(call.json)
            return
        interaction = self.h.fake.interactions.get(call.token or "")
        if interaction is None or self.expired(call.token):
            return
        user = self.users.get(call.token or "", 0)
        if call.path.endswith("/callback"):
            kind = call.callback_type
            if kind in (MESSAGE, DEFERRED_MESSAGE):
                self._new(bool(call.flags & 64), call.json, user)
            elif kind == UPDATE_MESSAGE and _ephemeral_source(interaction):
                self.counts.panel_edits += 1
            return
        if call.method == "POST":  # a followup
            self._new(bool(call.flags & 64), call.json, user)
            return
        if call.method == "PATCH":
            target = self._target(call)
            if target is not None and target.ephemeral and not (
                target.loading and target.edits == 0
            ):
                self.counts.panel_edits += 1

    def _new(self, ephemeral: bool, body: Any, user: int) -> None:
        if ephemeral:
            self.counts.private_messages += 1
            self.counts.private_by_user[user] = self.counts.private_by_user.get(user, 0) + 1
        else:
            self._public(body)

    def _public(self, body: Any) -> None:
        mentions = (body or {}).get("allowed_mentions") if isinstance(body, dict) else None
        if mentions and mentions.get("users"):
            self.counts.pings += 1
        else:
            self.counts.public_messages += 1

    def _target(self, call: Call) -> FakeMessage | None:
        """The message a webhook PATCH edits (its original response, or a followup)."""
        fake = self.h.fake
        raw = call.params.get("message_id", call.path.rsplit("/", 1)[-1])
        if raw == "@original":
            message_id = fake.originals.get(call.token or "")
        else:
            message_id = int(raw) if str(raw).isdigit() else None
        return fake.messages.get(message_id) if message_id is not None else None


def _ephemeral_source(interaction: dict[str, Any]) -> bool:
    """Whether a component interaction came from an ephemeral message."""
    message = interaction.get("message") or {}
    return bool(int(message.get("flags") or 0) & 64)
