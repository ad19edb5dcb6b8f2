"""Refusals at the table: strangers, out of turn, managers only, stale and doubled clicks.

Every refusal is a short ephemeral message in the user's language, and changes nothing.
"""

from __future__ import annotations

import pytest

from bot.i18n import t
from tests.discord_table.conftest import publisher
from tests.discord_table.driver import TableDriver
from tests.discord_table.test_game import START, open_table
from tests.harness import FakeMember, Harness


def turn_button(message_ids: list[str], kind: str) -> str:
    """The custom id of a turn-bound button of this kind."""
    return next(i for i in message_ids if i.split(":")[2] == kind and i.count(":") >= 4)


def old_turn_ids(h: Harness) -> list[str]:
    """The turn buttons a table message showed before issue 36 (Pass, Call, Bet / Raise,
    Declare, Play, bound to the turn now): a message posted before the change still carries
    them, and a click on one is handled as it always was."""
    state = h.bot.tables.state(h.channel_id)  # type: ignore[union-attr]
    assert state is not None
    return [f"stoppa:{state.table_id}:{kind}:{state.hand_no}:{state.turn}"
            for kind in ("pass", "call", "raise", "declare", "play")]


@pytest.fixture
def players(h: Harness) -> list[FakeMember]:
    """Three members, one of them Italian."""
    return [h.member("Anna"), h.member("Bruno", locale="it"), h.member("Carla")]


async def test_stranger_and_out_of_turn_clicks_are_refused(
    h: Harness, players: list[FakeMember]
) -> None:
    await open_table(h, players)
    driver = TableDriver(h, players)
    state = driver.state()
    assert state is not None and state.to_act is not None
    message = driver.table_message()
    pass_id = turn_button(old_turn_ids(h), "pass")

    stranger = h.member("Zeno")
    refused = await h.click(stranger, message.id, pass_id)
    assert refused.ephemeral and refused.text == t("table.refuse.not_at_table", "en")
    cards = await h.click(stranger, message.id, f"stoppa:{state.table_id}:hand")
    assert cards.ephemeral and cards.text == t("tables.errors.not_in_hand", "en")
    assert not cards.files

    waiting = next(m for m in players if m.id != state.to_act)
    out_of_turn = await h.click(waiting, message.id, pass_id)
    lang = "it" if waiting.locale == "it" else "en"
    expected = t("tables.errors.not_your_turn", lang, player=f"<@{state.to_act}>")
    assert out_of_turn.ephemeral and out_of_turn.text == expected
    by_command = await h.slash(waiting, "stoppa bet", amount=10)
    assert by_command.ephemeral and by_command.text == expected

    after = driver.state()
    assert after is not None and (after.hand_no, after.turn) == (state.hand_no, state.turn)


async def test_end_is_for_managers_and_refunds_the_hand(
    h: Harness, players: list[FakeMember]
) -> None:
    await open_table(h, players)
    ordinary = await h.slash(players[0], "stoppa end")
    assert ordinary.ephemeral and ordinary.text == t("errors.need_manage_guild", "en")
    assert h.bot.tables.state(h.channel_id) is not None

    boss = h.member("Boss", manage_guild=True)
    ended = await h.slash(boss, "stoppa end")
    assert ended.ephemeral and ended.text == t("table.reply.ended", "en")
    assert h.bot.tables.state(h.channel_id) is None
    balances = await h.store.balances(h.guild_id, [m.id for m in players])
    assert set(balances.values()) == {START}  # the antes of the hand went back
    assert await h.store.audit() == []


