"""`RequestBudget`: the bot's own cap on bot-token requests per second, one for the whole bot.

Discord allows a bot about 50 bot-token requests a second across all its servers (interaction
responses and follow-ups through the interaction token do not count). Going over it means 429s
and every table lagging, so every bot-token request of ours asks the bot's one budget first
(`StoppaBot.requests`): the table publisher's posts and edits, the look-ups of members' names,
the threads of tables and their announcements. `acquire` waits for room, first come first
served (a table's edits coalesce meanwhile: a longer pause, never an error); `try_acquire`
takes room only if there is some now and nobody is waiting for it (a ping is skipped rather
than delayed, and never overtakes a request that waits). The window is the event loop's
clock, so simulated time (the benchmark) and real time behave alike.
"""

from __future__ import annotations

import asyncio
from collections import deque

import bot.metrics as metrics

#: Requests a second the bot allows itself (Discord's global limit is ~50: a margin for what
#: discord.py sends on its own).
DEFAULT_PER_SECOND = 45
WINDOW = 1.0


class RequestBudget:
    """A sliding one-second window of at most `per_second` requests, served in order."""

    def __init__(self, per_second: int = DEFAULT_PER_SECOND) -> None:
        self.per_second = per_second
        self._times: deque[float] = deque()
        #: held by the request waiting for room; the others queue behind it in order
        self._turn = asyncio.Lock()

    def _now(self) -> float:
        return asyncio.get_running_loop().time()

    def _take(self) -> bool:
        """Take room for one request now if the window has some."""
        now = self._now()
        while self._times and self._times[0] <= now - WINDOW:
            self._times.popleft()
        if len(self._times) >= self.per_second:
            return False
        self._times.append(now)
        return True

    def try_acquire(self) -> bool:
        """Take room for one request now if there is some and no request is waiting."""
        return not self._turn.locked() and self._take()

    async def acquire(self) -> None:
        """Wait until there is room for one request (after those that asked earlier), then
        take it."""
        if self.try_acquire():
            return
        asked = self._now()
        async with self._turn:
            while not self._take():
                await asyncio.sleep(max(self._times[0] + WINDOW - self._now(), 0.001))
        metrics.budget_waited(self._now() - asked)
