"""An amount typed at a real table is read as at a practice table and in the terminal
(`bot.engine.moves.wager_of`, issue 35): the bet of it, or the raise to it when there is a
bet; when neither may be made now, the refusal is the engine's own reason, not a reason of
the table's."""

from __future__ import annotations

from bot.i18n import t
from tests.discord_table.driver import TableDriver
from tests.discord_table.test_game import open_table
from tests.discord_table.test_orphans import open_modal
from tests.harness import Harness


async def test_an_amount_typed_over_a_bet_at_the_maximum_gets_the_engines_refusal(
    h: Harness,
) -> None:
    members = [h.member("Anna"), h.member("Bruno", locale="it"), h.member("Carla", locale="it")]
    await open_table(h, members)
    driver = TableDriver(h, members)
    first, opened = await open_modal(h, driver)
    high = driver.hand_info(first).bet_range[1]  # type: ignore[index]
    done = await h.submit_modal(first, opened.modal["custom_id"],  # type: ignore[index]
                                {"amount": str(high)}, opened_by=opened)
    assert done.type == 6
    state = driver.state()
    assert state is not None and state.betting is not None and state.betting.level == high
    second = driver.member(state.to_act)  # type: ignore[arg-type]
    assert driver.hand_info(second).bet_range is None  # a bet at the maximum: no raise
    lang = "it" if second.locale == "it" else "en"
    await h.click(second, driver.table_message().id, f"stoppa:{state.table_id}:hand")
    # the amount modal of this turn (its custom id carries the table, hand and turn)
    typed = await h.submit_modal(
        second, f"stoppa:{state.table_id}:amount:{state.hand_no}:{state.turn}", {"amount": "90"}
    )
    # a raise, refused by the engine as at a practice table (it was the table's own "You
    # cannot bet or raise now")
    assert typed.ephemeral and typed.text == t("engine.cannot_raise", lang)
    assert typed.text != t("table.refuse.no_bet_now", lang)
    assert driver.state() == state
