"""Restart in the middle of every phase: the table continues exactly where it was."""

from __future__ import annotations

import pytest

from bot.tables import TableState
from tests.tables.helpers import CHANNEL, GUILD, USERS, Harness, drive, random_players

PHASES = ("small_point", "showdown", "big_point", "stoppa")


def _at(phase: str):
    def until(state: TableState | None) -> bool:
        return state is not None and state.phase == phase and state.to_act is not None

    return until


@pytest.mark.parametrize("phase", PHASES)
async def test_restart_in_every_phase_then_finish_the_game(h: Harness, phase: str) -> None:
    await h.seat_four()
    await h.svc.start_game(GUILD, CHANNEL, USERS[0])
    players = random_players(seed=PHASES.index(phase) + 10)
    before = await drive(h, _at(phase), players)
    assert before is not None
    hands = {u: h.svc.hand_for(GUILD, CHANNEL, u) for u in USERS}
    escrow = await h.store.escrow(before.table_id)

    await h.restart()

    after = h.state()
    assert after is not None
    assert after == before  # same cards counts, turn, pots, betting, events, deadline...
    for user in USERS:
        again = h.svc.hand_for(GUILD, CHANNEL, user)
        assert again.seat_view == hands[user].seat_view  # same cards in every hand
        assert again.actions == hands[user].actions
    assert await h.store.escrow(after.table_id) == escrow
    await h.chips_conserved()
    # finish: play a little more, restart again between moves, call the round
    await drive(h, lambda s: s is not None and s.turn >= after.turn + 5, players)
    await h.restart()
    await h.svc.call_round(GUILD, CHANNEL, USERS[2])
    await drive(h, lambda s: s is None, players)
    row = await h.store.get_table(after.table_id)
    assert row.status == "closed" and row.escrow == 0
    balances = await h.store.balances(GUILD, list(USERS))
    assert sum(balances.values()) == 1000 * len(USERS)


async def test_restart_between_hands_deals_the_next_hand(h: Harness) -> None:
    """A crash after a hand's last commit and before the next deal resumes with the deal."""
    await h.seat_four()
    await h.svc.start_game(GUILD, CHANNEL, USERS[0])
    svc = h.svc

    async def crash(*args: object, **kwargs: object) -> list:
        raise RuntimeError("crash between hands")

    playing = h.state()
    assert playing is not None
    session = svc.session(playing.table_id)
    assert session is not None
    session.next_hand = crash  # type: ignore[method-assign]
    # the last action of the hand is committed and published even though the deal failed
    await drive(h, lambda s: s is not None and s.phase == "over", random_players(seed=4))
    assert h.updates[-1].kind == "hand_over"
    state = h.state()
    assert state is not None and state.hand_no == 1 and state.phase == "over"
    assert await h.store.escrow(state.table_id) == 0
    assert len(await h.store.hand_history(state.table_id, limit=5)) == 1
    await h.restart()
    resumed = h.state()
    assert resumed is not None and resumed.hand_no == 2 and resumed.status == "playing"
    assert resumed.to_act is not None
    assert await h.store.escrow(state.table_id) == 4 * 60
    assert len(await h.store.hand_history(state.table_id, limit=5)) == 1


async def test_lobby_and_seats_survive_a_restart(h: Harness) -> None:
    await h.svc.open_table(GUILD, CHANNEL, 11)
    await h.svc.join(GUILD, CHANNEL, 12)
    await h.svc.add_cpu(GUILD, CHANNEL, 11, "random")
    await h.restart()
    state = h.state()
    assert state is not None and state.status == "lobby"
    assert [s.user_id for s in state.seats][:2] == [11, 12]
    assert state.seats[2].cpu == "random" and state.seats[2].user_id < 0
    await h.svc.join(GUILD, CHANNEL, 13)
    await h.svc.start_game(GUILD, CHANNEL, 13)
    assert h.state().status == "playing"  # type: ignore[union-attr]
    await h.svc.force_close(GUILD, CHANNEL, 1)
