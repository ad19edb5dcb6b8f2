"""Practice chips are never the server's: twenty practice hands move no chip of the ledger,
save no hand, rate nobody, and a real table in the same channel plays on meanwhile."""

from __future__ import annotations

from typing import Any

import pytest

from bot.tables.policies.practice import STACK_ANTES, practice_channel
from tests.discord_table.driver import TableDriver
from tests.harness import Harness
from tests.practice.helpers import PracticeDriver, components, practice_session, said


async def traces(h: Harness, table_id: int) -> dict[str, Any]:
    """Every place a practice table could leave a trace, read from the store."""
    store = h.store
    return {
        "ledger": (await store.query("SELECT COUNT(*) FROM ledger WHERE table_id = ?",
                                     (table_id,)))[0][0],
        "hands": (await store.query("SELECT COUNT(*) FROM hands WHERE table_id = ?",
                                    (table_id,)))[0][0],
    }


async def member_record(h: Harness, user: int) -> dict[str, Any]:
    """What history, stats, leaderboards and ratings say of `user`."""
    store, guild = h.store, h.guild_id
    balance = await store.balance(guild, user)  # (an account is opened at its first read)
    board = await store.leaderboard(guild)
    return {
        "balance": balance,
        "hands": await store.count_player_hands(guild, user),
        "stats": await store.stats(guild, user),
        "ratings": await store.ratings(guild, [user]),
        "on_board": [row for row in board if getattr(row, "user_id", None) == user],
    }


@pytest.mark.slow
async def test_twenty_practice_hands_leave_no_trace_while_a_real_table_plays_on(
    h: Harness,
) -> None:
    anna, boss = h.member("Anna"), h.member("Boss")
    before_anna = await member_record(h, anna.id)
    practice = PracticeDriver(h, anna, seed=5)
    opened = await practice.open(players=3, level="hard")
    assert f"{STACK_ANTES} antes" in said(opened)
    table = practice_session(h.bot.tables, anna.id)
    assert table is not None and table.row.channel_id == practice_channel(anna.id)

    # a real table in the same channel: /stoppa new still works beside the practice table
    await h.slash(boss, "stoppa new")
    real = TableDriver(h, [boss], seed=2)
    state = real.state()
    assert state is not None and state.table_id != table.id
    for _ in range(2):
        await h.slash(boss, "stoppa addbot", level="easy")
    await h.slash(boss, "stoppa start")
    real_hand_before = real.state().hand_no  # type: ignore[union-attr]
    total_before = sum((await h.store.total_chips(h.guild_id))[:2])  # balances + escrow

    for hands in range(1, 21):
        await practice.play_hands(hands)
        state = real.state()
        if state is not None and state.to_act == boss.id:  # the real table plays on
            await real.play_turn("buttons")
    assert table.meta.in_play.hand_no == 20

    assert await traces(h, table.id) == {"ledger": 0, "hands": 0}
    assert await member_record(h, anna.id) == before_anna
    assert await h.store.audit() == []
    assert sum((await h.store.total_chips(h.guild_id))[:2]) == total_before
    real_state = real.state()
    assert real_state is not None and real_state.hand_no > real_hand_before
    # the practice table was never the channel's: the real one is
    assert h.bot.tables.state(h.channel_id).table_id == real_state.table_id
    assert h.bot.tables.table_of(h.guild_id, anna.id) is None


async def test_leave_closes_the_table_and_settles_nothing(h: Harness) -> None:
    anna = h.member("Anna")
    balance = await h.store.balance(h.guild_id, anna.id)
    practice = PracticeDriver(h, anna)
    await practice.open()
    table = practice_session(h.bot.tables, anna.id)
    assert table is not None
    await practice.step()
    left = await practice.click("leave")
    assert "closed" in said(left) and left.message is not None
    assert not list(components(left.message))
    assert practice_session(h.bot.tables, anna.id) is None
    assert await h.store.balance(h.guild_id, anna.id) == balance
    assert await traces(h, table.id) == {"ledger": 0, "hands": 0}
    assert (await h.store.get_table(table.id)).status == "closed"
    assert await h.store.audit() == []


async def test_a_practice_table_deals_the_committed_deck_and_reveals_it_at_leave(
    h: Harness,
) -> None:
    """Issue 30: practice tables use the same fair deal; the hand the leave interrupted
    verifies against the secret revealed at the close."""
    from bot.fairness import first_dealer, verify_table
    from bot.tables.fair import hands_of

    anna = h.member("Anna")
    practice = PracticeDriver(h, anna)
    await practice.open()
    table = practice_session(h.bot.tables, anna.id)
    assert table is not None
    assert table.row.commitment is not None and not table.row.revealed
    first_dealer_and_players = (table.meta.in_play.dealer, list(table.meta.in_play.players))
    await practice.step()
    await practice.click("leave")
    row = await h.store.get_table(table.id)
    assert row.revealed and row.secret is not None and row.commitment is not None
    # the first dealer is drawn from the secret too, as at every table (docs/fairness.md)
    dealer, players = first_dealer_and_players
    assert dealer == players[first_dealer(row.secret, len(players))]
    hands = await hands_of(h.store, row)
    assert [hand.aborted for hand in hands] == [True]
    checked = verify_table(row.commitment, row.secret, row.id, [hand.check for hand in hands])
    assert checked.ok and len(checked.hands[0].dealt) >= 3
