"""An amount typed at a real table is read as at a practice table and in the terminal
(`bot.engine.moves.wager_of`, issue 35): the bet of it, or the raise to it when there is a
bet; when neither may be made now, the refusal is the engine's own reason, not a reason of
the table's."""

from __future__ import annotations

from bot.i18n import t
from tests.discord_table.driver import TableDriver
from tests.discord_table.test_game import open_table
from tests.discord_table.test_orphans import open_modal
from tests.harness import FakeMember, Harness


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


async def test_slash_bet_and_raise_read_the_amount_as_one_move(h: Harness) -> None:
    """`/stoppa raise to:N` before any bet is the bet of N, `/stoppa bet amount:N` after a bet
    the raise to N (as "bet N" at practice and in the terminal); over a bet at the maximum,
    the engine's own refusal, in the player's language, and nothing changes."""
    members = [h.member("Anna"), h.member("Bruno", locale="it"), h.member("Carla", locale="it")]
    await open_table(h, members)
    driver = TableDriver(h, members)

    def to_act() -> tuple[FakeMember, str]:
        state = driver.state()
        assert state is not None and state.to_act is not None
        member = driver.member(state.to_act)
        return member, "it" if member.locale == "it" else "en"

    first, lang = to_act()
    low, high = driver.hand_info(first).bet_range  # type: ignore[misc]
    opened = await h.slash(first, "stoppa raise", to=low)  # nobody bet yet: a bet
    assert opened.ephemeral and opened.text == t("table.done.bet", lang, amount=low)
    state = driver.state()
    assert state is not None and state.betting is not None and state.betting.level == low

    second, lang = to_act()
    raised = await h.slash(second, "stoppa bet", amount=high)  # a bet is out: the raise to it
    assert raised.ephemeral and raised.text == t("table.done.raise", lang, amount=high)
    state = driver.state()
    assert state is not None and state.betting is not None and state.betting.level == high

    third, lang = to_act()
    assert lang == "it" and driver.hand_info(third).bet_range is None  # the maximum: no raise
    refused = await h.slash(third, "stoppa bet", amount=high + 10)
    assert refused.ephemeral and refused.text == "Non puoi rilanciare adesso."
    assert refused.text == t("engine.cannot_raise", "it")
    assert driver.state() == state
