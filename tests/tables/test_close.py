"""Force-close refunds, corrupted state at start, the carried big pot, CPU seats."""

from __future__ import annotations

import logging
import threading

import pytest

from bot.engine import Bet
from bot.players import make_player
from bot.store.models import TableSave
from bot.tables import TableError
from tests.tables.helpers import (
    CHANNEL,
    GUILD,
    USERS,
    Harness,
    Passer,
    drive,
    random_players,
)


async def test_force_close_right_after_the_antes_gives_every_chip_back(h: Harness) -> None:
    await h.seat_four()
    state = await h.svc.start_game(GUILD, CHANNEL, USERS[0])
    assert await h.store.escrow(state.table_id) == 240
    closed = await h.svc.force_close(GUILD, CHANNEL, 1)
    assert closed.status == "closed"
    assert await h.store.balances(GUILD, list(USERS)) == dict.fromkeys(USERS, 1000)
    assert (await h.store.get_table(state.table_id)).escrow == 0
    assert h.state() is None
    with pytest.raises(TableError) as err:
        await h.svc.act(GUILD, CHANNEL, USERS[0], "pass")
    assert err.value.code == "no_table"
    assert h.updates[-1].kind == "closed"
    assert "tables.force_closed" in [n.key for n in h.updates[-1].notices]


async def test_force_close_mid_hand_refunds_what_each_put_in_this_hand(h: Harness) -> None:
    await h.seat_four()
    await h.svc.start_game(GUILD, CHANNEL, USERS[0])
    players = random_players(seed=12)
    await drive(h, lambda s: s is not None and s.hand_no == 2, players)
    start = await h.store.balances(GUILD, list(USERS))  # antes of hand 2 paid
    start = {u: b + 60 for u, b in start.items()}
    target = h.state().turn + 6  # type: ignore[union-attr]
    state = await drive(h, lambda s: s is not None and s.turn >= target, players)
    assert state is not None and state.hand_no == 2
    table = h.svc._by_id[state.table_id]
    paid = dict(table.meta.in_play.paid)
    assert sum(paid.values()) == await h.store.escrow(state.table_id)
    await h.svc.force_close(GUILD, CHANNEL, 1)
    after = await h.store.balances(GUILD, list(USERS))
    for user in USERS:
        if paid.get(user, 0) >= 0:  # who put chips in gets them all back
            assert after[user] == start[user], user
        else:  # who already won a small pot keeps it
            assert after[user] == start[user] - paid[user]
    assert (await h.store.get_table(state.table_id)).escrow == 0


async def test_a_table_whose_state_is_corrupted_is_closed_with_refunds_at_start(
    h: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="stoppa")
    await h.seat_four()
    state = await h.svc.start_game(GUILD, CHANNEL, USERS[0])
    user = state.to_act
    assert user is not None
    await h.svc.act(GUILD, CHANNEL, user, "bet 40")
    await h.svc.stop()
    row = await h.store.get_table(state.table_id)
    assert row.escrow == 280
    await h.store.save_table(row.id, TableSave(row.version, state=row.state[:-20] + "}"))
    await h.restart()
    assert h.state() is None
    closed = await h.store.get_table(state.table_id)
    assert closed.status == "closed" and closed.escrow == 0
    assert await h.store.balances(GUILD, list(USERS)) == dict.fromkeys(USERS, 1000)
    assert any("cannot be loaded" in r.getMessage() for r in caplog.records)
    # the channel is free again
    await h.svc.open_table(GUILD, CHANNEL, USERS[0])


async def test_R10_carried_big_pot_stays_in_escrow_and_is_split_at_close(h: Harness) -> None:
    await h.store.set_stakes(GUILD, {"unclaimed_big_pot": "carry"}, by=1)
    await h.seat_four()
    state = await h.svc.start_game(GUILD, CHANNEL, USERS[0])
    assert state.stakes.unclaimed_big_pot == "carry"
    passers = {u: Passer() for u in USERS}
    # nobody ever bets: the dealer takes the small pots, the big pot is carried
    await drive(h, lambda s: s is not None and s.hand_no == 2, passers)
    now = h.state()
    assert now is not None
    big = 4 * 60 - 4 * 10
    assert now.carry == big and now.pots is not None and now.pots.carry == big
    assert await h.store.escrow(state.table_id) == big + 4 * 60
    balances = await h.store.balances(GUILD, list(USERS))
    eldest = now.eldest
    await h.svc.force_close(GUILD, CHANNEL, 1)
    after = await h.store.balances(GUILD, list(USERS))
    share, rest = divmod(big, 4)
    for user in USERS:
        extra = share + (rest if user == eldest else 0)
        assert after[user] == balances[user] + 60 + extra


