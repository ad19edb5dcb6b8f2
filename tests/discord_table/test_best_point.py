"""The private hand reply shows the engine's best point (R-7), read from the typed view."""

from __future__ import annotations

from bot.i18n import t
from tests.discord_table.driver import TableDriver
from tests.discord_table.test_game import open_table
from tests.harness import Harness


async def test_R7_the_hand_reply_shows_the_engines_best_point(h: Harness) -> None:
    members = [h.member(name) for name in ("Anna", "Bruno", "Carla", "Dario")]
    await open_table(h, members)
    driver = TableDriver(h, members, seed=5)
    shown = 0
    for _ in range(80):
        state = driver.state()
        if state is None or shown >= 2:
            break
        for member in members:
            info = driver.hand_info(member)
            best = info.seat_view.best_point
            reply = await h.slash(member, "stoppa hand")
            if best is None:
                assert "best point" not in reply.text.lower()
                continue
            cards = " ".join(str(c) for c in best.cards)
            assert t("table.hand.best", "en", value=best.total, cards=cards) in reply.text
            shown += 1
        actor = driver.member(state.to_act)
        await driver.act_by_buttons(actor, driver.choose(driver.hand_info(actor)))
    assert shown >= 2
