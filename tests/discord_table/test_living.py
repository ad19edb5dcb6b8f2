"""Issue 20 on Discord: tables in threads of their own, `/stoppa tables`, sat-out players."""

from __future__ import annotations

from pathlib import Path

from bot.client import TableOptions
from bot.engine import Declare, Pass, Play
from bot.i18n import t
from bot.tables import FakeClock, TableState
from tests.harness import FakeMember, FakeMessage, Harness
from tests.harness.harness import THREAD_BOT_PERMISSIONS


def _thread_table(h: Harness) -> None:
    """Let the bot create threads in #stoppa (the invite's permissions do not)."""
    h.set_bot_permissions("stoppa", permissions=THREAD_BOT_PERMISSIONS)


def _table_in(h: Harness, channel: int) -> TableState:
    state = h.bot.tables.state(channel)  # type: ignore[union-attr]
    assert state is not None
    return state


def _table_message(h: Harness) -> FakeMessage:
    """The public table message of #stoppa (pings are other messages)."""
    return [m for m in h.messages() if m.media_urls()][-1]


async def test_new_opens_a_thread_and_closing_archives_it(h: Harness) -> None:
    _thread_table(h)
    anna, boss = h.member("Anna"), h.member("Boss", manage_guild=True)
    reply = await h.slash(anna, "stoppa new")
    (thread,) = h.threads()
    thread_id = int(thread["id"])
    assert int(thread["parent_id"]) == h.channel_id and thread["type"] == 11
    assert "Anna" in thread["name"]
    assert reply.ephemeral and f"<#{thread_id}>" in reply.text
    # the channel has one short public message pointing to the thread, nothing else
    (pointer,) = h.messages()
    assert pointer.content == t("living.thread.opened_here", "en", player=f"<@{anna.id}>",
                                thread=f"<#{thread_id}>")
    assert not pointer.embeds and not pointer.components
    # the table (its message, its buttons) lives in the thread
    state = _table_in(h, thread_id)
    assert state.own_thread and h.bot.tables.state(h.channel_id) is None  # type: ignore[union-attr]
    (table_message,) = h.messages(thread_id)
    assert table_message.media_urls() and table_message.components
    # commands work in the thread; closing the table archives the thread
    joined = await h.slash(h.member("Bruno"), "stoppa join", channel=thread_id)
    assert joined.text.split("\n")[0] == t("table.reply.joined", "en")  # his panel
    assert not thread["thread_metadata"]["archived"]
    await h.slash(boss, "stoppa end", channel=thread_id)
    assert h.bot.tables.state(thread_id) is None  # type: ignore[union-attr]
    assert h.fake.channels[thread_id]["thread_metadata"]["archived"] is True
    # its last message says it is closed (published before the thread was archived)
    assert t("tables.closed", "en") in h.message(table_message.id).text


async def test_new_in_a_thread_with_a_table_is_refused_and_in_another_opens_there(
    h: Harness,
) -> None:
    _thread_table(h)
    anna, bruno = h.member("Anna"), h.member("Bruno", locale="it")
    await h.slash(anna, "stoppa new")
    (thread,) = h.threads()
    refused = await h.slash(bruno, "stoppa new", channel=int(thread["id"]))
    assert refused.ephemeral and refused.text == t("living.thread.has_table", "it")
    assert len(h.threads()) == 1
    # a thread people made themselves: the table opens right there (no new thread)
    chat = await h.create_thread("chiacchiere")
    opened = await h.slash(bruno, "stoppa new", channel="chiacchiere")
    assert opened.text == t("table.reply.opened", "it")
    assert not _table_in(h, chat).own_thread
    assert len(h.threads()) == 2


async def test_one_table_per_player_on_the_server(h: Harness) -> None:
    _thread_table(h)
    anna = h.member("Anna", locale="it")
    await h.slash(anna, "stoppa new")
    again = await h.slash(anna, "stoppa new")
    assert again.ephemeral and again.text == t("tables.errors.seated_elsewhere", "it")
    assert len(h.threads()) == 1  # refused before any thread was made
    # in the channel, a table command points to the list of tables
    joined = await h.slash(h.member("Bruno"), "stoppa join")
    assert joined.text == t("tables.errors.no_table", "en") + "\n" + t("living.list.hint", "en")


async def test_without_thread_permissions_it_opens_in_the_channel_and_says_why(
    h: Harness,
) -> None:
    # the parent channel's permissions decide: #stoppa may make threads, #stoppa-2 may not
    _thread_table(h)
    anna, bruno = h.member("Anna", locale="it"), h.member("Bruno")
    reply = await h.slash(anna, "stoppa new", channel="stoppa-2")
    why = t("living.thread.no_threads", "it",
            permissions=t("access.permission.create_public_threads", "it"))
    assert reply.text == t("table.reply.opened", "it") + "\n" + why
    assert h.threads() == []
    assert _table_in(h, h.channels["stoppa-2"])
    await h.slash(bruno, "stoppa new")
    assert len(h.threads()) == 1


