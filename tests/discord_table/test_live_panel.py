"""The live private panel (issue 36): one ephemeral message per player that the bot edits
through the interaction token it came with, as the player's cards, turn and results change.

Anna plays only through her panel (opened once from the table message); the others play by
slash commands. The panel must follow a whole hand and the next with no click of hers between
her turns, keep its hand image when her cards did not change, never show another player's
cards, become current again when an old one is clicked, stop (and say so) before its token
dies, and keep its token out of the database (after a restart it waits for her click)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from bot.i18n import t
from cogs.table_panel import PanelBook
from tests.discord_table.driver import CARD, TableDriver
from tests.discord_table.test_game import START, open_table
from tests.harness import FakeMember, FakeMessage, Harness, Reply
from tests.harness.transport import COMPONENTS_V2, media_items, sent_text

MOVES = ("pass", "call", "best", "bet")


def panels(h: Harness) -> PanelBook:
    """The table cog's live panels."""
    cog: Any = h.bot.get_cog("TableCog")
    return cog.panels  # type: ignore[no-any-return]


async def open_panel(h: Harness, driver: TableDriver, member: FakeMember) -> FakeMessage:
    """`member` presses "My cards" on the table message: their panel."""
    table = driver.table_message()
    button = next(i for i in table.custom_ids() if i.endswith(":hand"))
    reply = await h.click(member, table.id, button)
    assert reply.ephemeral and reply.message is not None
    return reply.message


async def seat_three(h: Harness) -> tuple[list[FakeMember], FakeMember]:
    """Anna, Bruno and Carla at a table, the first hand dealt; and Anna."""
    members = [h.member(name) for name in ("Anna", "Bruno", "Carla")]
    await open_table(h, members)
    return members, members[0]


def shows_hand_image(data: dict[str, Any]) -> bool:
    """Whether a message body shows the attached hand image, with its alt text."""
    media = media_items(data.get("components"))
    return [m["url"] for m in media] == ["attachment://hand.png"] and bool(media[0]["description"])


def turn_of(panel: FakeMessage, hand: int, turn: int) -> list[str]:
    """The panel's move components bound to this hand and turn."""
    return [i for i in panel.custom_ids() if f":{hand}:{turn}" in i]


async def play_in_panel(h: Harness, member: FakeMember, panel: FakeMessage, hand: int,
                        turn: int) -> Reply:
    """Play the first move the panel offers for this turn (a select's first option)."""
    ids = turn_of(panel, hand, turn)
    assert ids, f"the panel shows no move for turn {turn}: {panel.custom_ids()}"
    button = next((i for i in ids for kind in MOVES if f":{kind}:" in i), None)
    if button is not None:
        return await h.click(member, panel.id, button)
    select = next(c for c in panel.all_components() if c.get("type") == 3)
    return await h.select(member, panel.id, select["custom_id"],
                          [select["options"][0]["value"]])


def cards_line(panel: FakeMessage) -> list[str]:
    """The card codes of the panel's line of cards (under its title, and the last hand's
    note while it is kept)."""
    lines = [line for line in panel.text.splitlines()[1:] if not line.startswith("*")]
    return CARD.findall(lines[0]) if lines else []


async def others_play(driver: TableDriver, anna: FakeMember) -> None:
    """Everyone but Anna plays by slash command until it is Anna's turn (or the table
    closes)."""
    while (state := driver.state()) is not None and state.to_act not in (None, anna.id):
        member = driver.member(state.to_act)
        await driver.act_by_slash(member, driver.choose(driver.hand_info(member)))


