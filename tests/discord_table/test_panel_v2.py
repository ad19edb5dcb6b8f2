"""The live panel in Discord's layout components (Components V2, issue 36): a panel of the
legacy layout (content text, an attached image, a row of buttons), clicked after the upgrade,
is converted in one edit; the hand image's alt text keeps up to 1,024 characters (discord.py's
docstring says 256: it sends what it is given); the harness refuses, as Discord does, a layout
whose `attachment://` names no file of the message (what the kept-image edits are checked
against)."""

from __future__ import annotations

import pytest

from bot.i18n import t
from cogs.table_panel import ALT_LIMIT, PanelBody, panel_layout
from tests.discord_table.driver import TableDriver
from tests.discord_table.test_live_panel import cards_line, open_panel, seat_three
from tests.harness import Harness
from tests.harness.transport import (
    COMPONENTS_V2,
    EPHEMERAL,
    CapturedFile,
    HarnessHTTPError,
    media_items,
)


async def test_a_panel_of_the_legacy_layout_is_converted_in_one_edit(h: Harness) -> None:
    members, anna = await seat_three(h)
    driver = TableDriver(h, members, seed=3)
    panel = await open_panel(h, driver, anna)
    table_id = panel.custom_ids()[0].split(":")[1]
    # the panel as the bot drew it before the change: content, an image, a row of buttons
    old = h.fake.create_message(h.channel_id, {
        "content": f"**{t('table.hand.title', 'en', hand_no=1)}**\nYour cards (3): ...",
        "components": [{"type": 1, "components": [
            {"type": 2, "style": 2, "label": "Leave", "custom_id": f"stoppa:{table_id}:leave"},
            {"type": 2, "style": 1, "label": "Show my cards again",
             "custom_id": f"stoppa:{table_id}:panel"}]}],
        "flags": EPHEMERAL}, [CapturedFile("hand.png", b"\x89PNG\r\n\x1a\nold")])
    old_image = old.attachments[0].id
    calls = len(h.calls)
    clicked = await h.click(anna, old.id, f"stoppa:{table_id}:panel")
    assert clicked.type == 6 and clicked.messages == [old]  # made current, in place
    (edit,) = [c for c in h.calls[calls:] if c.via == "webhook" and c.method == "PATCH"]
    body = edit.data
    assert body["flags"] & COMPONENTS_V2 and body["content"] is None and body["embeds"] == []
    assert [f.filename for f in edit.files] == ["hand.png"]  # drawn again, the old one gone
    assert old.v2 and old.content == "" and not old.embeds
    assert [f.filename for f in old.attachments] == ["hand.png"]
    assert old.attachments[0].id != old_image and old.attachments[0].is_png
    assert old.media_urls() == ["attachment://hand.png"]
    assert sorted(cards_line(old)) == sorted(
        c.code for c in driver.hand_info(anna).seat_view.hand)
    # the next edit keeps that image: no upload, no attachments key, the gallery still shows it
    calls = len(h.calls)
    await driver.play_turn("slash")
    await h.settle()
    later = [c for c in h.calls[calls:] if c.token == edit.token and c.method == "PATCH"]
    assert later and all(not c.files and "attachments" not in c.data for c in later)
    assert all(media_items(c.data["components"]) for c in later)
    assert old.attachments[0].is_png and len(old.attachments) == 1


def test_the_alt_text_keeps_up_to_1024_characters() -> None:
    alt = ("Your cards: " + "Seven of Coins (7d), " * 60)[:ALT_LIMIT]
    assert len(alt) == 1024
    layout = panel_layout(PanelBody("**Your cards, hand 1**", alt=alt))
    (gallery,) = [m for m in media_items(layout.to_components())]
    assert gallery == {"url": "attachment://hand.png", "description": alt}


def test_the_harness_refuses_a_gallery_of_a_file_the_message_does_not_have(
    h: Harness,
) -> None:
    layout = panel_layout(PanelBody("**Your cards, hand 1**", alt="Your cards"))
    body = {"components": layout.to_components(), "flags": COMPONENTS_V2 | EPHEMERAL}
    with pytest.raises(HarnessHTTPError):
        h.fake.create_message(h.channel_id, body, [])
    message = h.fake.create_message(h.channel_id, body, [CapturedFile("hand.png", b"png")])
    h.fake.edit_message(message, body, [])  # kept: the edit may name it
    with pytest.raises(HarnessHTTPError):
        h.fake.edit_message(message, {**body, "attachments": []}, [])  # removed: it may not