async def test_stakes_are_copied_when_a_table_opens(h: Harness) -> None:
    await h.seat_four()
    await h.store.set_stakes(GUILD, {"ante": 50}, by=1)
    state = await h.svc.start_game(GUILD, CHANNEL, USERS[0])
    assert state.stakes.ante == 60 and await h.store.escrow(state.table_id) == 240
    await h.svc.open_table(GUILD, CHANNEL + 1, 21)
    assert h.state(CHANNEL + 1).stakes.ante == 50  # type: ignore[union-attr]


async def test_cpu_seats_choose_off_the_event_loop_and_play_whole_hands(h: Harness) -> None:
    threads: list[int] = []

    class Recording:
        def __init__(self, level: str, seed: int | None) -> None:
            self.inner = make_player(level, seed)
            self.name = self.inner.name

        def choose(self, view, legal, events=()):  # type: ignore[no-untyped-def]
            threads.append(threading.get_ident())
            return self.inner.choose(view, legal, events)

    await h.restart()
    h.svc.shared.player_factory = Recording
    await h.svc.open_table(GUILD, CHANNEL, 11)
    for level in ("random", "easy", "random"):
        await h.svc.add_cpu(GUILD, CHANNEL, 11, level)
    state = h.state()
    assert state is not None
    cpus = [s.user_id for s in state.seats if s.cpu]
    assert len(cpus) == 3 and len(set(cpus)) == 3 and all(u < 0 for u in cpus)
    with pytest.raises(TableError) as err:
        await h.svc.add_cpu(GUILD, CHANNEL, 11, "genius")
    assert err.value.code == "bad_level"
    await h.svc.start_game(GUILD, CHANNEL, 11)
    await drive(h, lambda s: s is not None and s.hand_no >= 3, random_players((11,), seed=3))
    assert threads and threading.get_ident() not in threads
    # the human leaves: a table without humans closes after the hand
    await h.svc.leave(GUILD, CHANNEL, 11)
    await drive(h, lambda s: s is None, {})
    assert h.svc.tables() == []


async def test_cpu_turn_is_taken_after_a_restart(h: Harness) -> None:
    await h.svc.stop()
    await h.store.close()
    await h.open(cpu_delay=2.0)  # CPUs think for 2 s of the fake clock
    await h.svc.open_table(GUILD, CHANNEL, 11)
    await h.svc.join(GUILD, CHANNEL, 12)
    await h.svc.add_cpu(GUILD, CHANNEL, 11, "random")
    await h.svc.start_game(GUILD, CHANNEL, 11)
    cpu = next(s.user_id for s in h.state().seats if s.cpu)  # type: ignore[union-attr]
    players = random_players((11, 12), seed=5)
    state = await drive(h, lambda s: s is not None and s.to_act == cpu, players)
    assert state is not None
    await h.restart()  # the CPU had not moved yet
    now = h.state()
    assert now is not None and now.turn == state.turn and now.to_act == cpu
    await h.clock.advance(2.0)
    await h.svc.wait_idle()
    now = h.state()
    assert now is not None and now.turn > state.turn
    assert [u.kind for u in h.updates].count("cpu") >= 1
    await h.svc.force_close(GUILD, CHANNEL, 1)


async def test_a_cpu_that_fails_or_cheats_gets_the_default_action(h: Harness) -> None:
    class Broken:
        name = "broken"
        calls = 0

        def __init__(self, level: str, seed: int | None) -> None:
            pass

        def choose(self, view, legal, events=()):  # type: ignore[no-untyped-def]
            Broken.calls += 1
            if Broken.calls % 2:
                raise RuntimeError("bug in a CPU player")
            return Bet(10**6)  # never legal

    h.svc.shared.player_factory = Broken
    await h.svc.open_table(GUILD, CHANNEL, 11)
    await h.svc.add_cpu(GUILD, CHANNEL, 11, "hard")
    await h.svc.add_cpu(GUILD, CHANNEL, 11, "hard")
    await h.svc.start_game(GUILD, CHANNEL, 11)
    await drive(h, lambda s: s is not None and s.hand_no >= 2, random_players((11,), seed=1))
    assert Broken.calls > 2
    assert [u.kind for u in h.updates].count("cpu") >= 2
    await h.svc.force_close(GUILD, CHANNEL, 1)