async def _turn(h: Harness, member: FakeMember, channel: int) -> None:
    """One turn of `member` at the table of `channel`, by slash command in that channel."""
    info = h.bot.tables.hand_for(h.guild_id, channel, member.id)  # type: ignore[union-attr]
    if any(isinstance(a, Pass) for a in info.actions):
        reply = await h.slash(member, "stoppa pass", channel=channel)
    elif any(isinstance(a, Declare) for a in info.actions):
        reply = await h.slash(member, "stoppa declare", channel=channel)
    else:
        play = next(a for a in info.actions if isinstance(a, Play))
        reply = await h.slash(member, "stoppa play", channel=channel,
                              cards=" ".join(map(str, play.cards)))
    assert "✓" in reply.text or reply.text, reply.text


async def test_two_tables_in_one_channel_are_played_at_once(h: Harness) -> None:
    _thread_table(h)
    anna, bruno = h.member("Anna"), h.member("Bruno")
    boss = h.member("Boss", manage_guild=True)
    threads = []
    for member in (anna, bruno):
        await h.slash(member, "stoppa new")
        thread_id = int(h.threads()[-1]["id"])
        threads.append(thread_id)
        for _ in range(2):
            await h.slash(member, "stoppa addbot", channel=thread_id)
        await h.slash(member, "stoppa start", channel=thread_id)
    assert threads[0] != threads[1]
    assert len(h.messages()) == 2  # the two short messages, nothing else, in the channel
    tables = [_table_in(h, c) for c in threads]
    assert tables[0].table_id != tables[1].table_id
    assert all(s.status == "playing" for s in tables)
    humans = dict(zip(threads, (anna, bruno), strict=True))
    # interleaved: a turn here, a turn there, until both tables dealt their second hand
    for _ in range(400):
        states = [_table_in(h, c) for c in threads]
        if all(s.hand_no >= 2 for s in states):
            break
        for channel, state in zip(threads, states, strict=True):
            if state.to_act == humans[channel].id:
                await _turn(h, humans[channel], channel)
        await h.bot.tables.wait_idle()  # type: ignore[union-attr]
        await h.settle()
    states = [_table_in(h, c) for c in threads]
    assert all(s.hand_no >= 2 for s in states), [s.hand_no for s in states]
    # each table's message stays in its own thread
    for channel in threads:
        assert len(h.messages(channel)) >= 1
    for channel in threads:
        await h.slash(boss, "stoppa end", channel=channel)
        assert h.fake.channels[channel]["thread_metadata"]["archived"] is True
    assert await h.store.audit() == []
    balances, escrow, minted = await h.store.total_chips(h.guild_id)
    assert escrow == 0 and balances == minted


async def test_tables_lists_the_open_tables_of_the_server(h: Harness) -> None:
    _thread_table(h)
    anna, bruno, carla = h.member("Anna"), h.member("Bruno"), h.member("Carla", locale="it")
    empty = await h.slash(carla, "stoppa tables")
    assert empty.ephemeral and empty.text == t("living.list.none", "it")
    await h.slash(anna, "stoppa new")
    await h.slash(bruno, "stoppa new", channel="stoppa-2")
    listed = await h.slash(carla, "stoppa tables", channel="general")
    assert listed.ephemeral
    thread_id = int(h.threads()[0]["id"])
    assert t("living.list.title", "it") in listed.text
    ante = _table_in(h, thread_id).stakes.ante
    for where in (f"<#{thread_id}>", f"<#{h.channels['stoppa-2']}>"):
        line = t("living.list.line", "it", where=where, seated=1, free=5, ante=ante,
                 status=t("living.list.lobby", "it"))
        assert line in listed.text


async def _sit_anna_out(h: Harness, clock: FakeClock, anna: FakeMember,
                        bruno: FakeMember, *, panels: list[FakeMessage] | None = None
                        ) -> TableState:
    """Anna, Bruno and two CPU players; Anna lets her clock run out until she is sat out
    (two timeouts in a row), Bruno plays his turns. `panels`: where to put Anna's live panel
    (the answer to her `/stoppa start`, which follows the hand while she walks away)."""
    await h.slash(anna, "stoppa new")
    await h.slash(bruno, "stoppa join")
    for _ in range(2):
        await h.slash(anna, "stoppa addbot")
    started = await h.slash(anna, "stoppa start")
    if panels is not None:
        assert started.message is not None and started.message.ephemeral
        panels.append(started.message)
    timeouts = 0
    for _ in range(200):
        state = _table_in(h, h.channel_id)
        if state.seat_of(anna.id).away:  # type: ignore[union-attr]
            assert timeouts == 2
            return state
        if state.to_act == anna.id:
            await clock.advance(61.0)
            await h.settle()
            timeouts += 1
        else:
            assert state.to_act == bruno.id
            await _turn(h, bruno, h.channel_id)
        await h.bot.tables.wait_idle()  # type: ignore[union-attr]
        await h.settle()
    raise AssertionError("Anna was never sat out")