async def test_stale_button_of_an_old_hand_shows_that_panel_again_current(
    h: Harness, players: list[FakeMember]
) -> None:
    """Issue 36: a click on an old panel is never a refusal plus another message; the panel
    it was pressed in is updated in place and follows the table again (nothing is played)."""
    await open_table(h, players)
    driver = TableDriver(h, players, seed=5)
    state = driver.state()
    assert state is not None and state.to_act is not None
    member = driver.member(state.to_act)
    panel = await h.slash(member, "stoppa hand")  # a private panel of hand 1
    old = turn_button(panel.message.custom_ids(), "pass")
    while (now := driver.state()) is not None and now.hand_no == 1:
        await driver.play_turn("buttons")
    before = driver.state()
    again = await h.click(member, panel.message.id, old)
    assert again.type == 6 and again.messages == [panel.message]  # no other message
    assert old not in panel.message.custom_ids()
    assert before is not None and f"{before.hand_no}" in panel.message.text.splitlines()[0]
    assert driver.state() == before


async def test_double_click_is_refused_by_the_tokens(
    h: Harness, players: list[FakeMember]
) -> None:
    await open_table(h, players)
    driver = TableDriver(h, players)

    # a double click on the public message before its (throttled) edit is refused
    publisher(h).interval = 30.0
    state = driver.state()
    assert state is not None and state.to_act is not None
    opener = driver.member(state.to_act)
    await h.slash(opener, "stoppa pass")  # published at once; the next edit waits 30 s
    now = driver.state()
    assert now is not None and now.to_act is not None and now.turn == state.turn + 1
    message = driver.table_message()
    actor = driver.member(now.to_act)
    pass_id = turn_button(old_turn_ids(h), "pass")
    assert pass_id.endswith(f":{now.hand_no}:{now.turn}")
    first_click = await h.click(actor, message.id, pass_id)
    assert first_click.type == 6 and not any(m.ephemeral for m in first_click.messages)
    later = driver.state()
    assert later is not None and later.turn > now.turn
    assert message.custom_ids() == h.message(message.id).custom_ids()  # not edited yet
    second_click = await h.click(actor, message.id, pass_id)
    lang = "it" if actor.locale == "it" else "en"
    # not a refusal: the player's live panel, current (issue 36)
    assert second_click.ephemeral and len(second_click.messages) == 1
    assert t("tables.errors.stale_button", lang) not in second_click.text
    assert t("table.hand.moved_on", lang) in second_click.text
    assert driver.state() == later

    # two private panels of one turn ("My cards" pressed twice): the second click plays
    # nothing and makes its panel the current one
    publisher(h).interval = 0.0
    while (now := driver.state()) is not None and now.phase not in ("small_point", "big_point"):
        await driver.play_turn("slash")
    assert now is not None and now.to_act is not None
    member = driver.member(now.to_act)
    lang = "it" if member.locale == "it" else "en"
    first = await h.slash(member, "stoppa hand")
    second = await h.slash(member, "stoppa hand")
    ids = first.message.custom_ids()
    assert ids and ids == second.message.custom_ids()
    pass_panel = turn_button(ids, "pass")
    done = await h.click(member, first.message.id, pass_panel)
    # not their turn any more: only Leave is left in the panel
    assert done.type == 6 and [i.split(":")[2] for i in first.message.custom_ids()] == ["leave"]
    assert t("table.done.pass", lang) in first.message.text
    after = driver.state()
    again = await h.click(member, second.message.id, pass_panel)
    assert again.type == 6 and again.messages == [second.message]
    assert pass_panel not in second.message.custom_ids()
    assert driver.state() == after
    assert await h.store.audit() == []


async def test_an_unexpected_error_is_logged_and_answered_politely(
    h: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    anna = h.member("Anna")
    await h.slash(anna, "stoppa new")
    message = TableDriver(h, [anna]).table_message()

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(h.bot.tables, "add_cpu", broken)
    reply = await h.click(anna, message.id, "stoppa:1:addcpu")
    assert reply.ephemeral
    assert reply.text.startswith(t("errors.unexpected", "en"))
    assert any(
        r.levelname == "ERROR" and r.exc_info and "disk on fire" in str(r.exc_info[1])
        for r in caplog.records
    )
