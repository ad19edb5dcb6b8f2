"""Where an interaction may act, and how a refusal is said (issue 25).

- a component acts only on the message it belongs to: pressed with another message it edits
  nothing and gets a fresh private answer;
- a refusal is private, even when the answer would have been public (a shared replay);
- in a DM every server command says so politely;
- a busy database is "busy, try again" and a WARNING, not an apology and an ERROR.

Each test failed before its fix."""

from __future__ import annotations

import logging

import pytest

from bot.i18n import t
from tests.discord_input.conftest import (
    a_replay,
    dispatch,
    errors_in,
    finished_hands,
    in_dm,
    press_on,
    three_at_a_table,
    three_players,
    write_lock_held,
)
from tests.discord_table.test_game import open_table
from tests.harness import Harness


async def test_a_history_page_button_never_replaces_the_table_message(
    h: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    anna = h.member("Anna")
    await finished_hands(h, [anna.id, -1, -2, -3], 7)
    await h.slash(anna, "stoppa new")
    table = h.messages()[-1]
    pressed = await press_on(h, anna, table, f"stoppa:history:page:{anna.id}:2")
    assert pressed.ephemeral and pressed.message is not None
    assert pressed.message.id != table.id
    assert t("history.footer", "en", page=2, pages=2) in pressed.text  # a fresh page
    assert errors_in(caplog) == []


async def test_a_history_page_button_turns_its_own_page(h: Harness) -> None:
    anna = h.member("Anna")
    await finished_hands(h, [anna.id, -1, -2, -3], 7)
    first = await h.slash(anna, "stoppa history")
    assert first.message is not None
    turned = await h.click(anna, first.message.id, f"stoppa:history:page:{anna.id}:2")
    assert turned.type == 6  # the same message, edited
    assert t("history.footer", "en", page=2, pages=2) in str(h.message(first.message.id).embeds)


async def test_a_tournament_button_never_replaces_another_message(
    h: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    boss = h.member("Boss", manage_guild=True)
    opened = await h.slash(boss, "tournament new", buy_in=0, seats=3)
    registration = opened.message
    assert registration is not None and not registration.ephemeral
    number = next(i for i in registration.custom_ids() if i.startswith("stoppa:tour:")
                  ).split(":")[2]
    await h.slash(boss, "stoppa new", channel="stoppa-2")
    table = h.messages("stoppa-2")[-1]
    pressed = await press_on(h, h.member("Anna"), table, f"stoppa:tour:{number}:join")
    assert pressed.ephemeral and pressed.responded
    assert errors_in(caplog) == []


async def test_sharing_a_replay_of_a_hand_not_here_is_refused_privately(
    h: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    anna = h.member("Anna")
    hand, replay = await a_replay(h, anna)
    public = len(h.messages())
    missing = hand + 1000
    by_button = await h.click(anna, replay.id, f"stoppa:history:share:{missing}")
    by_command = await h.slash(anna, "stoppa replay", hand=missing, share=True)
    for refused in (by_button, by_command):
        assert refused.ephemeral
        assert refused.text == t("history.errors.no_hand", "en", id=missing)
    assert len(h.messages()) == public
    shared = await h.click(anna, replay.id, f"stoppa:history:share:{hand}")
    assert not shared.ephemeral and shared.files  # a hand of this server is still shared
    assert errors_in(caplog) == []


async def test_a_slow_look_up_keeps_a_refusal_private_and_still_shares(h: Harness) -> None:
    anna = h.member("Anna")
    ids = await finished_hands(h, [anna.id, -1, -2, -3], 1)
    h.slow_store(1.0)  # the look-up outlasts the defer delay: a private "thinking" first
    refused = await h.slash(anna, "stoppa replay", hand=ids[0] + 1000, share=True)
    assert refused.ephemeral
    public = len(h.messages())
    shared = await h.slash(anna, "stoppa replay", hand=ids[0], share=True)
    assert [m.content for m in shared.messages if m.ephemeral] == [
        t("input_context.posted", "en")]
    assert len(h.messages()) == public + 1 and h.messages()[-1].files


@pytest.mark.parametrize("command", ["pings", "balance", "stoppa new", "tournament status",
                                     "settings show", "stoppa history"])
async def test_every_server_command_in_a_dm_says_it_works_in_a_server(
    h: Harness, caplog: pytest.LogCaptureFixture, command: str
) -> None:
    anna = h.member("Anna", locale="it")
    options = {"state": "off"} if command == "pings" else {}
    answered = await dispatch(h, in_dm(h, anna, h.slash_payload(anna, command, **options)))
    assert answered.ephemeral
    assert answered.text == t("errors.guild_only", "it")
    assert errors_in(caplog) == []


async def test_a_busy_database_says_try_again_with_a_warning(
    quick_busy: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    h = quick_busy
    anna = h.member("Anna", locale="it")
    await h.slash(anna, "balance")  # known to the store before the lock is taken
    with write_lock_held(h), caplog.at_level(logging.INFO):
        busy = await h.slash(anna, "daily")
    assert busy.ephemeral
    assert busy.text == t("input_context.busy", "it")
    assert errors_in(caplog) == []
    assert any(r.levelno == logging.WARNING and "busy" in r.getMessage()
               for r in caplog.records)
    claimed = await h.slash(anna, "daily")  # the lock is gone: it works again
    assert claimed.ephemeral and claimed.text != busy.text


async def test_a_refusal_after_a_slow_check_is_private_for_every_public_answer(
    h: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """Every command whose answer is public (a gift, a grant, a board, a season, a
    tournament) deferred publicly when its store look-up was slow, so a refusal found by the
    look-up edited a public "thinking" message. Now nothing is public before the checks."""
    boss, bob = h.member("Boss", manage_guild=True), h.member("Bob")
    await h.slash(bob, "balance")
    await h.slash(boss, "balance")
    h.slow_store(1.0)  # every look-up outlasts the defer delay
    public = len(h.messages()) + len(h.messages("general"))
    refusals = [
        await h.slash(bob, "give", member=boss, amount=999_999),
        await h.slash(boss, "chips grant", member=bob, amount=-999_999, reason="x"),
        await h.slash(bob, "leaderboard", page=99),
        await h.slash(bob, "leaderboard", by="rating", page=99),
        await h.slash(bob, "tournament new", buy_in=0, seats=3),
    ]
    for refused in refusals:
        assert refused.responded and refused.ephemeral, refused.text
        assert all(m.ephemeral for m in refused.messages), refused.text
    assert len(h.messages()) + len(h.messages("general")) == public
    assert errors_in(caplog) == []


async def test_a_table_button_sent_with_another_message_edits_only_its_own(
    h: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """A turn button's custom id sent with a member's private history message: the move is
    played (it is theirs to play), but the history message stays as it was and the answer
    is a fresh private message."""
    members = three_players(h)
    await finished_hands(h, [m.id for m in members] + [-1], 7)
    await open_table(h, members)
    state = h.bot.tables.state(h.channel_id)
    assert state is not None and state.to_act is not None
    actor = next(m for m in members if m.id == state.to_act)
    history = await h.slash(actor, "stoppa history")
    assert history.message is not None
    played = await press_on(h, actor, history.message,
                            f"stoppa:{state.table_id}:pass:{state.hand_no}:{state.turn}")
    assert played.ephemeral and played.message is not None
    assert played.message.id != history.message.id
    after = h.bot.tables.state(h.channel_id)
    assert after is not None and after.turn == state.turn + 1
    assert errors_in(caplog) == []


async def test_a_busy_database_during_a_move_says_try_again_and_keeps_the_hand(
    quick_busy: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    h = quick_busy
    members = await three_at_a_table(h, locale="it")
    before = h.bot.tables.state(h.channel_id)
    assert before is not None and before.to_act is not None
    actor = next(m for m in members if m.id == before.to_act)
    with write_lock_held(h):
        busy = await h.slash(actor, "stoppa pass")
    assert busy.ephemeral and busy.text == t("input_context.busy", "it")
    assert errors_in(caplog) == []
    assert h.bot.tables.state(h.channel_id) == before  # rebuilt from the store
    passed = await h.slash(actor, "stoppa pass")
    assert passed.ephemeral and passed.text != busy.text
    after = h.bot.tables.state(h.channel_id)
    assert after is not None and after.turn == before.turn + 1