async def test_a_sat_out_player_is_passed_marked_and_back_by_button(tmp_path: Path) -> None:
    clock = FakeClock()
    async with Harness.create(tmp_path, seed=7, table_options=TableOptions(clock=clock)) as h:
        anna, bruno = h.member("Anna"), h.member("Bruno")
        state = await _sit_anna_out(h, clock, anna, bruno)
        assert state.to_act != anna.id  # her turns are passed for her: nobody waits
        message = _table_message(h)
        assert t("living.sat_out", "en", player="Anna", count=2) in message.text
        assert t("living.away_mark", "en") in message.text  # the embed's seat line
        assert message.attachments and message.attachments[-1].is_png
        Path(tmp_path / "sat_out.png").write_bytes(message.attachments[-1].data)
        # Bruno plays on; whenever it would be Anna's turn it is passed at once
        sat_out_in = state.hand_no
        for _ in range(60):  # to the end of the hand she was sat out in: she stays seated
            state = _table_in(h, h.channel_id)
            assert state.to_act != anna.id
            if state.hand_no != sat_out_in or state.to_act != bruno.id:
                break
            await _turn(h, bruno, h.channel_id)
        assert state.hand_no == sat_out_in + 1
        assert state.seat_of(anna.id).away  # type: ignore[union-attr]
        message = _table_message(h)
        # in a hand, "I'm back" is in her own panel, not on the table message (issue 36)
        assert not any(i.endswith(":back") for i in message.custom_ids())
        back = f"stoppa:{state.table_id}:back"  # as on a table message of before the change
        # a stranger's press is refused politely and changes nothing
        stranger = await h.click(h.member("Zeno"), message.id, back)
        assert stranger.ephemeral and stranger.text == t("living.not_away", "en")
        assert _table_in(h, h.channel_id).seat_of(anna.id).away  # type: ignore[union-attr]
        pressed = await h.click(anna, message.id, back)
        assert pressed.ephemeral and pressed.text == t("living.back_reply", "en")
        state = _table_in(h, h.channel_id)
        assert not state.seat_of(anna.id).away  # type: ignore[union-attr]
        assert not any(i.endswith(":back") for i in h.message(message.id).custom_ids())


async def test_a_sat_out_player_comes_back_from_her_live_panel(tmp_path: Path) -> None:
    clock = FakeClock()
    async with Harness.create(tmp_path, seed=7, table_options=TableOptions(clock=clock)) as h:
        anna, bruno = h.member("Anna"), h.member("Bruno")
        panels: list[FakeMessage] = []
        await _sit_anna_out(h, clock, anna, bruno, panels=panels)
        panel = h.message(panels[0].id)
        # her panel followed her being sat out: it offers I'm back (and Leave), nothing else
        kinds = [i.split(":")[2] for i in panel.custom_ids()]
        assert "back" in kinds and "leave" in kinds
        back = next(i for i in panel.custom_ids() if i.endswith(":back"))
        pressed = await h.click(anna, panel.id, back)
        assert pressed.type == 6 and pressed.messages == [panel]  # answered in the panel
        assert t("living.back_reply", "en") in panel.text
        assert not _table_in(h, h.channel_id).seat_of(anna.id).away  # type: ignore[union-attr]
        assert not any(i.endswith(":back") for i in panel.custom_ids())
        leave = next(i for i in panel.custom_ids() if i.endswith(":leave"))
        left = await h.click(anna, panel.id, leave)
        assert left.type == 6 and left.messages == [panel]
        assert t("table.reply.leaving", "en") in panel.text
        seat = _table_in(h, h.channel_id).seat_of(anna.id)
        assert seat is not None and seat.status == "leaving"


async def test_any_table_command_brings_a_sat_out_player_back(tmp_path: Path) -> None:
    clock = FakeClock()
    async with Harness.create(tmp_path, seed=7, table_options=TableOptions(clock=clock)) as h:
        anna, bruno = h.member("Anna", locale="it"), h.member("Bruno")
        await _sit_anna_out(h, clock, anna, bruno)
        status = await h.slash(anna, "stoppa status")
        assert status.ephemeral and status.files and status.files[0].is_png
        assert not _table_in(h, h.channel_id).seat_of(anna.id).away  # type: ignore[union-attr]
        # the table message says she is back, in the language of its opener, Anna: Italian
        message = _table_message(h)
        assert t("living.back", "it", player="Anna") in message.text


async def test_a_sat_out_player_stays_sat_out_after_a_restart(tmp_path: Path) -> None:
    clock = FakeClock()
    async with Harness.create(tmp_path, seed=7, table_options=TableOptions(clock=clock)) as h:
        anna, bruno = h.member("Anna"), h.member("Bruno")
        await _sit_anna_out(h, clock, anna, bruno)
        message = _table_message(h)
        back = f"stoppa:{_table_in(h, h.channel_id).table_id}:back"  # an old message's button
        await h.restart()
        state = _table_in(h, h.channel_id)
        assert state.seat_of(anna.id).away  # type: ignore[union-attr]
        assert state.to_act != anna.id
        # the button of the message sent before the restart still works
        pressed = await h.click(anna, message.id, back)
        assert pressed.ephemeral and pressed.text == t("living.back_reply", "en")
        assert not _table_in(h, h.channel_id).seat_of(anna.id).away  # type: ignore[union-attr]
