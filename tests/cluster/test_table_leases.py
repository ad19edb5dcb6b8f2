"""Two table services (two processes: each its own store, pool and owner name) on ONE
database, on SQLite and on PostgreSQL (issue 17): a table is driven by one only; the other
takes it over once the first stops renewing its lease (fake lease clock) and the hand goes on
exactly where it was; a stale writer is refused and lets the table go; shards split the
tables by server; a clean stop hands the tables over at once."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.cluster.leases import LeasePolicy
from bot.cluster.shards import ShardPlan, shard_of
from bot.players import RandomPlayer
from bot.store import Store
from bot.tables import FakeClock, TableError, TableService, TableState
from bot.tables.leases import Ownership
from tests.store.conftest import postgres_schema

USERS = (11, 12, 13, 14)
POLICY = LeasePolicy(ttl=30.0, renew_every=10.0)


def guild_on_shard(shard: int, count: int = 2) -> int:
    """A server id that Discord puts on `shard` of `count`."""
    guild = (shard << 22) | 1
    assert shard_of(guild, count) == shard
    return guild


@dataclass
class Process:
    """One bot process as the table service sees it: its store and its service."""

    store: Any
    service: TableService
    updates: list[str] = field(default_factory=list)


@dataclass
class Cluster:
    """Processes on one database; one turn clock (no timer fires: long turns) and one lease
    clock that the test moves."""

    open_store: Callable[[], Any]
    turn_clock: FakeClock = field(default_factory=FakeClock)
    lease_clock: FakeClock = field(default_factory=FakeClock)
    processes: list[Process] = field(default_factory=list)

    async def start(self, name: str, shards: ShardPlan | None = None) -> Process:
        store = await self.open_store()
        ownership = Ownership(owner=name, shards=shards, policy=POLICY, clock=self.lease_clock)
        service = await TableService.start(
            store, clock=self.turn_clock, seed=5, turn_timeout=3600.0, ownership=ownership
        )
        process = Process(store, service)

        async def record(update: Any) -> None:
            process.updates.append(update.kind)

        service.subscribe(record)
        self.processes.append(process)
        return process

    async def advance(self, seconds: float) -> None:
        """Move the lease clock (beats run) and let every service settle."""
        await self.lease_clock.advance(seconds)
        for process in self.processes:
            await process.service.wait_idle()

    async def close(self) -> None:
        for process in self.processes:
            await process.service.stop()
        for process in self.processes:
            await process.store.close()


@pytest.fixture(params=["sqlite", "postgresql"])
async def cluster(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Cluster]:
    if request.param == "sqlite":
        path = str(tmp_path / "shared.db")

        async def open_sqlite() -> Any:
            return await Store.open(path)

        made = Cluster(open_sqlite)
        try:
            yield made
            assert await made.processes[0].store.audit() == []
        finally:
            await made.close()
        return
    async with postgres_schema() as schema:
        made = Cluster(schema)
        try:
            yield made
            assert await made.processes[0].store.audit() == []
        finally:
            for process in made.processes:
                await process.service.stop()


async def deal(service: TableService, guild: int, channel: int) -> TableState:
    """Open a table with four players and deal the first hand."""
    await service.open_table(guild, channel, USERS[0])
    for user in USERS[1:]:
        await service.join(guild, channel, user)
    return await service.start_game(guild, channel, USERS[0])


async def play(service: TableService, guild: int, channel: int, moves: int) -> TableState:
    """`moves` random legal actions by whoever is to act (all humans)."""
    players = {u: RandomPlayer(u) for u in USERS}
    state = service.state(channel)
    for _ in range(moves):
        assert state is not None and state.to_act is not None
        info = service.hand_for(guild, channel, state.to_act)
        action = players[state.to_act].choose(info.seat_view, list(info.actions), info.events)
        state = await service.act(guild, channel, state.to_act, action,
                                  expected_hand=state.hand_no, expected_turn=state.turn)
    assert state is not None
    return state


async def test_one_driver_then_a_takeover_where_the_hand_was(cluster: Cluster) -> None:
    guild, channel = guild_on_shard(0), 500
    a = await cluster.start("proc-a")
    b = await cluster.start("proc-b")
    await deal(a.service, guild, channel)
    before = await play(a.service, guild, channel, 5)
    await cluster.advance(POLICY.renew_every)  # a renews; b's scan finds the table held
    assert a.service.state(channel) is not None and b.service.state(channel) is None
    with pytest.raises(TableError):  # b does not drive it: no table there
        await b.service.act(guild, channel, before.to_act or 0, "pass")

    # a stops renewing (paused, crashed): its beat is gone, its memory still holds the table
    assert a.service.leases is not None and a.service.leases.task is not None
    a.service.leases.task.cancel()
    await cluster.advance(POLICY.ttl - POLICY.renew_every)  # not expired yet: b waits
    assert b.service.state(channel) is None
    await cluster.advance(POLICY.renew_every)  # expired: b's beat takes it over
    after = b.service.state(channel)
    assert after == before  # same hand, turn, pots, to act, deadline...
    hands = {u: b.service.hand_for(guild, channel, u).seat_view for u in USERS}
    assert hands == {u: a.service.hand_for(guild, channel, u).seat_view for u in USERS}

    # a wakes up and acts on its stale memory: refused by the fence, and it lets go
    version = (await b.store.get_table(before.table_id)).version
    info = a.service.hand_for(guild, channel, before.to_act or 0)
    with pytest.raises(TableError) as stale:
        await a.service.act(guild, channel, before.to_act or 0, info.actions[0],
                            expected_hand=before.hand_no, expected_turn=before.turn)
    assert stale.value.code == "busy"
    assert a.service.state(channel) is None
    assert (await b.store.get_table(before.table_id)).version == version  # nothing written

    # b goes on where the hand was
    later = await play(b.service, guild, channel, 3)
    assert (later.hand_no, later.turn) >= (before.hand_no, before.turn + 3)


async def test_a_clean_stop_hands_the_tables_over_at_once(cluster: Cluster) -> None:
    guild, channel = guild_on_shard(1), 501
    a = await cluster.start("proc-a")
    await deal(a.service, guild, channel)
    before = await play(a.service, guild, channel, 2)
    await a.service.stop()  # releases its leases
    b = await cluster.start("proc-b")  # resumes at once, no wait for an expiry
    assert b.service.state(channel) == before
    await play(b.service, guild, channel, 2)


async def test_each_process_resumes_and_takes_over_only_its_shards(cluster: Cluster) -> None:
    """Shards 0 and 1 of 2: each process drives the tables of its own servers only, at start
    and when the other one dies."""
    first, second = guild_on_shard(0), guild_on_shard(1)
    boot = await cluster.start("boot")  # one process (all shards) opens both tables
    await deal(boot.service, first, 600)
    await deal(boot.service, second, 601)
    await boot.service.stop()
    zero = await cluster.start("shard-0", ShardPlan(2, (0,)))
    one = await cluster.start("shard-1", ShardPlan(2, (1,)))
    assert [t.channel_id for t in zero.service.tables()] == [600]
    assert [t.channel_id for t in one.service.tables()] == [601]
    assert one.service.leases is not None and one.service.leases.task is not None
    one.service.leases.task.cancel()  # shard 1's process dies
    await cluster.advance(POLICY.ttl + POLICY.renew_every)
    assert [t.channel_id for t in zero.service.tables()] == [600]  # not its server: left
    assert (await zero.store.leased_tables("shard-0", cluster.lease_clock.now())) == [
        zero.service.tables()[0].table_id
    ]
