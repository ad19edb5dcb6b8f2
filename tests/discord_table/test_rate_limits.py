"""A burst of 429s from Discord (issue 18): discord.py waits and retries by itself; the bot
adds no retry of its own, loses no state, and every interaction is answered.

`ServedHarness` keeps discord.py's real `HTTPClient.request` (and its rate limiter) in the
loop: the fake answers over a Unix socket, and `rate_limit` makes it answer 429s."""

from __future__ import annotations

import itertools
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.discord_table.conftest import shows_turn
from tests.discord_table.driver import TableDriver
from tests.discord_table.test_game import open_table
from tests.harness.served import ServedHarness

EDIT = "/channels/{channel_id}/messages/{message_id}"
POST = "/channels/{channel_id}/messages"
RETRY_AFTER = 0.2  # under the settling's idle threshold: the harness waits for the retry


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[ServedHarness]:
    async with ServedHarness.create(tmp_path, seed=7) as harness:
        yield harness  # type: ignore[misc]


def body(call) -> str:
    return json.dumps(call.json, sort_keys=True)


@pytest.mark.parametrize(("method", "path", "is_global"), [
    ("PATCH", EDIT, False),   # the table message's edits (its route's bucket)
    ("POST", POST, True),     # the pings, under a global limit
])
async def test_a_burst_of_429s_delays_requests_but_loses_nothing(
    served: ServedHarness, method: str, path: str, is_global: bool
) -> None:
    h = served
    # pings at once; slash commands only: a click on the table message lends its interaction
    # token to the publisher, whose edits then leave the channel route (test_budget)
    h.bot.get_cog("TableCog").publisher.ping_share = 0
    members = [h.member(name) for name in ("Anna", "Bruno", "Carla")]
    await open_table(h, members)
    driver = TableDriver(h, members, seed=5)
    await driver.play_turn("slash")
    first = len(h.calls)
    burst = 3
    h.rate_limit(method, path, burst, RETRY_AFTER, is_global=is_global)
    replies = [await driver.play_turn(mode) for mode in ("slash", "slash", "slash")]

    # every interaction answered, exactly once each
    for reply in replies:
        assert reply.responded
        assert sum(c.callback_type is not None for c in reply.calls) == 1
    calls = [c for c in h.calls[first:] if c.via == "http"]
    limited = [i for i, c in enumerate(calls) if c.status == 429]
    assert len(limited) == burst and all(calls[i].method == method for i in limited)
    # discord.py retried each 429 once, with the same request, after retry_after; nothing
    # of ours sent it again on top: every other request of the route went out once
    for i in limited:
        retry = next(c for c in calls[i + 1:] if (c.method, c.path) == (method, path))
        assert body(retry) == body(calls[i])
        assert retry.at - calls[i].at >= RETRY_AFTER * 0.9
    route = [c for c in calls if (c.method, c.path) == (method, path)]
    succeeded = [c for c in route if c.status != 429]
    assert len(route) == len(succeeded) + burst
    for one, two in itertools.pairwise(succeeded):
        assert body(one) != body(two) or one.params != two.params

    # no state lost: the table message shows the table as it is, the books balance
    state = driver.state()
    assert state is not None and state.to_act is not None and state.to_act > 0
    assert shows_turn(driver.table_message(), state)
    assert await h.store.audit() == []