async def test_a_panel_follows_a_hand_and_the_next_without_a_click_between_turns(
    h: Harness,
) -> None:
    members, anna = await seat_three(h)
    driver = TableDriver(h, members, seed=3)
    panel = await open_panel(h, driver, anna)
    turns = 0
    while (state := driver.state()) is not None and state.hand_no < 3:
        await others_play(driver, anna)
        state = driver.state()
        if state is None or state.hand_no >= 3:
            break
        # her turn came: the panel shows it by itself, bound to this turn, with her cards
        assert turn_of(panel, state.hand_no, state.turn), panel.custom_ids()
        assert sorted(cards_line(panel)) == sorted(
            c.code for c in driver.hand_info(anna).seat_view.hand)
        reply = await play_in_panel(h, anna, panel, state.hand_no, state.turn)
        assert reply.type == 6 and reply.messages == [panel]  # the click updates the panel
        turns += 1
    assert turns >= 4
    # one private message of hers in all: every later view was an edit of it
    assert [m.id for m in private_messages(h, anna) if m.id >= panel.id] == [panel.id]
    edits = [c for c in h.calls if c.via == "webhook" and c.method == "PATCH"
             and sent_text(c.data).startswith(f"**{t('table.hand.title', 'en', hand_no=1)}")]
    assert edits and all(c.flags & COMPONENTS_V2 and "content" not in c.data for c in edits)
    # the hand's result was shown in the panel, and the image was kept on some edits
    results = [c for c in h.calls if c.via == "webhook" and t("handover.title", "en", hand_no=1)
               in sent_text(c.data)]
    assert results
    # an edit that keeps the image uploads nothing and leaves the attachments alone, and its
    # layout still shows the attached file (the harness, as Discord, refuses a gallery that
    # names no file the message has)
    kept = [c for c in h.calls if c.via == "webhook" and c.method == "PATCH"
            and not c.files and "attachments" not in c.data
            and shows_hand_image(c.data)]
    assert kept and panel.attachments and panel.attachments[0].filename == "hand.png"
    assert panel.media_urls() == ["attachment://hand.png"]


async def test_two_players_panels_never_show_each_others_cards(h: Harness) -> None:
    members = [h.member(name) for name in ("Anna", "Bruno", "Carla")]
    await open_table(h, members)
    driver = TableDriver(h, members, seed=11)
    anna_panel = await open_panel(h, driver, members[0])
    bruno_panel = await open_panel(h, driver, members[1])
    checked = 0
    while (state := driver.state()) is not None and state.hand_no < 2:
        for member, panel in ((members[0], anna_panel), (members[1], bruno_panel)):
            shown = set(cards_line(panel))
            own = {c.code for c in driver.hand_info(member).seat_view.hand}
            other = members[1] if member is members[0] else members[0]
            theirs = {c.code for c in driver.hand_info(other).seat_view.hand}
            assert shown == own and not shown & theirs
            checked += 1
        await driver.play_turn("slash")
    assert checked > 10


async def test_a_click_on_an_old_panel_makes_it_current(h: Harness) -> None:
    members, anna = await seat_three(h)
    driver = TableDriver(h, members, seed=5)
    await others_play(driver, anna)
    old = await open_panel(h, driver, anna)
    new = (await h.slash(anna, "stoppa hand")).message  # a fresh panel: now the current one
    assert new is not None and new.id != old.id
    state = driver.state()
    assert state is not None and state.to_act == anna.id
    stale = turn_of(old, state.hand_no, state.turn)[0]
    await driver.act_by_slash(anna, driver.choose(driver.hand_info(anna)))  # by command
    before = driver.state()
    clicked = await h.click(anna, old.id, stale)  # a move of a turn gone
    assert clicked.type == 6 and clicked.messages == [old]  # no refusal, no other message
    assert driver.state() == before and stale not in old.custom_ids()
    # the old panel is current again: her next turn shows there, not in the other one
    new_edits, old_edits = new.edits, old.edits
    await others_play(driver, anna)
    state = driver.state()
    assert state is not None and state.to_act == anna.id
    assert old.edits > old_edits and turn_of(old, state.hand_no, state.turn)
    assert new.edits == new_edits


