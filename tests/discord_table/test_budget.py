"""Discord's request budget (issue 18): what the table message costs the bot.

A click on the table message's own buttons (a turn button of a message posted before issue 36
moved the moves to the players' panels) lends its interaction to the publisher (edits free
of the global limit); the image is uploaded only when it changed, as a palette PNG; a human is
pinged only after part of their turn clock, never with a deleted ping; a failed edit is tried
again by the publisher itself; all tables share one budget of bot-token requests."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot.discord_utils.request_budget import DEFAULT_PER_SECOND, RequestBudget
from bot.render import render_table
from bot.render.table import table_image
from bot.tables.clock import FakeClock
from cogs.table_publisher import PING_SHARE, render_table_upload
from tests.discord_table.conftest import TIMEOUT, pings, publisher, shows_turn
from tests.discord_table.driver import TableDriver
from tests.discord_table.test_game import open_table
from tests.discord_table.test_refusals import old_turn_ids, turn_button
from tests.harness import Harness
from tests.harness.served import ServedHarness
from tests.harness.traffic import Traffic
from tests.harness.virtual_time import run_virtual
from tests.render.test_images import TABLE_SHOWDOWN, TABLE_STOPPA

EDIT = "/channels/{channel_id}/messages/{message_id}"
POST = "/channels/{channel_id}/messages"


def channel_calls(h: Harness, since: int, method: str, path: str) -> list:
    return [c for c in h.calls[since:] if c.via == "http" and (c.method, c.path) == (method,
                                                                                      path)]


async def test_a_click_on_the_table_message_edits_it_through_the_interaction(h: Harness) -> None:
    members = [h.member(name) for name in ("Anna", "Bruno", "Carla")]
    await open_table(h, members)
    driver = TableDriver(h, members, seed=3)
    table_id = driver.table_message().id
    state = driver.state()
    assert state is not None and state.to_act is not None
    pass_id = turn_button(old_turn_ids(h), "pass")  # Pass on the table message itself
    reply = await h.click(driver.member(state.to_act), table_id, pass_id)
    assert reply.type == 6 and h.fake.originals.get(reply.token) == table_id
    lent_at = len(h.calls)
    for _ in range(4):
        await driver.play_turn("buttons")
    # from then on no bot-token edit of the table message: its token edits it
    assert channel_calls(h, lent_at, "PATCH", EDIT) == []
    edits = [c for c in h.calls[lent_at:] if c.via == "webhook" and c.method == "PATCH"
             and h.fake.originals.get(c.token or "") == table_id]
    assert edits
    # and the message shows the table as it is now
    state = driver.state()
    assert state is not None
    assert shows_turn(driver.table_message(), state)
    assert await h.store.audit() == []


async def test_an_unchanged_image_is_not_uploaded_again(h: Harness) -> None:
    members = [h.member(name) for name in ("Anna", "Bruno", "Carla")]
    await open_table(h, members)
    message = TableDriver(h, members).table_message()
    service = h.bot.tables
    assert service is not None
    state = service.state(h.channel_id)
    assert state is not None
    before = len(h.calls)
    publisher(h).refresh(state)  # the same state again: the same picture
    await h.settle()
    (edit,) = channel_calls(h, before, "PATCH", EDIT)
    assert edit.files == [] and "attachments" not in edit.json
    shown = h.message(message.id)
    (image,) = shown.attachments  # Discord keeps the old image
    assert image.data.startswith(b"\x89PNG")
    # a layout edit sends the whole layout: its gallery points at the file attached before
    assert edit.json["flags"] & (1 << 15)
    assert shown.media_urls() == ["attachment://table.png"]
    assert image.filename == "table.png"


def test_the_uploaded_table_image_is_a_third_of_the_rgb_png_and_looks_the_same() -> None:
    for snap in (TABLE_STOPPA, TABLE_SHOWDOWN):
        rgb = render_table(snap)
        small = render_table_upload(snap)
        assert small == render_table_upload(snap)  # the same picture, the same bytes
        assert len(small) * 2 < len(rgb), (len(small), len(rgb))
        shown = Image.open(io.BytesIO(small)).convert("RGB")
        diff = ImageChops.difference(shown, table_image(snap))
        histogram = diff.convert("L").histogram()
        near = sum(histogram[:24])  # pixels within 24 levels of the original
        assert near >= 0.99 * shown.width * shown.height


async def test_a_ping_only_after_part_of_the_turn_clock_and_never_deleted(
    clocked: tuple[Harness, FakeClock],
) -> None:
    h, clock = clocked
    members = [h.member(name) for name in ("Anna", "Bruno", "Carla")]
    await open_table(h, members)
    driver = TableDriver(h, members, seed=3)
    state = driver.state()
    assert state is not None and state.to_act is not None
    assert pings(h) == []  # nobody is pinged at once
    await clock.advance(PING_SHARE * TIMEOUT - 1)
    await h.settle()
    assert pings(h) == []
    await clock.advance(2)
    await h.settle()
    (ping,) = pings(h)
    assert f"<@{state.to_act}>" in ping.content
    # the player acts, the next ones too: the ping is never deleted (no ghost ping)
    for _ in range(3):
        await driver.play_turn("buttons")
    assert not any(c.method == "DELETE" for c in h.calls if c.via == "http")
    assert not h.message(ping.id).deleted


async def test_an_opted_out_player_is_not_pinged(clocked: tuple[Harness, FakeClock]) -> None:
    h, clock = clocked
    members = [h.member(name) for name in ("Anna", "Bruno", "Carla")]
    publisher(h).opted_out = lambda guild, user: True
    await open_table(h, members)
    await clock.advance(TIMEOUT * 0.9)
    await h.settle()
    assert pings(h) == []


async def test_an_edit_discord_py_gave_up_on_is_published_again(tmp_path: Path) -> None:
    """discord.py tries a request five times; after five 429s it raises. The publisher wakes
    itself again after a delay and publishes the latest state (it used to drop it)."""
    async with ServedHarness.create(tmp_path, seed=7) as h:
        assert isinstance(h, ServedHarness)
        publisher(h).failure_delays = (0.2,)
        members = [h.member(name) for name in ("Anna", "Bruno", "Carla")]
        await open_table(h, members)
        driver = TableDriver(h, members, seed=5)
        h.rate_limit("PATCH", EDIT, 5, 0.05)
        await driver.play_turn("slash")  # no click on the table message: a channel edit
        for _ in range(100):
            await asyncio.sleep(0.05)
            state = driver.state()
            assert state is not None
            if shows_turn(driver.table_message(), state):
                break
        else:
            pytest.fail("the table message was never updated after the 429s")
        limited = [c for c in h.calls if c.status == 429]
        assert len(limited) == 5
        assert await h.store.audit() == []


def test_the_budget_allows_at_most_its_rate_in_any_second() -> None:
    async def main() -> list[float]:
        budget = RequestBudget(per_second=5)
        loop = asyncio.get_running_loop()
        start = loop.time()
        times: list[float] = []

        async def one() -> None:
            await budget.acquire()
            times.append(loop.time() - start)

        await asyncio.gather(*(one() for _ in range(15)))
        assert not budget.try_acquire()  # the last second is full
        return sorted(times)

    times = run_virtual(main())
    assert len(times) == 15
    for i in range(len(times) - 5):
        assert times[i + 5] - times[i] >= 1.0 - 1e-9
    assert 2.0 - 1e-9 <= times[-1] < 3.0  # 15 requests at 5 a second: the third window


def test_tables_opened_in_the_same_second_stay_within_the_shared_budget(tmp_path: Path) -> None:
    """Twenty tables opened at the same instant: each table message is posted, and each of
    its three members (never seen in an interaction) has their name looked up by REST. Every
    one of those bot-token requests waits for room in the one shared budget, so the harness
    sees at most `DEFAULT_PER_SECOND` of them in any second (the look-ups used to go around
    it: some 80 requests in the first second)."""
    tables = 20

    async def main() -> list[float]:
        async with Harness.create(tmp_path, seed=3) as h:
            traffic = Traffic(h)  # no limit modelled: every call is answered when it is sent
            service = h.bot.tables
            assert service is not None
            channels = []
            for i in range(tables):
                channel = h.add_channel(f"table-{i + 1}")
                members = [h.member(f"P{i + 1}-{k + 1}") for k in range(3)]
                await service.open_table(h.guild_id, channel, members[0].id)
                for member in members[1:]:
                    await service.join(h.guild_id, channel, member.id)
                await service.start_game(h.guild_id, channel, members[0].id)
                channels.append(channel)

            def posted() -> bool:
                return all(
                    (state := service.state(c)) is not None and state.message_id is not None
                    for c in channels
                )

            assert await traffic.until(posted, 600.0)
            await asyncio.sleep(30.0)  # simulated: the edits after the first posts too
            bot_token = [s for s in traffic.sent if s.counts_globally]
            assert sum(s.kind == "bot_other" for s in bot_token) == 3 * tables  # look-ups
            assert sum(s.kind == "channel_post" for s in bot_token) >= tables
            return sorted(s.issued for s in bot_token)

    times = run_virtual(main())
    per_second = DEFAULT_PER_SECOND
    assert len(times) > per_second
    for i in range(len(times) - per_second):
        assert times[i + per_second] - times[i] >= 1.0 - 1e-9, (
            f"{per_second + 1} bot-token requests within one second from {times[i]:.2f} s"
        )


def test_an_edit_waiting_for_room_shows_what_happened_meanwhile(tmp_path: Path) -> None:
    """The budget is full when three players sit down one after the other: the table's edit
    waits for room, then shows all three at once (one request), instead of showing the first
    one after the wait and spending a second request on the others."""

    async def main() -> tuple[int, str]:
        async with Harness.create(tmp_path, seed=3) as h:
            traffic = Traffic(h)
            service = h.bot.tables
            assert service is not None
            owner, *others = [h.member(name) for name in ("Anna", "Bruno", "Carla", "Dario")]
            channel = h.channel_id
            table_id = (await service.open_table(h.guild_id, channel, owner.id)).table_id
            assert await traffic.until(
                lambda: publisher(h).message_id(table_id) is not None, 60.0
            )
            await asyncio.sleep(5.0)  # simulated: the owner's name was looked up, all quiet
            budget = publisher(h).budget
            while budget.try_acquire():  # the budget is full for the next second
                pass
            since = len(traffic.sent)
            for member in others:
                await service.join(h.guild_id, channel, member.id)
            await asyncio.sleep(5.0)
            edits = [s for s in traffic.sent[since:] if s.kind == "channel_edit"]
            state = service.state(channel)
            assert state is not None and state.message_id is not None
            return len(edits), h.fake.messages[int(state.message_id)].text

    edits, text = run_virtual(main())
    assert all(name in text for name in ("Bruno", "Carla", "Dario"))
    assert edits == 1
