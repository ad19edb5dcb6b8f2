"""Table leases (issue 17, traffic): the pure rule on a fake clock, and the store's lease
statements and write fence on a real SQLite file (two stores, as two processes), checked
against the rule step by step."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.cluster.leases import Lease, LeasePolicy, new_owner_id
from bot.store import LeaseLost, Store
from bot.store.models import TableSave

T0 = 1_000.0


def policy() -> LeasePolicy:
    return LeasePolicy(ttl=30.0, renew_every=10.0)


def granted(lease: Lease | None) -> Lease:
    assert lease is not None
    return lease


def test_a_free_table_is_acquired() -> None:
    rule = policy()
    lease = rule.claim(None, 7, "A", T0)
    assert lease == Lease(7, "A", 1_030.0)
    assert rule.holds(lease, "A", T0) and not rule.holds(lease, "B", T0)


def test_only_the_owner_renews() -> None:
    rule = policy()
    lease = granted(rule.claim(None, 7, "A", T0))
    assert not rule.renew_due(lease, T0 + 9.9)
    assert rule.renew_due(lease, T0 + 10)
    renewed = granted(rule.claim(lease, 7, "A", T0 + 10))
    assert renewed == Lease(7, "A", 1_040.0)
    assert not rule.renew_due(renewed, T0 + 10)
    assert rule.claim(renewed, 7, "B", T0 + 10) is None  # running: refused to anyone else
    assert rule.renew(renewed, "B", T0 + 10) is None
    assert not rule.holds(renewed, "B", T0 + 10)  # and B may not write


def test_a_lease_is_stolen_only_after_it_expired() -> None:
    rule = policy()
    lease = granted(rule.claim(None, 7, "A", T0))
    assert rule.claim(lease, 7, "B", lease.expires_at - 0.001) is None
    stolen = granted(rule.claim(lease, 7, "B", lease.expires_at))
    assert stolen == Lease(7, "B", lease.expires_at + 30.0)
    assert not rule.holds(stolen, "A", lease.expires_at)  # the old owner's late write: refused
    assert rule.free_at(stolen) == stolen.expires_at


def test_an_owner_may_not_write_after_its_lease_ran_out() -> None:
    rule = policy()
    lease = granted(rule.claim(None, 7, "A", T0))
    assert rule.holds(lease, "A", T0 + 29.9)
    assert not rule.holds(lease, "A", lease.expires_at)
    assert rule.renew(lease, "A", lease.expires_at) is None


@pytest.mark.parametrize(("ttl", "renew"), [(0, 1), (30, 0), (30, 16), (-1, -1)])
def test_bad_timings_are_refused(ttl: float, renew: float) -> None:
    with pytest.raises(ValueError):
        LeasePolicy(ttl=ttl, renew_every=renew)


STEPS = st.lists(
    st.tuples(st.sampled_from(["claim", "renew", "write", "release", "wait"]),
              st.sampled_from(["A", "B", "C"]),
              st.sampled_from([0.0, 1.0, 9.5, 10.0, 29.9, 30.0, 45.0])),
    min_size=1, max_size=30,
)


async def follow(path: Path, steps: list[tuple[str, str, float]]) -> None:
    """Run `steps` on two stores of one file (A on the first, B and C on the second) and
    check each outcome, and the lease as the store keeps it, against `LeasePolicy`."""
    first, second = await Store.open(path), await Store.open(path)
    try:
        table = await first.create_table(1, 1, settings={})
        rule, now, version = policy(), T0, 0
        model: Lease | None = None
        believed: dict[str, Lease] = {}  # each process's last grant: what it thinks it holds
        for op, owner, wait in steps:
            store = first if owner == "A" else second
            if op == "wait":
                now += wait
            elif op == "claim":
                expected = rule.claim(model, table.id, owner, now)
                lease = await store.acquire_lease(table.id, owner, rule.ttl, now)
                assert lease.granted == (expected is not None)
                if expected is not None:
                    model = believed[owner] = expected
            elif op == "renew":
                expected = rule.renew(model, owner, now)
                assert await store.renew_lease(table.id, owner, rule.ttl, now) == (
                    expected is not None
                )
                if expected is not None:
                    model = believed[owner] = expected
            elif op == "write":
                may = rule.holds(model, owner, now)
                try:
                    await store.save_table(
                        table.id,
                        TableSave(version, state=owner),
                        lease_owner=owner,
                        now=now,
                    )
                    version += 1
                    assert may
                except LeaseLost:
                    assert not may
            else:
                released = await store.release_lease(table.id, owner)
                assert released == (model is not None and model.owner == owner)
                if released:
                    model = None
                believed.pop(owner, None)
            if model is not None:  # the store lists the lease exactly while the rule says held
                held = await first.leased_tables(model.owner, now)
                assert (held == [table.id]) == rule.holds(model, model.owner, now)
            holders = [name for name, lease in believed.items() if rule.holds(lease, name, now)]
            assert len(holders) <= 1, (holders, now)
        assert (await first.get_table(table.id)).version == version
    finally:
        await first.close()
        await second.close()


@settings(max_examples=40, deadline=None)
@given(steps=STEPS)
def test_the_store_follows_the_rule_and_there_are_never_two_owners(
    tmp_path_factory: pytest.TempPathFactory, steps: list[tuple[str, str, float]]
) -> None:
    """Any interleaving of claims (acquire/keep/take over), renewals, fenced writes, releases
    and waits by three processes on two stores: the store does what `LeasePolicy` says, a
    write lands only while its writer holds the lease, and never do two processes hold it."""
    path = tmp_path_factory.mktemp("leases") / "l.db"
    asyncio.run(follow(path, steps))


async def test_two_stores_claiming_at_once_never_both_win(tmp_path: Path) -> None:
    """Two stores (as two processes) claim the same 60 tables at the same moment: every
    table has exactly one owner, the one the database kept."""
    path = tmp_path / "race.db"
    a, b = await Store.open(path), await Store.open(path)
    try:
        ids = [(await a.create_table(1, channel, settings={})).id for channel in range(60)]

        async def claim_all(store: Store, owner: str) -> set[int]:
            leases = await asyncio.gather(*(store.acquire_lease(t, owner, 30, T0) for t in ids))
            return {lease.table_id for lease in leases if lease.granted}

        won_a, won_b = await asyncio.gather(claim_all(a, "A"), claim_all(b, "B"))
        assert won_a.isdisjoint(won_b) and won_a | won_b == set(ids)
        assert set(await a.leased_tables("A", T0)) == won_a
        assert set(await b.leased_tables("B", T0)) == won_b
    finally:
        await a.close()
        await b.close()


def test_every_process_start_has_its_own_owner_id() -> None:
    first, second = new_owner_id(), new_owner_id()
    assert first != second
    assert first.split(":")[1] == str(os.getpid())
