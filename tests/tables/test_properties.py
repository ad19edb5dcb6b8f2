"""Hypothesis: any sequence of actions, timeouts, leaves, joins, restarts and closes keeps the
ledger clean, chips conserved (R-15) and memory equal to the database."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.tables import TableError
from tests.tables.helpers import CHANNEL, GUILD, Harness, random_players

USERS = (11, 12, 13, 14, 15)

OPS = st.lists(
    st.one_of(
        st.tuples(st.just("act"), st.integers(1, 12)),
        st.tuples(st.just("timeout"), st.just(0)),
        st.tuples(st.just("leave"), st.sampled_from(USERS)),
        st.tuples(st.just("join"), st.sampled_from(USERS)),
        st.tuples(st.just("restart"), st.just(0)),
        st.tuples(st.just("call_round"), st.sampled_from(USERS)),
        st.tuples(st.just("force_close"), st.just(0)),
    ),
    min_size=1,
    max_size=14,
)


async def _memory_matches_store(h: Harness) -> None:
    for table in list(h.svc._by_id.values()):
        row = await h.store.get_table(table.id)
        assert row.version == table.row.version
        assert row.seats == table.row.seats
        if table.hand is not None and row.state is not None:
            assert table.hand.to_json() == row.state
        in_play = table.meta.in_play
        assert sum(v for v in in_play.paid.values()) + in_play.carry == row.escrow or (
            not table.in_hand and row.escrow == in_play.carry
        )


async def _run(ops: list[tuple[str, int]], seed: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        h = Harness(Path(folder) / "p.db")
        await h.open()
        players = random_players(USERS, seed=seed)
        try:
            await h.seat_four(USERS[:4])
            await h.svc.start_game(GUILD, CHANNEL, USERS[0])
            for op, arg in ops:
                state = h.state()
                try:
                    if op == "act" and state is not None:
                        for _ in range(arg):
                            state = h.state()
                            if state is None or state.to_act is None:
                                break
                            user = state.to_act
                            info = h.svc.hand_for(GUILD, CHANNEL, user)
                            action = players[user].choose(
                                info.seat_view, list(info.actions), info.events
                            )
                            await h.svc.act(GUILD, CHANNEL, user, action, expected_turn=state.turn)
                    elif op == "timeout":
                        await h.clock.advance(61.0)
                    elif op == "leave" and state is not None:
                        await h.svc.leave(GUILD, CHANNEL, arg)
                    elif op == "join" and state is not None:
                        await h.svc.join(GUILD, CHANNEL, arg)
                    elif op == "restart":
                        await h.restart()
                    elif op == "call_round" and state is not None:
                        await h.svc.call_round(GUILD, CHANNEL, arg)
                    elif op == "force_close" and state is not None:
                        await h.svc.force_close(GUILD, CHANNEL, 1)
                except TableError:
                    pass  # refused requests (not seated, table full...) change nothing
                await h.svc.wait_idle()
                await h.chips_conserved()
                await _memory_matches_store(h)
        finally:
            await h.close()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=OPS, seed=st.integers(0, 1000))
def test_R15_any_sequence_keeps_chips_and_memory_consistent(
    ops: list[tuple[str, int]], seed: int
) -> None:
    import asyncio

    asyncio.run(_run(ops, seed))
