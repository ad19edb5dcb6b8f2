"""A whole table driven through several hands (R-3, R-5, R-14) and the lobby rules."""

from __future__ import annotations

import itertools

import pytest

from bot.engine import Bet, IllegalAction, Pass
from bot.tables import TableError
from tests.tables.helpers import (
    CHANNEL,
    GUILD,
    USERS,
    Harness,
    TamePlayer,
    drive,
    random_players,
)


async def test_R3_R14_four_players_several_hands_then_the_round_closes(h: Harness) -> None:
    await h.seat_four()
    state = await h.svc.start_game(GUILD, CHANNEL, USERS[0])
    assert state.status == "playing" and state.hand_no == 1 and state.phase == "small_point"
    players = {u: TamePlayer(u) for u in USERS}
    await drive(h, lambda s: s is not None and s.hand_no >= 6, players)
    await h.chips_conserved()
    await h.svc.call_round(GUILD, CHANNEL, USERS[1])
    assert h.state().round_called  # type: ignore[union-attr]
    await drive(h, lambda s: s is None, players)
    started = [u.state for u in h.updates if u.kind == "started"]
    assert [s.hand_no for s in started] == list(range(1, len(started) + 1))
    # the deal passes to the next seat able to play
    checked = 0
    for before, after in itertools.pairwise(started):
        seats = list(after.players)
        if set(before.players) == set(after.players):
            assert seats[(seats.index(before.dealer) + 1) % len(seats)] == after.dealer
            checked += 1
    assert checked >= 6
    # once closed, every player who could still play has dealt the same number of times
    closed = h.updates[-1]
    assert closed.kind == "closed" and closed.state.status == "closed"
    assert "tables.round_over" in [n.key for n in closed.notices]
    balances = await h.store.balances(GUILD, list(USERS))
    able = [u for u in USERS if balances[u] >= 60]
    counts = {u: sum(1 for s in started if s.dealer == u) for u in able}
    assert len(set(counts.values())) == 1, counts
    row = await h.store.get_table(closed.table_id)
    assert row.status == "closed" and row.escrow == 0
    assert sum(balances.values()) == 1000 * len(USERS)
    assert (await h.store.stats(GUILD, USERS[0])).hands == len(started)


async def test_R5_escrow_holds_the_antes_and_bets_of_the_hand_only(h: Harness) -> None:
    await h.seat_four()
    await h.svc.start_game(GUILD, CHANNEL, USERS[0])
    state = h.state()
    assert state is not None
    table_id = state.table_id
    assert await h.store.escrow(table_id) == 4 * 60
    user = state.to_act
    assert user is not None
    await h.svc.act(GUILD, CHANNEL, user, Bet(30))
    assert await h.store.escrow(table_id) == 4 * 60 + 30
    assert await h.store.balance(GUILD, user) == 1000 - 60 - 30
    seat = h.state().seat_of(user)  # type: ignore[union-attr]
    assert seat is not None and seat.chips == 1000 - 90
    # the hand ends: the escrow is empty again (no carry by default)
    await drive(h, lambda s: s is not None and s.hand_no == 2, random_players(seed=2))
    assert await h.store.escrow(table_id) == 4 * 60


async def test_lobby_rules(h: Harness) -> None:
    svc = h.svc
    await svc.open_table(GUILD, CHANNEL, 11)
    with pytest.raises(TableError) as err:
        await svc.open_table(GUILD, CHANNEL, 12)
    assert err.value.code == "table_exists"
    with pytest.raises(TableError) as err:
        await svc.join(GUILD, CHANNEL, 11)
    assert err.value.code == "already_seated"
    await svc.join(GUILD, CHANNEL, 12)
    with pytest.raises(TableError) as err:
        await svc.start_game(GUILD, CHANNEL, 11)
    assert err.value.code == "not_enough_players"
    # one table per server
    with pytest.raises(TableError) as err:
        await svc.open_table(GUILD, CHANNEL + 1, 12)
    assert err.value.code == "seated_elsewhere"
    # a minimum balance to sit: 10 x ante
    await h.store.grant(GUILD, 13, -500, reason="test", by=1)
    with pytest.raises(TableError) as err:
        await svc.join(GUILD, CHANNEL, 13)
    assert err.value.code == "not_enough_chips"
    assert err.value.params == {"need": 600, "have": 500}
    assert "600" in err.value.message("it")
    for user in (14, 15, 16, 17):
        await svc.join(GUILD, CHANNEL, user)
    with pytest.raises(TableError) as err:
        await svc.join(GUILD, CHANNEL, 18)
    assert err.value.code == "table_full"
    with pytest.raises(TableError) as err:
        await svc.leave(GUILD, CHANNEL, 18)
    assert err.value.code == "not_seated"
    with pytest.raises(TableError) as err:
        await svc.join(GUILD, CHANNEL + 5, 18)
    assert err.value.code == "no_table"
    await svc.leave(GUILD, CHANNEL, 17)
    assert [s.user_id for s in h.state().seats] == [11, 12, 14, 15, 16]  # type: ignore[union-attr]


