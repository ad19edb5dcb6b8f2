"""The `/stoppa` commands themselves: names, translations, lobby actions, autocomplete, and the
coalescing of the table message's edits."""

from __future__ import annotations

import asyncio

from bot.engine import Play
from bot.i18n import t
from tests.discord_table.conftest import section
from tests.discord_table.driver import TableDriver
from tests.discord_table.test_game import open_table
from tests.harness import Harness

SUBCOMMANDS = {
    "new", "join", "leave", "start", "addbot", "hand", "bet", "call", "raise", "pass",
    "declare", "play", "status", "round", "end", "kick",
}
#: subcommands that cogs.history adds to the group (issue 19), described in history.cmd.*
HISTORY_SUBCOMMANDS = {"history", "replay"}
#: subcommands of issue 20 (tables in threads, absent players), described in living.cmd.*
LIVING_SUBCOMMANDS = {"tables", "back"}


async def test_the_stoppa_group_has_its_fixed_names_and_italian_descriptions(h: Harness) -> None:
    synced = await h.sync_commands()
    group = next(c for c in synced if c["name"] == "stoppa")
    assert group["description_localizations"]["it"] == t("table.cmd.group", "it")
    assert group["dm_permission"] is False and group["contexts"] == [0]  # servers only
    subs = {o["name"]: o for o in group["options"]}
    assert set(subs) == SUBCOMMANDS | HISTORY_SUBCOMMANDS | LIVING_SUBCOMMANDS
    for name, sub in subs.items():
        area = ("history" if name in HISTORY_SUBCOMMANDS
                else "living" if name in LIVING_SUBCOMMANDS else "table")
        key = f"{area}.cmd.{name}"
        assert sub["description"] == t(key, "en")
        assert sub["description_localizations"]["it"] == t(key, "it")
    level = subs["addbot"]["options"][0]
    assert {c["value"] for c in level["choices"]} == {"easy", "hard", "expert", "random"}
    assert all(c["name_localizations"]["it"] for c in level["choices"])


async def test_lobby_join_leave_status_and_messages(h: Harness) -> None:
    anna, bruno = h.member("Anna"), h.member("Bruno", locale="it")
    await h.slash(anna, "stoppa new")
    again = await h.slash(bruno, "stoppa new")
    assert again.ephemeral and again.text == t("tables.errors.table_exists", "it")
    (message,) = h.messages()
    assert message.custom_ids() == ["stoppa:1:join", "stoppa:1:leave", "stoppa:1:start",
                                    "stoppa:1:addcpu"]
    joined = await h.click(bruno, message.id, "stoppa:1:join")
    # the answer to Join is his live panel: what he did, and where his cards will show
    assert joined.ephemeral and joined.message is not None and joined.message.v2
    assert joined.text.split("\n") == [t("table.reply.joined", "it"),
                                        t("table.hand.between", "it")]
    assert [i.split(":")[2] for i in joined.message.custom_ids()] == ["leave"]
    assert "Bruno" in h.message(message.id).text
    early = await h.click(bruno, message.id, "stoppa:1:start")
    assert early.ephemeral
    assert early.text == t("tables.errors.not_enough_players", "it", need=3, have=2)
    status = await h.slash(anna, "stoppa status")
    assert status.ephemeral and status.files[0].is_png
    shown = status.message
    assert shown is not None and not shown.custom_ids()  # the buttons stay on the table
    assert shown.text_displays()[0].startswith("## " + t("table.embed.title", "en", number=1))
    assert shown.media_urls() == ["attachment://table.png"]
    left = await h.click(bruno, message.id, "stoppa:1:leave")
    assert left.ephemeral and left.text == t("table.reply.left", "it")
    assert "Bruno" not in (section(h.message(message.id), t("table.embed.players", "en")) or "-")

    # somebody deleted the table message: the next change posts a new one and records it
    h.message(message.id).deleted = True
    await h.slash(bruno, "stoppa join")
    (fresh,) = h.messages()
    assert fresh.id != message.id and "Bruno" in fresh.text
    state = h.bot.tables.state(h.channel_id)
    assert state is not None and state.message_id == fresh.id


async def test_status_shows_the_table_messages_image(h: Harness) -> None:
    """`/stoppa status` draws the table as the table message does: without the turn marker,
    the seats' bets and the bet to match, which its text says (issue 36)."""
    members = [h.member("Anna"), h.member("Bruno"), h.member("Carla", locale="it")]
    await open_table(h, members)
    driver = TableDriver(h, members)
    state = driver.state()
    assert state is not None and state.to_act is not None
    first = driver.member(state.to_act)
    low = driver.hand_info(first).bet_range[0]  # type: ignore[index]
    await h.slash(first, "stoppa bet", amount=low)  # a bet out, the next player to act
    await h.settle()
    message = driver.table_message()
    for member in members:
        status = await h.slash(member, "stoppa status")
        lang = "it" if member.locale == "it" else "en"
        shown = status.message
        assert status.ephemeral and shown is not None and not shown.custom_ids()
        assert shown.text_displays()[0].startswith(
            "## " + t("table.embed.title", lang, number=state.table_id))
        assert shown.media_urls() == ["attachment://table.png"]
        (image,) = status.files
        if lang == "en":  # the table's language: the very image of the table message
            assert image.data == message.attachments[-1].data
        else:
            assert image.is_png and image.data != message.attachments[-1].data


