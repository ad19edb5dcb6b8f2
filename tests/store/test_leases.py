"""Table leases (issue 17): never two owners, steal only after expiry, one winner of 50
concurrent acquires, renew/release only by the owner, and the resume listing by server.
Every test runs on SQLite and on PostgreSQL with two stores on one database (two processes),
on a fake clock (`now` is always the caller's)."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import LeaseLost, Move, StoreContract
from bot.store.models import TableSave

from .conftest import GUILD, OTHER_GUILD

T0 = 1_000_000.0


async def test_acquire_free_then_refused_to_another_owner(
    two_stores: tuple[StoreContract, StoreContract],
) -> None:
    a, b = two_stores
    table = await a.create_table(GUILD, 1, settings={})
    first = await a.acquire_lease(table.id, "proc-a", 30, T0)
    assert (first.granted, first.owner, first.expires_at) == (True, "proc-a", T0 + 30)
    refused = await b.acquire_lease(table.id, "proc-b", 30, T0 + 29.9)
    assert (refused.granted, refused.owner, refused.expires_at) == (False, "proc-a", T0 + 30)
    assert await a.leased_tables("proc-a", T0 + 29.9) == [table.id]
    assert await b.leased_tables("proc-b", T0 + 29.9) == []


async def test_steal_only_after_expiry_and_reacquire_by_owner(
    two_stores: tuple[StoreContract, StoreContract],
) -> None:
    a, b = two_stores
    table = await a.create_table(GUILD, 1, settings={})
    await a.acquire_lease(table.id, "proc-a", 10, T0)
    again = await a.acquire_lease(table.id, "proc-a", 10, T0 + 5)  # ours: extended
    assert again.granted and again.expires_at == T0 + 15
    assert not (await b.acquire_lease(table.id, "proc-b", 10, T0 + 14)).granted
    stolen = await b.acquire_lease(table.id, "proc-b", 10, T0 + 15)  # expired: taken over
    assert (stolen.granted, stolen.owner) == (True, "proc-b")
    assert await a.leased_tables("proc-a", T0 + 15) == []
    assert await b.leased_tables("proc-b", T0 + 15) == [table.id]
    assert not await a.renew_lease(table.id, "proc-a", 10, T0 + 16)  # lost: cannot renew


async def test_renew_only_by_owner_before_expiry_and_release(
    two_stores: tuple[StoreContract, StoreContract],
) -> None:
    a, b = two_stores
    table = await a.create_table(GUILD, 1, settings={})
    await a.acquire_lease(table.id, "proc-a", 10, T0)
    assert not await b.renew_lease(table.id, "proc-b", 10, T0 + 1)
    assert await a.renew_lease(table.id, "proc-a", 10, T0 + 9)
    assert (await b.acquire_lease(table.id, "proc-b", 10, T0 + 18)).owner == "proc-a"
    assert not await a.renew_lease(table.id, "proc-a", 10, T0 + 19)  # expired at T0 + 19
    assert not await b.release_lease(table.id, "proc-b")  # not theirs to release
    assert await a.release_lease(table.id, "proc-a")
    assert (await b.acquire_lease(table.id, "proc-b", 10, T0 + 19)).granted


async def test_50_concurrent_acquires_give_exactly_one_owner(
    two_stores: tuple[StoreContract, StoreContract],
) -> None:
    a, b = two_stores
    table = await a.create_table(GUILD, 1, settings={})
    await a.acquire_lease(table.id, "old", 5, T0)  # an expired holder, to steal from
    leases = await asyncio.gather(
        *((a if i % 2 else b).acquire_lease(table.id, f"proc-{i}", 30, T0 + 10) for i in range(50))
    )
    winners = [lease for lease in leases if lease.granted]
    assert len(winners) == 1
    winner = winners[0].owner
    assert all(lease.owner == winner for lease in leases)  # every loser sees the one winner
    holders = [o for o in [f"proc-{i}" for i in range(50)] if await a.leased_tables(o, T0 + 11)]
    assert holders == [winner]


async def test_open_tables_of_given_servers(store: StoreContract) -> None:
    mine = await store.create_table(GUILD, 1, settings={})
    other = await store.create_table(OTHER_GUILD, 2, settings={})
    closed = await store.create_table(GUILD, 3, settings={})
    await store.close_table(closed.id, expected_version=0)
    assert [t.id for t in await store.load_open_tables()] == [mine.id, other.id]
    assert [t.id for t in await store.load_open_tables([GUILD])] == [mine.id]
    assert [t.id for t in await store.load_open_tables({OTHER_GUILD, 999})] == [other.id]
    assert await store.load_open_tables([]) == []


async def test_bad_owner_or_ttl_refused(store: StoreContract) -> None:
    table = await store.create_table(GUILD, 1, settings={})
    for owner, ttl in (("", 10), ("proc", 0), ("proc", -1), ("proc", float("inf"))):
        with pytest.raises(ValueError):
            await store.acquire_lease(table.id, owner, ttl, T0)
    assert await store.leased_tables("proc", T0) == []


async def test_a_fenced_save_applies_only_while_the_writer_holds_the_lease(
    two_stores: tuple[StoreContract, StoreContract],
) -> None:
    """The fence of `save_table`/`close_table`: a paused process that wakes after its lease
    was taken over cannot write a single row (not even chips), whatever its version says."""
    a, b = two_stores
    table = await a.create_table(GUILD, 1, settings={}, seats=[7])
    await a.acquire_lease(table.id, "proc-a", 10, T0)
    ante = [Move(7, 5, "ante", hand_no=1)]
    saved = await a.save_table(
        table.id,
        TableSave(0, state="s1", moves=ante),
        lease_owner="proc-a",
        now=T0 + 1,
    )
    assert (saved.version, saved.state, saved.escrow) == (1, "s1", 5)
    with pytest.raises(LeaseLost) as refused:  # not the holder
        await b.save_table(table.id, TableSave(1, state="b"), lease_owner="proc-b", now=T0 + 2)
    assert refused.value.table_id == table.id
    assert "another copy of the bot" in refused.value.message("en")
    assert "un'altra copia del bot" in refused.value.message("it")
    assert (await b.acquire_lease(table.id, "proc-b", 10, T0 + 10)).granted  # a expired
    balance = await a.balance(GUILD, 7)
    for stale in (
        a.save_table(
            table.id,
            TableSave(1, state="late", moves=ante),
            lease_owner="proc-a",
            now=T0 + 10.5,
        ),
        a.close_table(table.id, expected_version=1, refunds=[Move(7, -5, "refund", 1)],
                      lease_owner="proc-a", now=T0 + 10.5),
        # even with a clock that lags behind the expiry, the lease is b's now
        a.save_table(table.id, TableSave(1, state="late"), lease_owner="proc-a", now=T0 + 5),
    ):
        with pytest.raises(LeaseLost):
            await stale
    row = await b.get_table(table.id)
    assert (row.version, row.state, row.escrow) == (1, "s1", 5)
    assert await a.balance(GUILD, 7) == balance
    closed = await b.close_table(table.id, expected_version=1,
                                 refunds=[Move(7, -5, "refund", 1)], lease_owner="proc-b",
                                 now=T0 + 11)
    assert (closed.status, closed.escrow) == ("closed", 0)


async def test_an_unfenced_save_ignores_leases(store: StoreContract) -> None:
    """Without `lease_owner` (one process, the embedded default) nothing changes."""
    table = await store.create_table(GUILD, 1, settings={})
    await store.acquire_lease(table.id, "someone", 10, T0)
    saved = await store.save_table(table.id, TableSave(0, state="x"))
    assert saved.state == "x"


async def test_renew_every_lease_of_an_owner_in_one_statement(
    two_stores: tuple[StoreContract, StoreContract],
) -> None:
    a, b = two_stores
    ids = [(await a.create_table(GUILD, channel, settings={})).id for channel in (1, 2, 3)]
    await a.acquire_lease(ids[0], "proc-a", 10, T0)
    await a.acquire_lease(ids[1], "proc-a", 10, T0 + 5)
    await b.acquire_lease(ids[2], "proc-b", 10, T0)
    assert await a.renew_leases("proc-a", 10, T0 + 9) == ids[:2]
    assert await a.renew_leases("proc-a", 10, T0 + 19.5) == []  # both ran out at T0 + 19
    assert (await b.acquire_lease(ids[0], "proc-b", 10, T0 + 20)).granted
    assert await b.renew_leases("proc-b", 10, T0 + 21) == [ids[0]]  # ids[2] expired at T0+10
