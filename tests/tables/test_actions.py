"""Races, double clicks, stale buttons, store failures, leavers and kicks."""

from __future__ import annotations

import asyncio

import pytest

from bot.engine import Bet, Pass
from bot.tables import TableError
from tests.tables.helpers import CHANNEL, GUILD, USERS, Harness, drive, random_players


async def _start(h: Harness, users: tuple[int, ...] = USERS):
    await h.seat_four(users)
    return await h.svc.start_game(GUILD, CHANNEL, users[0])


async def test_two_actions_racing_for_the_same_turn_exactly_one_applies(h: Harness) -> None:
    state = await _start(h)
    user = state.to_act
    assert user is not None
    tokens = {"expected_hand": state.hand_no, "expected_turn": state.turn}
    results = await asyncio.gather(
        h.svc.act(GUILD, CHANNEL, user, Bet(50), **tokens),
        h.svc.act(GUILD, CHANNEL, user, Pass(), **tokens),
        return_exceptions=True,
    )
    errors = [r for r in results if isinstance(r, BaseException)]
    assert len(errors) == 1
    assert isinstance(errors[0], TableError) and errors[0].code == "stale_button"
    assert h.state().turn == state.turn + 1  # type: ignore[union-attr]
    assert await h.store.escrow(state.table_id) == 4 * 60 + 50  # the bet, once
    assert await h.store.balance(GUILD, user) == 1000 - 60 - 50


async def test_racing_without_tokens_the_second_is_not_your_turn(h: Harness) -> None:
    state = await _start(h)
    user = state.to_act
    assert user is not None
    results = await asyncio.gather(
        h.svc.act(GUILD, CHANNEL, user, Bet(20)),
        h.svc.act(GUILD, CHANNEL, user, Bet(20)),
        return_exceptions=True,
    )
    errors = [r for r in results if isinstance(r, BaseException)]
    assert len(errors) == 1 and isinstance(errors[0], TableError)
    assert errors[0].code == "not_your_turn"
    assert await h.store.escrow(state.table_id) == 4 * 60 + 20


async def test_double_click_is_refused(h: Harness) -> None:
    state = await _start(h)
    user = state.to_act
    assert user is not None
    await h.svc.act(
        GUILD, CHANNEL, user, Bet(10), expected_hand=state.hand_no, expected_turn=state.turn
    )
    with pytest.raises(TableError) as err:
        await h.svc.act(
            GUILD, CHANNEL, user, Bet(10), expected_hand=state.hand_no, expected_turn=state.turn
        )
    assert err.value.code == "stale_button"
    assert await h.store.escrow(state.table_id) == 4 * 60 + 10


async def test_a_button_of_an_old_hand_is_refused(h: Harness) -> None:
    state = await _start(h)
    await drive(h, lambda s: s is not None and s.hand_no == 2, random_players(seed=8))
    now = h.state()
    assert now is not None and now.to_act is not None
    with pytest.raises(TableError) as err:
        await h.svc.act(GUILD, CHANNEL, now.to_act, Pass(), expected_hand=state.hand_no)
    assert err.value.code == "stale_button"


async def test_a_failed_transaction_rolls_memory_back_to_the_store(h: Harness) -> None:
    state = await _start(h)
    user = state.to_act
    assert user is not None
    table = h.svc._by_id[state.table_id]
    saved_state, saved_version = table.row.state, table.row.version
    # the player's chips vanish behind the table's back (an admin removal)
    balance = await h.store.balance(GUILD, user)
    await h.store.grant(GUILD, user, -balance, reason="test", by=1)
    with pytest.raises(TableError) as err:
        await h.svc.act(GUILD, CHANNEL, user, Bet(40))
    assert err.value.code == "not_enough_chips_now"
    # memory agrees with the database: same hand, same turn, nothing paid
    assert table.hand is not None and table.hand.to_json() == saved_state
    assert table.row.version == saved_version
    after = h.state()
    assert after is not None and after.turn == state.turn and after.to_act == user
    assert await h.store.escrow(state.table_id) == 4 * 60
    # an action that moves no chip still works; the game goes on
    await h.svc.act(GUILD, CHANNEL, user, Pass())
    assert h.state().turn == state.turn + 1  # type: ignore[union-attr]
    await h.svc.force_close(GUILD, CHANNEL, 1)


