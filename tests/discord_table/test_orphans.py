"""Clicks and submits that discord.py hands to no component still get an answer (issue 7:
"nothing is left as 'This interaction failed'").

discord.py drops a click whose button is no longer among the components of the message as the
interaction carries it (an older version of the edited table message, a button of a previous
phase, a closed panel), and a modal submit once the Modal object is gone (a restart). The bot
parses the custom id itself (`TableCog.handle_orphan`) or answers "out of date"; it never answers
twice.
"""

from __future__ import annotations

from pathlib import Path

from bot.i18n import t
from tests.discord_table.driver import TableDriver
from tests.discord_table.test_game import open_table
from tests.discord_table.test_refusals import old_turn_ids, turn_button
from tests.harness import FakeMember, Harness, Reply


def answered_once(reply: Reply) -> bool:
    """The interaction got exactly one callback (a second one would be Discord's 40060)."""
    return sum(1 for c in reply.calls if c.callback_type is not None) == 1


async def open_modal(h: Harness, driver: TableDriver) -> tuple[FakeMember, Reply]:
    """The player to act opens the bet modal: Bet/Raise -> private panel -> Other amount."""
    state = driver.state()
    assert state is not None and state.to_act is not None
    actor = driver.member(state.to_act)
    message = driver.table_message()
    raise_id = turn_button(old_turn_ids(h), "raise")  # a table message of before issue 36
    panel = await h.click(actor, message.id, raise_id)
    other = next(i for i in panel.message.custom_ids() if ":other:" in i)
    opened = await h.click(actor, panel.message.id, other)
    assert opened.type == 9 and opened.modal is not None
    return actor, opened


async def test_a_button_of_an_older_message_version_is_answered(h: Harness) -> None:
    members = [h.member(name) for name in ("Anna", "Bruno", "Carla")]
    await h.slash(members[0], "stoppa new")
    lobby = TableDriver(h, members).table_message()
    start_id = next(i for i in lobby.custom_ids() if i.endswith(":start"))
    for member in members[1:]:
        await h.slash(member, "stoppa join")
    await h.slash(members[0], "stoppa start")
    # the table message was edited: its Start button is gone, a client may still show it
    assert start_id not in h.message(lobby.id).custom_ids()
    late = await h.click(members[1], lobby.id, start_id)
    assert late.responded and answered_once(late) and late.ephemeral
    assert late.text == t("tables.errors.already_started", "en")


async def test_a_turn_button_of_a_previous_phase_opens_the_players_live_panel(
    h: Harness,
) -> None:
    """Issue 36: a stale turn button of an old table message is not a refusal plus another
    message: its answer is the player's live panel, current from then on."""
    members = [h.member(name) for name in ("Anna", "Bruno", "Carla")]
    await open_table(h, members)
    driver = TableDriver(h, members, seed=6)
    first = driver.state()
    assert first is not None and first.to_act is not None
    actor = driver.member(first.to_act)
    old_pass = turn_button(old_turn_ids(h), "pass")
    await driver.play_turn("buttons")
    while (now := driver.state()) is not None and now.to_act != actor.id:
        await driver.play_turn("mixed")
    assert now is not None and (now.hand_no, now.turn) != (first.hand_no, first.turn)
    message = driver.table_message()
    assert old_pass not in h.message(message.id).custom_ids()

    stale = await h.click(actor, message.id, old_pass)
    assert stale.responded and answered_once(stale) and stale.ephemeral
    assert len(stale.messages) == 1 and stale.message is not None
    assert t("tables.errors.stale_button", "en") not in stale.text
    assert stale.text.startswith(f"**{t('table.hand.title', 'en', hand_no=now.hand_no)}")
    assert t("table.hand.moved_on", "en") in stale.text
    live = h.bot.get_cog("TableCog").panels.panel(now.table_id, actor.id)  # type: ignore[union-attr]
    assert live is not None and live.message_id == stale.message.id  # the current panel
    fresh = stale.message.custom_ids()
    assert fresh and all(i.split(":")[3:5] == [str(now.hand_no), str(now.turn)]
                         for i in fresh if i.count(":") >= 4)
    assert driver.state() == now  # nothing changed

    # the fresh panel plays
    if any(i.split(":")[2] == "pass" for i in fresh):
        played = await h.click(actor, stale.message.id, turn_button(fresh, "pass"))
        assert played.type == 6
        after = driver.state()
        assert after is None or (after.hand_no, after.turn) != (now.hand_no, now.turn)