async def test_not_your_turn_and_illegal_actions_change_nothing(h: Harness) -> None:
    await h.seat_four()
    state = await h.svc.start_game(GUILD, CHANNEL, USERS[0])
    other = next(u for u in USERS if u != state.to_act)
    with pytest.raises(TableError) as err:
        await h.svc.act(GUILD, CHANNEL, other, Pass())
    assert err.value.code == "not_your_turn" and err.value.params["player"] == state.to_act
    assert state.to_act is not None
    with pytest.raises(IllegalAction) as illegal:
        await h.svc.act(GUILD, CHANNEL, state.to_act, Bet(5000))
    assert illegal.value.code == "bet_too_large"
    with pytest.raises(TableError) as err:
        await h.svc.act(GUILD, CHANNEL, state.to_act, "dance")
    assert err.value.code == "bad_action"
    after = h.state()
    assert after is not None and after.turn == state.turn and after.to_act == state.to_act
    row = await h.store.get_table(state.table_id)
    assert row.version == h.svc._by_id[state.table_id].row.version
    # the text form of an action works too
    await h.svc.act(GUILD, CHANNEL, state.to_act, "bet 20")
    assert h.state().turn == state.turn + 1  # type: ignore[union-attr]


async def test_hand_for_is_private_and_the_snapshot_is_public(h: Harness) -> None:
    await h.seat_four()
    state = await h.svc.start_game(GUILD, CHANNEL, USERS[0])
    assert state.view is not None and state.view.seat is None and state.view.hand == ()
    assert state.view.eligible == () and state.view.legal == ()
    assert all(e.kind != "deal" for e in state.events)
    assert state.hand_events and all(e.kind != "deal" for e in state.hand_events)
    hands = {u: h.svc.hand_for(GUILD, CHANNEL, u) for u in USERS}
    assert all(len(info.seat_view.hand) == 3 for info in hands.values())
    assert sum(info.my_turn for info in hands.values()) == 1
    mine = hands[state.to_act]  # type: ignore[index]
    assert mine.actions and mine.bet_range == (10, 200)
    assert mine.hand_no == state.hand_no and mine.turn == state.turn
    with pytest.raises(TableError) as err:
        h.svc.hand_for(GUILD, CHANNEL, 99)
    assert err.value.code == "not_in_hand"


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_R15_short_stacks_all_in_and_broke_players_keep_the_ledger_exact(
    h: Harness, seed: int
) -> None:
    """Players who start with the minimum go all-in, win and pay in one step, sit out."""
    await h.store.update_server_settings(GUILD, by=1, starting_balance=600)
    await h.seat_four()
    await h.svc.start_game(GUILD, CHANNEL, USERS[0])
    await drive(
        h,
        lambda s: s is None or s.status != "playing" or s.hand_no >= 25,
        random_players(seed=seed),
    )
    await h.chips_conserved()
    balances = await h.store.balances(GUILD, list(USERS))
    state = h.state()
    escrow = await h.store.escrow(state.table_id) if state is not None else 0
    assert sum(balances.values()) + escrow == 600 * len(USERS)
    if state is not None and state.status == "lobby":
        assert len([u for u in USERS if balances[u] >= 60]) < 3
