"""Absent players (issue 20): two turn timeouts in a row sit a player out; their turns are
passed for them until they are back; after a whole hand sat out they leave, chips intact."""

from __future__ import annotations

from bot.tables import TableState
from tests.tables.helpers import CHANNEL, GUILD, USERS, Harness, drive, random_players

SLEEPY = USERS[2]


async def _sit_out(h: Harness, seed: int = 5) -> TableState:
    """Start a table of four and let SLEEPY's clock run out twice in a row."""
    await h.seat_four()
    await h.svc.start_game(GUILD, CHANNEL, USERS[0])
    players = random_players(seed=seed)
    for _ in range(2):
        state = await drive(h, lambda s: s is not None and s.to_act == SLEEPY, players)
        assert state is not None and state.hand_no == 1, "the hand ended first"
        await h.clock.advance(61.0)
        await h.svc.wait_idle()
    state = h.state()
    assert state is not None
    return state


def _others(seed: int) -> dict[int, object]:
    return {u: p for u, p in random_players(seed=seed).items() if u != SLEEPY}


async def test_two_timeouts_sit_the_player_out_and_their_turns_pass(h: Harness) -> None:
    state = await _sit_out(h)
    seat = state.seat_of(SLEEPY)
    assert seat is not None and seat.away and seat.status == "playing"
    keys = [n.key for u in h.updates for n in u.notices]
    assert "living.sat_out" in keys and "tables.timeouts_removed" not in keys
    # nobody waits for them: the others play on without the clock moving, and it is never
    # their turn; the hand ends and they are still seated (sat out in the middle of it)
    turns_before = sum(1 for u in h.updates if u.kind == "timeout")
    now = await drive(h, lambda s: s is not None and s.hand_no == 2, _others(1),
                      skip=lambda s: s.to_act == SLEEPY)
    assert now is not None and now.to_act != SLEEPY
    assert sum(1 for u in h.updates if u.kind == "timeout") == turns_before
    assert now.seat_of(SLEEPY) is not None and now.seat_of(SLEEPY).away  # type: ignore[union-attr]
    assert SLEEPY in now.players  # dealt in, played for


async def test_a_sat_out_player_is_back(h: Harness) -> None:
    await _sit_out(h)
    after = await h.svc.back(GUILD, SLEEPY)
    assert after is not None
    assert not after.seat_of(SLEEPY).away  # type: ignore[union-attr]
    assert h.updates[-1].kind == "back"
    assert [n.key for n in h.updates[-1].notices] == ["living.back"]
    # their turn comes again: it waits for them (the clock runs for them as for anyone)
    state = await drive(h, lambda s: s is not None and s.to_act == SLEEPY, _others(2),
                        max_actions=4000)
    assert state is not None and state.to_act == SLEEPY and state.deadline is not None
    # a second "back" changes nothing
    count = len(h.updates)
    await h.svc.back(GUILD, SLEEPY)
    assert len(h.updates) == count
    # nobody else is touched by someone else's back
    assert await h.svc.back(GUILD, 999) is None


async def test_a_whole_hand_sat_out_leaves_with_chips_intact(h: Harness) -> None:
    state = await _sit_out(h)
    now = await drive(h, lambda s: s is None or SLEEPY not in [x.user_id for x in s.seats],
                      _others(3), skip=lambda s: s.to_act == SLEEPY)
    assert now is not None, "the table closed"
    assert now.hand_no == 3, "they leave at the end of the first whole hand sat out (hand 2)"
    assert "living.away_removed" in [n.key for u in h.updates for n in u.notices]
    assert h.svc.table_of(GUILD, SLEEPY) is None
    # their chips: the balance the store holds is the sum of the ledger, and equals what
    # they had before the table plus every hand's net result for them (nothing lost)
    records = await h.store.hand_history(state.table_id, limit=10)
    net = sum({int(k): v for k, v in r.result.items()}.get(SLEEPY, 0) for r in records)
    assert len(records) == 2
    starting = (await h.store.server_settings(GUILD)).starting_balance
    assert await h.store.balance(GUILD, SLEEPY) == starting + net


async def test_sat_out_state_survives_a_restart(h: Harness) -> None:
    state = await _sit_out(h)
    await h.restart()
    resumed = h.state()
    assert resumed is not None and resumed.hand_no == state.hand_no
    assert resumed.seat_of(SLEEPY).away  # type: ignore[union-attr]
    # still passed for after the restart, and still able to come back
    now = await drive(h, lambda s: s is not None and s.hand_no == 2, _others(4),
                      skip=lambda s: s.to_act == SLEEPY)
    assert now is not None and now.to_act != SLEEPY
    back = await h.svc.back(GUILD, SLEEPY)
    assert back is not None and not back.seat_of(SLEEPY).away  # type: ignore[union-attr]


async def test_the_count_is_a_table_setting(h: Harness) -> None:
    h.service_kwargs["max_timeouts"] = 1
    await h.restart()
    await h.seat_four()
    await h.svc.start_game(GUILD, CHANNEL, USERS[0])
    state = await drive(h, lambda s: s is not None and s.to_act == SLEEPY, random_players(seed=5))
    assert state is not None
    await h.clock.advance(61.0)
    await h.svc.wait_idle()
    after = h.state()
    assert after is not None and after.seat_of(SLEEPY).away  # type: ignore[union-attr]


async def test_a_player_leaves_the_queue_of_a_table_not_started(h: Harness) -> None:
    await h.svc.open_table(GUILD, CHANNEL, USERS[0])
    for user in USERS[1:3]:
        await h.svc.join(GUILD, CHANNEL, user)
    after = await h.svc.leave(GUILD, CHANNEL, USERS[1])
    assert [s.user_id for s in after.seats] == [USERS[0], USERS[2]]
    assert after.status == "lobby" and h.svc.table_of(GUILD, USERS[1]) is None
    # free to queue at another table of the server at once
    await h.svc.open_table(GUILD, CHANNEL + 1, USERS[1])
    assert h.svc.table_of(GUILD, USERS[1]) is not None
    assert [s.table_id for s in h.svc.open_tables(GUILD)] == [after.table_id, after.table_id + 1]