async def test_a_leaver_mid_hand_passes_until_the_hand_ends(h: Harness) -> None:
    state = await _start(h)
    leaver = next(u for u in USERS if u != state.to_act)
    balance_before = await h.store.balance(GUILD, leaver)
    await h.svc.leave(GUILD, CHANNEL, leaver)
    now = h.state()
    assert now is not None and now.seat_of(leaver).status == "leaving"  # type: ignore[union-attr]
    assert leaver in now.players
    # the leaver is never asked to act: the driver has no player for them
    players = {u: p for u, p in random_players(seed=9).items() if u != leaver}
    now = await drive(h, lambda s: s is not None and s.hand_no > 1, players)
    assert now is not None
    assert leaver not in [s.user_id for s in now.seats] and leaver not in now.players
    # their chips were settled: their hand-start balance plus the hand's result
    record = (await h.store.hand_history(state.table_id, limit=1))[0]
    net = {int(k): v for k, v in record.result.items()}[leaver]
    assert await h.store.balance(GUILD, leaver) == balance_before + 60 + net
    # a hand of 3 goes on
    assert now.status == "playing" and len(now.players) == 3


async def test_a_table_below_three_players_after_a_hand_closes_itself(h: Harness) -> None:
    # issue 20 changed this: it used to wait in the lobby ("tables.waiting_players")
    state = await _start(h, USERS[:3])
    leaver = next(u for u in USERS[:3] if u != state.to_act)
    await h.svc.leave(GUILD, CHANNEL, leaver)
    await drive(h, lambda s: s is None or s.hand_no > 1, random_players(seed=3))
    assert h.state() is None  # closed
    last = h.updates[-1]
    assert last.kind == "closed" and last.state.status == "closed"
    keys = [n.key for n in last.notices]
    assert "living.too_few" in keys and "tables.closed" in keys
    assert await h.store.escrow(state.table_id) == 0
    # the two players left are free to sit elsewhere
    assert h.svc.table_of(GUILD, USERS[0]) is None


async def test_join_during_a_hand_waits_for_the_next(h: Harness) -> None:
    state = await _start(h, USERS[:3])
    deadline = state.deadline
    await h.clock.advance(10)
    await h.svc.join(GUILD, CHANNEL, 20)
    now = h.state()
    assert now is not None and now.seat_of(20).status == "waiting"  # type: ignore[union-attr]
    assert now.deadline == deadline  # a join does not restart the turn clock
    assert 20 not in now.players
    now = await drive(h, lambda s: s is not None and s.hand_no == 2, random_players(seed=1))
    assert now is not None and 20 in now.players


async def test_kick_between_hands_and_during_a_hand(h: Harness) -> None:
    await h.svc.open_table(GUILD, CHANNEL, 11)
    for user in (12, 13, 14, 15):
        await h.svc.join(GUILD, CHANNEL, user)
    await h.svc.kick(GUILD, CHANNEL, 1, 15)
    assert 15 not in [s.user_id for s in h.state().seats]  # type: ignore[union-attr]
    state = await h.svc.start_game(GUILD, CHANNEL, 11)
    victim = next(u for u in USERS if u != state.to_act)
    await h.svc.kick(GUILD, CHANNEL, 1, victim)
    assert h.state().seat_of(victim).status == "leaving"  # type: ignore[union-attr]
    now = await drive(h, lambda s: s is not None and s.hand_no == 2, random_players(seed=2))
    assert now is not None and victim not in [s.user_id for s in now.seats]


async def test_a_leaver_who_joins_again_before_the_hand_ends_stays(h: Harness) -> None:
    state = await _start(h)
    leaver = next(u for u in USERS if u != state.to_act)
    await h.svc.leave(GUILD, CHANNEL, leaver)
    await h.svc.join(GUILD, CHANNEL, leaver)
    now = h.state()
    assert now is not None and now.seat_of(leaver).status == "playing"  # type: ignore[union-attr]
    assert h.updates[-1].notices[0].key == "tables.stays"
    now = await drive(h, lambda s: s is not None and s.hand_no == 2, random_players(seed=9))
    assert now is not None and leaver in [s.user_id for s in now.seats]
