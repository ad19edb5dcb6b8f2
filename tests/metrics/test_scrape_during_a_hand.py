"""The metrics server of a running bot, scraped with a real HTTP client while the harness
plays a hand: the counters move exactly as the hand does."""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.discord_table.driver import TableDriver
from tests.discord_table.test_game import open_table
from tests.metrics.metered import MeteredHarness
from tests.metrics.scrape import get, scrape, value

EDIT_ROUTE = "PATCH /channels/{channel_id}/messages/{message_id}"


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[MeteredHarness]:
    async with MeteredHarness.create(tmp_path, seed=7) as harness:
        yield harness  # type: ignore[misc]


async def play_one_hand(driver: TableDriver) -> Counter[str]:
    """Play the humans' turns until the hand in progress is over; the kinds played."""
    state = driver.state()
    assert state is not None
    hand_no = state.hand_no
    kinds: Counter[str] = Counter()
    while (state := driver.state()) is not None and state.hand_no == hand_no:
        assert state.to_act is not None and state.to_act > 0
        member = driver.member(state.to_act)
        action = driver.choose(driver.hand_info(member))
        if type(action).__name__ == "Concede" or driver.rng.random() < 0.5:
            reply = await driver.act_by_buttons(member, action)
        else:
            reply = await driver.act_by_slash(member, action)
        assert reply.responded, reply.text
        kinds[type(action).__name__.lower()] += 1
        await driver.service.wait_idle()
        await driver.h.settle()
    return kinds


def callbacks(h: MeteredHarness, since: int) -> int:
    """Interaction callbacks the fake accepted after call number `since`."""
    return sum(
        1 for call in h.calls[since:]
        if call.via == "webhook" and call.path.endswith("/callback") and call.status == 200
    )


async def test_counters_follow_a_hand(h: MeteredHarness) -> None:
    members = [h.member(name) for name in ("Anna", "Bruno", "Carla")]
    await open_table(h, members)
    driver = TableDriver(h, members, seed=5)
    base = h.metrics_server.url
    before = await scrape(base)
    first_call = len(h.calls)

    kinds = await play_one_hand(driver)
    after = await scrape(base)

    def moved(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert moved("stoppa_hands_finished_total") == 1
    for kind, count in kinds.items():
        assert moved("stoppa_actions_total", kind=kind) == count, kind
    played = sum(kinds.values())
    actions = sum(v for (name, _), v in after.items() if name == "stoppa_actions_total")
    actions -= sum(v for (name, _), v in before.items() if name == "stoppa_actions_total")
    assert actions == played
    # every accepted callback (answers, defers, panels, modals) is one observation
    answered = callbacks(h, first_call)
    assert answered >= played
    assert moved("stoppa_interaction_answer_seconds_count") == answered
    # each action is at least one committed transaction, each timed
    committed = moved("stoppa_store_transactions_total", driver="sqlite")
    assert committed >= played
    assert moved("stoppa_store_transaction_seconds_count", driver="sqlite") == committed
    assert moved("stoppa_store_transaction_seconds_sum", driver="sqlite") > 0
    # read from the bot at scrape time: the table still plays its next hand
    assert value(after, "stoppa_open_tables") == 1
    assert not [key for key in after if key[0] == "stoppa_errors_total"]


async def test_429s_are_counted_by_route_template(h: MeteredHarness) -> None:
    h.bot.get_cog("TableCog").publisher.ping_share = 0  # type: ignore[attr-defined]
    members = [h.member(name) for name in ("Anna", "Bruno", "Carla")]
    await open_table(h, members)
    driver = TableDriver(h, members, seed=5)
    await driver.play_turn("slash")
    h.rate_limit("PATCH", "/channels/{channel_id}/messages/{message_id}", 2, 0.2)
    for _ in range(3):
        await driver.play_turn("slash")
    found = await scrape(h.metrics_server.url)

    limited = sum(1 for call in h.calls if call.status == 429)
    assert limited == 2
    assert value(found, "stoppa_discord_rate_limited_total", route=EDIT_ROUTE) == limited
    routes = [dict(labels)["route"] for name, labels in found
              if name == "stoppa_discord_rate_limited_total"]
    assert routes == [EDIT_ROUTE]  # no id of a channel or a message in any label


async def test_readyz_follows_the_database_and_livez_the_loop(h: MeteredHarness) -> None:
    base = h.metrics_server.url
    ready = await get(base + "/readyz")
    assert (ready.status, ready.text) == (200, "ready\n")
    assert (await get(base + "/livez")).status == 200

    assert h.bot.store is not None
    await h.bot.store.close()
    closed = await get(base + "/readyz")
    assert closed.status == 503
    assert closed.text.startswith("database:"), closed.text
    assert (await get(base + "/livez")).status == 200
