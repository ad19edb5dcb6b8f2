"""A bot process killed with SIGKILL in the middle of a hand, on PostgreSQL (issue 17): no
clean stop, no lease released. Another process takes the table once the lease has expired,
the hand goes on where it was, and nothing is lost (ledger audit, chips conserved)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time

from bot.cluster.leases import LeasePolicy
from bot.players import RandomPlayer
from bot.tables import FakeClock, TableService
from bot.tables.leases import Ownership
from tests.store.conftest import postgres_schema

GUILD, CHANNEL, USERS = 1, 700, (11, 12, 13, 14)
POLICY = LeasePolicy(ttl=2.0, renew_every=1.0)

VICTIM = """
import asyncio, json, sys
from bot.cluster.leases import LeasePolicy
from bot.players import RandomPlayer
from bot.store import open_store
from bot.tables import FakeClock, TableService
from bot.tables.leases import Ownership

async def main(url):
    store = await open_store(url)
    ownership = Ownership(owner="victim", policy=LeasePolicy(ttl=2.0, renew_every=1.0))
    svc = await TableService.start(store, clock=FakeClock(), seed=3, turn_timeout=3600.0,
                                   ownership=ownership)
    await svc.open_table(1, 700, 11)
    for user in (12, 13, 14):
        await svc.join(1, 700, user)
    state = await svc.start_game(1, 700, 11)
    players = {u: RandomPlayer(u) for u in (11, 12, 13, 14)}
    for _ in range(7):
        info = svc.hand_for(1, 700, state.to_act)
        action = players[state.to_act].choose(info.seat_view, list(info.actions), info.events)
        state = await svc.act(1, 700, state.to_act, action, expected_hand=state.hand_no,
                              expected_turn=state.turn)
    print(json.dumps({"table": state.table_id, "hand": state.hand_no, "turn": state.turn}),
          flush=True)
    await asyncio.sleep(3600)  # killed here, in the middle of the hand

asyncio.run(main(sys.argv[1]))
"""


async def test_a_process_killed_mid_hand_loses_nothing() -> None:
    async with postgres_schema() as schema:
        store = await schema()  # creates the schema's tables before the victim starts
        victim = subprocess.Popen([sys.executable, "-c", VICTIM, schema.url],
                                  stdout=subprocess.PIPE, text=True)
        try:
            assert victim.stdout is not None
            line = await asyncio.to_thread(victim.stdout.readline)
            assert line, "the victim process died before it played"
            before = json.loads(line)
            os.kill(victim.pid, signal.SIGKILL)
            victim.wait(timeout=10)
        finally:
            if victim.poll() is None:
                victim.kill()
        row = await store.get_table(before["table"])
        heir = await TableService.start(
            store, clock=FakeClock(), seed=4, turn_timeout=3600.0,
            ownership=Ownership(owner="heir", policy=POLICY),
        )
        try:
            deadline = time.monotonic() + 15
            while heir.state(CHANNEL) is None and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            state = heir.state(CHANNEL)
            assert state is not None, "the table was not taken over after its lease expired"
            assert await store.leased_tables("heir", time.time()) == [row.id]
            assert (state.hand_no, state.turn) == (before["hand"], before["turn"])
            assert (await store.get_table(row.id)).version == row.version  # nothing lost
            players = {u: RandomPlayer(u) for u in USERS}
            for _ in range(3):  # and the hand goes on
                assert state.to_act is not None
                info = heir.hand_for(GUILD, CHANNEL, state.to_act)
                action = players[state.to_act].choose(info.seat_view, list(info.actions),
                                                      info.events)
                state = await heir.act(GUILD, CHANNEL, state.to_act, action,
                                       expected_hand=state.hand_no, expected_turn=state.turn)
            assert state.turn > before["turn"]
        finally:
            await heir.stop()
        assert await store.audit() == []
        balances, escrow, minted = await store.total_chips(GUILD)
        assert balances + escrow == minted