async def test_join_and_start_answer_with_the_players_panels(h: Harness) -> None:
    anna, bruno, carla, dario = (h.member(n) for n in ("Anna", "Bruno", "Carla", "Dario"))
    await h.slash(anna, "stoppa new")
    (table,) = h.messages()
    joined = {m.id: await h.click(m, table.id, "stoppa:1:join") for m in (bruno, carla)}
    started = await h.click(anna, table.id, "stoppa:1:start")
    await h.settle()
    state = h.bot.tables.state(h.channel_id)
    assert state is not None and state.hand_no == 1
    driver = TableDriver(h, [anna, bruno, carla])
    for member, reply in ((bruno, joined[bruno.id]), (carla, joined[carla.id]),
                          (anna, started)):
        panel = reply.message
        assert panel is not None and panel.ephemeral and panel.v2
        # no "My cards" needed: the answer to their click follows the deal
        assert sorted(cards_line(panel)) == sorted(
            c.code for c in driver.hand_info(member).seat_view.hand)
        assert panel.media_urls() == ["attachment://hand.png"]
    # a player who sits down during a hand is told theirs starts with the next one
    late = await h.click(dario, table.id, "stoppa:1:join")
    assert late.message is not None and late.message.v2
    assert late.text.split("\n")[:2] == [t("table.reply.joined", "en"),
                                         t("table.hand.waiting_next", "en")]


async def test_join_and_start_by_slash_command_answer_with_the_panel_too(h: Harness) -> None:
    """`/stoppa join` and `/stoppa start` answer as the buttons do (one code path): with the
    player's panel, in their language, which follows the deal; a joiner's language is kept
    with their seat, by the button as by the command."""
    anna, bruno = h.member("Anna", locale="it"), h.member("Bruno")
    carla, dario = h.member("Carla", locale="it"), h.member("Dario", locale="it")
    await h.slash(anna, "stoppa new")
    (table,) = h.messages()
    joined = {bruno.id: await h.slash(bruno, "stoppa join"),
              carla.id: await h.slash(carla, "stoppa join")}
    for member, lang in ((bruno, "en"), (carla, "it")):
        reply = joined[member.id]
        panel = reply.message
        assert panel is not None and panel.ephemeral and panel.v2
        assert reply.text.split("\n")[0] == t("table.reply.joined", lang)
        assert panel.custom_ids() == ["stoppa:1:leave"]
    started = await h.slash(anna, "stoppa start")
    await h.settle()
    driver = TableDriver(h, [anna, bruno, carla])
    for member, reply, lang in ((bruno, joined[bruno.id], "en"), (carla, joined[carla.id], "it"),
                                (anna, started, "it")):
        panel = reply.message
        assert panel is not None and panel.ephemeral and panel.v2
        assert panel.text.startswith(f"**{t('table.hand.title', lang, hand_no=1)}**\n")
        assert sorted(cards_line(panel)) == sorted(  # the deal, with no "My cards"
            c.code for c in driver.hand_info(member).seat_view.hand)
        assert panel.media_urls() == ["attachment://hand.png"]
    late = await h.click(dario, table.id, "stoppa:1:join")  # the button, during the hand
    assert late.message is not None and late.message.v2
    assert late.text.split("\n")[:2] == [t("table.reply.joined", "it"),
                                         t("table.hand.waiting_next", "it")]
    state = h.bot.tables.state(h.channel_id)
    assert state is not None
    assert dict(state.languages) == {anna.id: "it", bruno.id: "en", carla.id: "it",
                                     dario.id: "it"}


async def test_leave_in_a_lobby_panel(h: Harness) -> None:
    anna, bruno = h.member("Anna"), h.member("Bruno")
    await h.slash(anna, "stoppa new")
    (table,) = h.messages()
    panel = (await h.click(bruno, table.id, "stoppa:1:join")).message
    assert panel is not None and panel.custom_ids() == ["stoppa:1:leave"]
    left = await h.click(bruno, panel.id, "stoppa:1:leave")
    assert left.type == 6 and left.messages == [panel]  # answered in the panel itself
    assert t("table.reply.left", "en") in panel.text and not panel.custom_ids()
    state = h.bot.tables.state(h.channel_id)
    assert state is not None and state.seat_of(bruno.id) is None
