"""Turn clock with a fake clock: timeouts apply the default action, 2 in a row remove."""

from __future__ import annotations

from bot.tables import TableState
from tests.tables.helpers import CHANNEL, GUILD, USERS, Harness, drive, random_players


async def _start(h: Harness) -> TableState:
    await h.seat_four()
    return await h.svc.start_game(GUILD, CHANNEL, USERS[0])


async def test_timeout_applies_the_default_action(h: Harness) -> None:
    state = await _start(h)
    assert state.deadline == h.clock.now() + 60.0
    user = state.to_act
    await h.clock.advance(59.0)
    await h.svc.wait_idle()
    assert h.state().turn == state.turn  # type: ignore[union-attr]
    await h.clock.advance(2.0)
    await h.svc.wait_idle()
    after = h.state()
    assert after is not None and after.turn == state.turn + 1
    timeout = next(u for u in h.updates if u.kind == "timeout")
    notice = timeout.notices[0]
    assert notice.key == "tables.timeout.pass" and notice.params["player"] == user
    assert notice.text("en", {user: "Anna"}) == "Anna timed out: passes."  # type: ignore[dict-item]
    assert "Anna" in notice.text("it", {user: "Anna"})  # type: ignore[dict-item]
    assert any(e.kind == "pass" and e.user == user for e in timeout.events)
    # the next player has a fresh deadline
    assert after.deadline == h.clock.now() + 60.0


async def test_server_turn_timeout_overrides_the_default(h: Harness) -> None:
    await h.store.update_server_settings(GUILD, by=1, turn_timeout=15.0)
    state = await _start(h)
    assert state.deadline == h.clock.now() + 15.0
    await h.clock.advance(16.0)
    await h.svc.wait_idle()
    assert h.state().turn == state.turn + 1  # type: ignore[union-attr]


async def test_two_timeouts_in_a_row_remove_the_player_after_the_hand(h: Harness) -> None:
    # the table setting "leave" (issue 20 made "sit_out" the default: tests/tables/test_away.py)
    h.service_kwargs["away_mode"] = "leave"
    await h.restart()
    await _start(h)
    sleepy = USERS[2]
    players = random_players(seed=5)
    timeouts = 0
    while timeouts < 2:
        state = await drive(h, lambda s: s is not None and s.to_act == sleepy, players)
        assert state is not None and state.hand_no == 1, "the hand ended first"
        await h.clock.advance(61.0)
        await h.svc.wait_idle()
        timeouts += 1
    state = h.state()
    assert state is not None
    assert state.seat_of(sleepy).status == "leaving"  # type: ignore[union-attr]
    keys = [n.key for u in h.updates for n in u.notices]
    assert "tables.timeouts_removed" in keys
    # from now on the sleepy player's turns are played at once: nobody waits for them
    await drive(h, lambda s: s is not None and s.hand_no == 2, players)
    state = h.state()
    assert state is not None
    assert sleepy not in [s.user_id for s in state.seats]
    assert sleepy not in state.players and len(state.players) == 3
    assert h.svc.table_of(GUILD, sleepy) is None


async def test_a_player_who_acts_resets_the_count(h: Harness) -> None:
    await _start(h)
    user = USERS[1]
    players = random_players(seed=6)
    state = await drive(h, lambda s: s is not None and s.to_act == user, players)
    await h.clock.advance(61.0)
    await h.svc.wait_idle()
    state = await drive(h, lambda s: s is not None and s.to_act == user, players)
    assert state is not None
    info = h.svc.hand_for(GUILD, CHANNEL, user)
    await h.svc.act(GUILD, CHANNEL, user, info.actions[0])
    state = await drive(h, lambda s: s is not None and s.to_act == user, players)
    await h.clock.advance(61.0)
    await h.svc.wait_idle()
    state = h.state()
    assert state is not None
    if state.seat_of(user) is not None:
        assert state.seat_of(user).status != "leaving"  # type: ignore[union-attr]
    assert "tables.timeouts_removed" not in [n.key for u in h.updates for n in u.notices]


async def test_deadline_is_rearmed_after_a_restart(h: Harness) -> None:
    state = await _start(h)
    deadline = state.deadline
    await h.clock.advance(30.0)
    await h.restart()
    resumed = h.state()
    assert resumed is not None and resumed.deadline == deadline
    await h.clock.advance(29.0)
    await h.svc.wait_idle()
    assert h.state().turn == state.turn  # type: ignore[union-attr]
    await h.clock.advance(2.0)
    await h.svc.wait_idle()
    assert h.state().turn == state.turn + 1  # type: ignore[union-attr]
    assert [u.kind for u in h.updates].count("timeout") == 1


async def test_deadline_passed_while_down_fires_at_start(h: Harness) -> None:
    state = await _start(h)
    await h.svc.stop()
    await h.clock.advance(600.0)
    await h.restart()
    await h.svc.wait_idle()
    assert h.state().turn == state.turn + 1  # type: ignore[union-attr]
