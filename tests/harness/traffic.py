"""Counting, timing and throttling the REST calls of a harness (the request budget, issue 18).

`Traffic(h)` installs itself as the gate of `h.fake` (`FakeDiscord.gate`): every call the bot
makes is recorded as a `Sent` with the loop time it was issued and the loop time it was
answered. Under `VirtualTimeLoop` these are simulated seconds.

`global_limit` models Discord's global limit of bot-token requests (about 50 a second per
bot; interaction callbacks and followups do not count): a bot-token call is answered in the
first one-second window that has room, in the order the calls came. Discord would answer the
excess with 429 and discord.py would wait and retry; the queue stands for that wait (the
served harness, `tests.harness.served`, answers real 429s instead).

Routes are grouped as the budget counts them (`kind_of`): channel edits, posts, deletes and
other bot-token calls; interaction callbacks, followups and edits of a response.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from tests.harness.harness import Harness
from tests.harness.transport import Call

#: The route kinds that count toward Discord's global limit (bot token).
CHANNEL_KINDS = ("channel_edit", "channel_post", "channel_delete", "bot_other")
#: The route kinds of the interaction token (free of the global limit).
INTERACTION_KINDS = ("interaction_callback", "interaction_followup", "interaction_edit")


def kind_of(call: Call) -> str:
    """The budget's name for the route of `call`."""
    if call.via == "webhook":
        if call.path.endswith("/callback"):
            return "interaction_callback"
        if call.method == "POST":
            return "interaction_followup"
        return "interaction_edit"
    if call.path == "/channels/{channel_id}/messages/{message_id}":
        if call.method == "PATCH":
            return "channel_edit"
        if call.method == "DELETE":
            return "channel_delete"
    if call.path == "/channels/{channel_id}/messages" and call.method == "POST":
        return "channel_post"
    return "bot_other"


@dataclass
class Sent:
    """One recorded call: when it was issued and when the fake answered it (loop time)."""

    call: Call
    kind: str
    issued: float
    answered: float | None = None

    @property
    def uploaded(self) -> int:
        """Bytes of the files attached (multipart parts)."""
        return sum(len(f.data) for f in self.call.files)

    @property
    def counts_globally(self) -> bool:
        """Whether Discord counts it toward the bot's global limit."""
        return self.kind in CHANNEL_KINDS


class Traffic:
    """The gate of a harness's fake Discord: records (and optionally throttles) every call."""

    def __init__(self, h: Harness, *, global_limit: int | None = None) -> None:
        self.h = h
        self.global_limit = global_limit
        self.sent: list[Sent] = []
        self.by_token: dict[str, list[Sent]] = {}
        self._window: deque[float] = deque()
        self._changed: dict[int | None, asyncio.Event] = {}
        h.fake.gate = self.gate

    def close(self) -> None:
        """Stop recording (the fake answers at once again)."""
        if self.h.fake.gate == self.gate:
            self.h.fake.gate = None

    async def gate(self, call: Call) -> None:
        """Record `call`; hold a bot-token call until the global limit has room."""
        loop = asyncio.get_running_loop()
        sent = Sent(call, kind_of(call), loop.time())
        self.sent.append(sent)
        if call.token is not None:
            self.by_token.setdefault(call.token, []).append(sent)
        if self.global_limit is not None and sent.counts_globally:
            start = self._slot(sent.issued)
            if start > sent.issued:
                await asyncio.sleep(start - sent.issued)
        sent.answered = loop.time()
        self.poke(self.channel_of(call))

    def channel_of(self, call: Call) -> int | None:
        """The channel a call is about (a channel route, or the interaction's channel)."""
        if "channel_id" in call.params:
            return int(call.params["channel_id"])
        interaction = self.h.fake.interactions.get(call.token or "")
        return int(interaction["channel_id"]) if interaction else None

    def _slot(self, now: float) -> float:
        """The time the next bot-token call may go (a sliding one-second window, FIFO)."""
        limit = self.global_limit or 0
        window = self._window
        start = now
        if len(window) >= limit:
            start = max(now, window[-limit] + 1.0)
        window.append(start)
        while len(window) > limit:
            window.popleft()
        return start

    def poke(self, channel: int | None = None) -> None:
        """Wake the waiters of `until` (those of `channel`, and those of any channel)."""
        for key in {channel, None}:
            event = self._changed.pop(key, None)
            if event is not None:
                event.set()

    async def until(
        self, condition: Callable[[], bool], timeout: float, *, channel: int | None = None
    ) -> bool:
        """Wait (loop time) until `condition()` holds, checking it after every call about
        `channel` (any call when None) and every `poke`; False on timeout."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not condition():
            left = deadline - loop.time()
            if left <= 0:
                return False
            changed = self._changed.setdefault(channel, asyncio.Event())
            try:
                await asyncio.wait_for(changed.wait(), left)
            except TimeoutError:
                return condition()
        return True

    def answered(self, token: str) -> bool:
        """Whether the interaction `token` got its callback answered."""
        return any(
            s.kind == "interaction_callback" and s.answered is not None
            for s in self.by_token.get(token, ())
        )