async def test_a_panel_says_it_stopped_before_its_token_dies_and_comes_back(
    h: Harness,
) -> None:
    members, anna = await seat_three(h)
    driver = TableDriver(h, members, seed=2)
    panels(h).life = 1.0  # seconds instead of 14 minutes
    panel = await open_panel(h, driver, anna)
    token = panels(h).panel(panel_table(driver), anna.id)
    assert token is not None
    await asyncio.sleep(1.2)
    await h.settle()
    button = t("table.button.panel", "en")
    assert t("table.hand.expired", "en", button=button) in panel.text
    assert [i.split(":")[2] for i in panel.custom_ids()] == ["panel"]
    assert panels(h).panel(panel_table(driver), anna.id) is None  # the token is let go
    calls = len(h.calls)
    await driver.play_turn("slash")
    await driver.play_turn("slash")
    stale = token.interaction.token
    assert not [c for c in h.calls[calls:] if c.token == stale]  # never used again
    panels(h).life = 14 * 60.0
    back = await h.click(anna, panel.id, panel.custom_ids()[0])
    assert back.type == 6 and back.messages == [panel]
    assert t("table.hand.expired", "en", button=button) not in panel.text
    assert sorted(cards_line(panel)) == sorted(
        c.code for c in driver.hand_info(anna).seat_view.hand)


async def test_after_a_restart_a_panel_waits_for_its_click_and_its_token_is_not_stored(
    h: Harness, tmp_path: Path,
) -> None:
    members, anna = await seat_three(h)
    driver = TableDriver(h, members, seed=9)
    await others_play(driver, anna)
    panel = await open_panel(h, driver, anna)
    live = panels(h).panel(panel_table(driver), anna.id)
    assert live is not None
    secret = live.interaction.token
    await play_in_panel(h, anna, panel, driver.state().hand_no,  # type: ignore[union-attr]
                        driver.state().turn)  # type: ignore[union-attr]
    await h.restart()
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("*.db*"))
    assert secret.encode() not in stored  # a token is a credential: memory only
    edits = panel.edits
    await others_play(driver, anna)  # her turn comes back: her panel has no token now
    state = driver.state()
    assert state is not None and state.to_act == anna.id
    assert panel.edits == edits and not turn_of(panel, state.hand_no, state.turn)
    fresh = await open_panel(h, driver, anna)  # the table message's button: a fresh panel
    assert fresh.id != panel.id and turn_of(fresh, state.hand_no, state.turn)


def private_messages(h: Harness, member: FakeMember) -> list[FakeMessage]:
    """The ephemeral messages made by `member`'s interactions."""
    def user_of(token: str | None) -> int:
        payload = h.fake.interactions.get(token or "", {})
        return int(payload.get("member", {}).get("user", {}).get("id", 0))

    return [m for m in h.messages(ephemeral=True)
            if m.ephemeral and user_of(m.interaction_token) == member.id]


def panel_table(driver: TableDriver) -> int:
    state = driver.state()
    assert state is not None
    return int(state.table_id)


async def test_an_illegal_move_in_the_panel_is_refused_in_the_panel_itself(
    h: Harness,
) -> None:
    """Issue 36: a refused move (an amount that is no number, or out of range) answers by
    updating the panel in place with the refusal in it: no other private message."""
    members, anna = await seat_three(h)
    driver = TableDriver(h, members, seed=3)
    panel = await open_panel(h, driver, anna)
    for _ in range(200):
        await others_play(driver, anna)
        state = driver.state()
        assert state is not None
        if any(":other:" in i for i in turn_of(panel, state.hand_no, state.turn)):
            break
        await play_in_panel(h, anna, panel, state.hand_no, state.turn)
    other = next(i for i in turn_of(panel, state.hand_no, state.turn) if ":other:" in i)
    low, high = driver.hand_info(anna).bet_range
    before = driver.state()
    for typed, refusal in (("lots", t("table.refuse.bad_amount", "en", min=low, max=high)),
                           (str(high + 1000), None)):
        opened = await h.click(anna, panel.id, other)
        assert opened.type == 9 and opened.modal is not None
        refused = await h.submit_modal(anna, opened.modal["custom_id"], {"amount": typed},
                                       opened_by=opened)
        assert refused.type == 6 and refused.messages == [panel]  # in place, nothing else
        assert driver.state() == before
        if refusal is not None:
            assert refusal in panel.text
        # the refusal sits above the moves, which stay live for this turn
        lines = panel.text.splitlines()
        assert turn_of(panel, state.hand_no, state.turn) and len(lines) > 3
    assert [m.id for m in private_messages(h, anna) if m.id >= panel.id] == [panel.id]
    # the next move clears the refusal
    shown = panel.text
    await play_in_panel(h, anna, panel, state.hand_no, state.turn)
    assert panel.text != shown and str(high + 1000) not in panel.text