async def test_play_autocomplete_offers_the_legal_openings(h: Harness) -> None:
    members = [h.member(name) for name in ("Anna", "Bruno", "Carla")]
    await open_table(h, members)
    driver = TableDriver(h, members, seed=8)
    for _ in range(300):
        state = driver.state()
        assert state is not None
        if state.phase == "stoppa" and state.to_act is not None:
            break
        await driver.play_turn("slash")
    member = driver.member(state.to_act)
    legal = [a for a in driver.hand_info(member).actions if isinstance(a, Play)]
    offered = await h.autocomplete(member, "stoppa play", "cards", cards="")
    assert [c["value"] for c in offered.choices] == [
        " ".join(map(str, a.cards)) for a in legal
    ]
    other = next(m for m in members if m.id != member.id)
    assert (await h.autocomplete(other, "stoppa play", "cards", cards="")).choices == []
    bad = await h.slash(member, "stoppa play", cards="zz")
    assert bad.ephemeral and bad.text == t("input.bad_cards", "en", text="`zz`")
    played = await h.slash(member, "stoppa play", cards=offered.choices[0]["value"])
    assert played.ephemeral
    assert played.text == t("table.done.play", "en", cards=offered.choices[0]["value"])


async def test_edits_of_a_busy_table_are_coalesced(h: Harness) -> None:
    members = [h.member(name) for name in ("Anna", "Bruno", "Carla")]
    await open_table(h, members)
    cog = h.bot.get_cog("TableCog")
    state = h.bot.tables.state(h.channel_id)
    message = TableDriver(h, members).table_message()
    edits = message.edits
    cog.publisher.interval = 0.2
    cog.publisher.refresh(state)  # published at once
    for _ in range(300):
        await asyncio.sleep(0.01)
        if h.message(message.id).edits > edits:
            break
    assert h.message(message.id).edits == edits + 1
    for _ in range(9):  # nine more changes in a burst, while the worker waits
        cog.publisher.refresh(state)
    await h.settle()
    assert h.message(message.id).edits == edits + 2  # one edit for the nine


async def test_bet_modal_declare_best_and_turn_ping(h: Harness) -> None:
    h.bot.get_cog("TableCog").publisher.ping_share = 0  # at once (test_pings: the delay)
    members = [h.member(name) for name in ("Anna", "Bruno", "Carla")]
    await open_table(h, members)
    driver = TableDriver(h, members, seed=21)
    state = driver.state()
    assert state is not None and state.to_act is not None
    actor = driver.member(state.to_act)

    # the player to act is mentioned in a ping message, and only they are
    ping = h.messages()[-1]
    assert ping.content == t("table.turn_ping.text", "en", player=f"<@{actor.id}>",
                             deadline=f"<t:{int(state.deadline)}:R>")
    sent = next(c for c in reversed(h.calls) if c.method == "POST" and c.json
                and c.json.get("content") == ping.content)
    assert [int(u) for u in sent.json["allowed_mentions"]["users"]] == [actor.id]
    assert sent.json["allowed_mentions"]["parse"] == []

    # Bet / Raise -> private panel -> "Other amount" -> modal
    message = driver.table_message()
    raise_id = next(i for i in message.custom_ids() if i.endswith(":hand"))  # panel
    panel = await h.click(actor, message.id, raise_id)
    assert panel.ephemeral
    other = next(i for i in panel.message.custom_ids() if ":other:" in i)
    opened = await h.click(actor, panel.message.id, other)
    assert opened.type == 9 and opened.modal is not None
    modal_id = opened.modal["custom_id"]
    low, high = driver.hand_info(actor).bet_range
    refused = await h.submit_modal(actor, modal_id, {"amount": "lots"}, opened_by=opened)
    # refused in the panel itself, updated in place (issue 36)
    assert refused.type == 6 and refused.messages == [panel.message]
    assert t("table.refuse.bad_amount", "en", min=low, max=high) in panel.message.text
    reopened = await h.click(actor, panel.message.id, other)
    done = await h.submit_modal(actor, modal_id, {"amount": "30"}, opened_by=reopened)
    assert done.type == 6
    assert t("table.done.bet", "en", amount=30) in h.message(panel.message.id).text
    after = driver.state()
    assert after is not None and after.betting is not None and after.betting.level == 30

    # at a showdown: Declare -> private panel -> "Declare best"
    for _ in range(300):
        now = driver.state()
        assert now is not None
        if now.phase == "showdown" and now.to_act is not None:
            break
        await driver.play_turn("slash")
    member = driver.member(now.to_act)
    best = next(a for a in driver.hand_info(member).actions if hasattr(a, "cards"))
    message = driver.table_message()
    declare_id = next(i for i in message.custom_ids() if i.endswith(":hand"))  # panel
    panel = await h.click(member, message.id, declare_id)
    best_id = next(i for i in panel.message.custom_ids() if ":best:" in i)
    declared = await h.click(member, panel.message.id, best_id)
    assert declared.type == 6
    cards = " ".join(map(str, best.cards))
    assert t("table.done.declare", "en", cards=cards) in h.message(panel.message.id).text
    shown = driver.state()
    assert shown is not None and shown.turn > now.turn
