"""The table message shows how the last hand ended until the next hand's first action
(issue 15: when a showdown's last declaration ends the hand, nobody saw the winning point)."""

from __future__ import annotations

from bot.i18n import t
from tests.discord_table.conftest import section
from tests.discord_table.driver import TableDriver
from tests.discord_table.test_game import open_table
from tests.harness import Harness


async def test_the_declared_points_and_pot_winners_stay_on_the_message(h: Harness) -> None:
    members = [h.member(name) for name in ("Anna", "Bruno", "Carla", "Dario")]
    await open_table(h, members)
    driver = TableDriver(h, members, seed=5)
    declared: list[tuple[str, int, str]] = []
    for _ in range(400):
        state = driver.state()
        assert state is not None
        if state.hand_no == 2:
            break
        before = state
        await driver.play_turn("mixed")
        after = driver.state()
        assert after is not None
        if after.hand_no == 1 and after.view is not None:
            declared = [(after.players[d.seat], d.value, " ".join(c.code for c in d.cards))
                        for d in after.declared]
    else:
        raise AssertionError("hand 1 did not end")
    assert before.hand_no == 1
    last = state.last_hand
    assert last is not None and last.points
    names = {m.id: m.name for m in members}
    title = t("handover.title", "en", hand_no=1)
    shown = section(driver.table_message(), title)
    assert shown is not None, "the table message does not show how hand 1 ended"
    for point in last.points:
        assert f"{names[point.user]} showed {point.value}" in shown
        assert " ".join(point.cards) in shown
    for user, value, cards in declared:  # the last declarations, those nobody saw before
        assert f"{names[user]} showed {value}" in shown and cards in shown
    for won in last.pots:
        assert f"{names[won.user]} won the" in shown
    winner = last.winner
    assert winner is not None and names[winner] in shown
    for payment in last.payments:
        if payment.amount:
            assert f"{names[payment.payer]} paid {names[payment.to]}: {payment.amount}" in shown

    await driver.play_turn("mixed")  # the first action of hand 2
    assert section(driver.table_message(), title) is None


async def test_the_hand_over_field_is_in_italian_for_an_italian_server(tmp_path) -> None:
    async with Harness.create(tmp_path, seed=7, guild_locale="it") as h:
        members = [h.member(name, locale="it") for name in ("Anna", "Bruno", "Carla")]
        await open_table(h, members)
        driver = TableDriver(h, members, seed=2)
        for _ in range(400):
            state = driver.state()
            assert state is not None
            if state.hand_no == 2:
                break
            await driver.play_turn("slash")
        shown = section(driver.table_message(), t("handover.title", "it", hand_no=1))
        assert shown is not None and ("ha vinto" in shown or "ha chiuso" in shown)