async def test_a_panel_shows_the_hands_net_and_then_that_the_table_closed(h: Harness) -> None:
    """Issue 36: at the end of a hand the panel says what the hand won or lost the player;
    when the table closes it is edited once more: the table closed, and their chips."""
    members, anna = await seat_three(h)
    await h.slash(anna, "stoppa round")  # the table closes after this hand
    driver = TableDriver(h, members, seed=4)
    panel = await open_panel(h, driver, anna)
    table_id = panel_table(driver)
    while (state := driver.state()) is not None:  # she plays in her panel only
        await driver.service.wait_idle()
        await h.settle()
        if (state := driver.state()) is None:
            break
        if state.to_act == anna.id:
            await play_in_panel(h, anna, panel, state.hand_no, state.turn)
        else:
            await driver.play_turn("slash")
    await h.settle()
    chips = (await h.store.balances(h.guild_id, [anna.id]))[anna.id]
    hands = sorted(await h.store.hand_history(table_id), key=lambda f: f.hand_no)
    assert len(hands) >= 1 and sum(f.result[anna.id] for f in hands) == chips - START
    sent = [sent_text(c.data) for c in h.calls if c.via == "webhook" and c.method == "PATCH"]
    for finished in hands:  # each hand's end said what it won or cost her
        said = net_said(finished.result[anna.id])
        title = t("handover.title", "en", hand_no=finished.hand_no)
        assert any(said in text and title in text for text in sent), finished.hand_no
    assert t("table.hand.closed", "en", amount=chips) in panel.text
    assert net_said(hands[-1].result[anna.id]) in panel.text  # the last result stays readable
    assert not turn_of(panel, 1, 0) and not [i for i in panel.custom_ids()
                                             if i.split(":")[2] in (*MOVES, "leave")]
    assert panels(h).panel(table_id, anna.id) is None  # nothing more to follow



def net_said(net: int) -> str:
    """How a panel says what a hand won or cost its player."""
    if net > 0:
        return t("table.hand.net_won", "en", amount=net)
    if net < 0:
        return t("table.hand.net_lost", "en", amount=-net)
    return t("table.hand.net_even", "en")


async def test_the_last_hands_result_stays_in_the_panel_until_her_next_decision(
    h: Harness,
) -> None:
    """Issue 36: when others act first in the next hand (the table message then drops the
    result), her panel still says how the last hand ended for her, above the new hand, until
    she decides; then it goes."""
    members, anna = await seat_three(h)
    driver = TableDriver(h, members, seed=3)
    panel = await open_panel(h, driver, anna)
    table_id = panel_table(driver)
    checked, seen = 0, 0
    while (state := driver.state()) is not None and state.hand_no < 5:
        await others_play(driver, anna)
        state = driver.state()
        if state is None or state.hand_no >= 5:
            break
        if state.hand_no > seen and state.hand_no > 1:  # her first decision of a hand
            seen = state.hand_no
            if state.last_hand is None:  # the table no longer shows the last hand
                hands = await h.store.hand_history(table_id)
                last = next(f for f in hands if f.hand_no == state.hand_no - 1)
                title = t("handover.title", "en", hand_no=last.hand_no)
                assert title in panel.text and net_said(last.result[anna.id]) in panel.text
                lines = panel.text.splitlines()  # under the new hand's title, above its cards
                assert lines[0] == f"**{t('table.hand.title', 'en', hand_no=state.hand_no)}**"
                assert lines[1].startswith(f"*{title}:*")
                await play_in_panel(h, anna, panel, state.hand_no, state.turn)
                assert title not in panel.text  # her decision: the note goes
                checked += 1
                continue
        await play_in_panel(h, anna, panel, state.hand_no, state.turn)
    assert checked >= 1