async def test_a_closed_panel_and_an_unknown_custom_id_are_answered(h: Harness) -> None:
    members = [h.member(name) for name in ("Anna", "Bruno", "Carla")]
    await open_table(h, members)
    driver = TableDriver(h, members)
    state = driver.state()
    assert state is not None and state.to_act is not None
    actor = driver.member(state.to_act)
    panel = await h.slash(actor, "stoppa hand")
    pass_id = turn_button(panel.message.custom_ids(), "pass")
    done = await h.click(actor, panel.message.id, pass_id)
    # not their turn any more: the panel keeps only Leave (issue 36: it follows the table)
    assert done.type == 6 and [i.split(":")[2] for i in panel.message.custom_ids()] == ["leave"]
    # a second click on the old move (a client that did not refresh yet): the panel is shown
    # again, current; no refusal and no other message (issue 36)
    before = driver.state()
    again = await h.click(actor, panel.message.id, pass_id)
    assert again.responded and answered_once(again) and again.type == 6
    assert again.messages == [panel.message] and driver.state() == before

    # a custom id of ours that no version of the bot knows: "out of date"
    message = driver.table_message()
    unknown = await h.click(actor, message.id, "stoppa:legacy:thing")
    assert unknown.ephemeral and answered_once(unknown)
    assert unknown.text == t("errors.button_out_of_date", "en")
    # a component that is not ours is left alone (another bot/app's business)
    foreign = await h.click(actor, message.id, "someone-else:1")
    assert not foreign.responded


async def test_the_bet_modal_still_works_after_a_restart(tmp_path: Path) -> None:
    async with Harness.create(tmp_path, seed=7) as h:
        members = [h.member(name, locale="it") for name in ("Anna", "Bruno", "Carla")]
        await open_table(h, members)
        driver = TableDriver(h, members)
        actor, opened = await open_modal(h, driver)
        modal_id = opened.modal["custom_id"]  # type: ignore[index]
        low, high = driver.hand_info(actor).bet_range
        amount = min(high, low + 10)
        before = driver.state()
        assert before is not None

        await h.restart()  # the Modal object is gone; Discord still shows the modal

        bad = await h.submit_modal(actor, modal_id, {"amount": "molto"}, opened_by=opened)
        # refused in the panel it came from, updated in place (issue 36)
        assert bad.type == 6 and answered_once(bad) and len(bad.messages) == 1
        assert t("table.refuse.bad_amount", "it", min=low, max=high) in bad.messages[0].text
        assert driver.state() == before
        done = await h.submit_modal(actor, modal_id, {"amount": str(amount)}, opened_by=opened)
        assert done.type == 6 and answered_once(done)
        after = driver.state()
        assert after is not None and after.betting is not None
        assert after.betting.level == amount and after.turn == before.turn + 1
        # the same modal submitted again (a double submit): nothing changes, and the panel it
        # came from is shown again, current (issue 36: never a refusal plus another message)
        twice = await h.submit_modal(actor, modal_id, {"amount": str(amount)}, opened_by=opened)
        assert twice.type == 6 and answered_once(twice)
        assert not any(m.ephemeral and m.id != done.message.id  # type: ignore[union-attr]
                       for m in twice.messages)
        assert driver.state() == after
        assert await h.store.audit() == []


async def test_every_click_of_a_game_is_answered_exactly_once(h: Harness) -> None:
    members = [h.member(name) for name in ("Anna", "Bruno", "Carla")]
    await open_table(h, members)
    await h.slash(members[0], "stoppa round")
    driver = TableDriver(h, members, seed=12)
    await driver.play_until_closed("buttons")
    tokens = {c.token for c in h.calls if c.token}
    assert len(tokens) > 20
    for token in tokens:
        callbacks = [c for c in h.calls if c.token == token and c.callback_type is not None]
        assert len(callbacks) == 1, token


async def test_a_custom_id_acts_only_on_the_table_of_its_own_channel(h: Harness) -> None:
    anna, bruno = h.member("Anna"), h.member("Bruno")
    await h.slash(anna, "stoppa new")
    first = h.bot.tables.state(h.channel_id)
    await h.slash(bruno, "stoppa new", channel="stoppa-2")
    (other,) = h.messages("stoppa-2")
    # a click in #stoppa-2 carrying the custom id of #stoppa's table
    crossed = await h.click(bruno, other.id, f"stoppa:{first.table_id}:join")
    assert crossed.ephemeral and crossed.text == t("tables.errors.no_table", "en")
    assert h.bot.tables.state(h.channel_id) == first


async def test_a_live_click_whose_handler_first_waits_long_is_answered_once_by_it(
    h: Harness,
) -> None:
    """Issue 28: the "nobody took it" answer does not depend on how soon the handler reaches
    its first await: with a slow store (every handler first reads the member's language from
    it) each live click is answered once, by its handler, never as out of date."""
    members = [h.member(name) for name in ("Anna", "Bruno", "Carla")]
    await open_table(h, members)
    driver = TableDriver(h, members, seed=3)
    state = driver.state()
    assert state is not None and state.to_act is not None
    message = driver.table_message()
    h.slow_store(4.0)
    stranger = await h.click(h.member("Zeno"), message.id,
                             next(i for i in message.custom_ids() if i.endswith(":hand")))
    actor = driver.member(state.to_act)
    opened = await h.click(actor, message.id, turn_button(old_turn_ids(h), "raise"))
    for reply in (stranger, opened):
        assert reply.responded and answered_once(reply), reply.calls
        assert t("errors.button_out_of_date", "en") not in reply.text
    assert stranger.ephemeral and stranger.text == t("tables.errors.not_in_hand", "en")
    assert opened.ephemeral and opened.message is not None and opened.message.custom_ids()
