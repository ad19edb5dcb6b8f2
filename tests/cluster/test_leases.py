"""Table leases (issue 17, traffic): the pure rule on a fake clock, and the SQL that the store
will run, on a real SQLite file, checked against the rule step by step."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.cluster.leases import (
    ACQUIRE_SQL,
    CREATE_SQL,
    FENCE_SQL,
    RELEASE_SQL,
    Lease,
    LeasePolicy,
    acquire_sql,
    for_dialect,
)


@dataclass
class FakeClock:
    now: float = 1_000.0

    def __call__(self) -> float:
        return self.now


def policy(clock: FakeClock) -> LeasePolicy:
    return LeasePolicy(ttl=30.0, renew_every=10.0, clock=clock)


def granted(lease: Lease | None) -> Lease:
    assert lease is not None
    return lease


def test_a_free_table_is_acquired() -> None:
    clock = FakeClock()
    lease = policy(clock).claim(None, 7, "A")
    assert lease == Lease(7, "A", 1_030.0, 1)
    assert policy(clock).holds(lease, "A") and not policy(clock).holds(lease, "B")


def test_only_the_owner_renews() -> None:
    clock = FakeClock()
    rule = policy(clock)
    lease = granted(rule.claim(None, 7, "A"))
    clock.now += 9.9
    assert not rule.renew_due(lease)
    clock.now += 0.1
    assert rule.renew_due(lease)
    renewed = granted(rule.claim(lease, 7, "A"))
    assert renewed == Lease(7, "A", 1_040.0, 1)  # same generation: no change of owner
    assert not rule.renew_due(renewed)
    assert rule.claim(renewed, 7, "B") is None  # running: refused to anyone else
    assert rule.fence(renewed, "B") is None  # and B may not write


def test_a_lease_is_stolen_only_after_it_expired() -> None:
    clock = FakeClock()
    rule = policy(clock)
    lease = granted(rule.claim(None, 7, "A"))
    clock.now = lease.expires_at - 0.001
    assert rule.claim(lease, 7, "B") is None
    clock.now = lease.expires_at
    stolen = granted(rule.claim(lease, 7, "B"))
    assert stolen == Lease(7, "B", lease.expires_at + 30.0, 2)  # a new fencing generation
    assert not rule.holds(stolen, "A")
    assert rule.fence(stolen, "A") is None  # the old owner's late write is refused
    assert rule.free_at(stolen) == stolen.expires_at


def test_an_owner_may_not_write_after_its_lease_ran_out() -> None:
    clock = FakeClock()
    rule = policy(clock)
    lease = granted(rule.claim(None, 7, "A"))
    assert rule.fence(lease, "A") == Lease(7, "A", 1_030.0, 1)
    clock.now = lease.expires_at
    assert rule.fence(lease, "A") is None
    assert not rule.holds(lease, "A")


@pytest.mark.parametrize(("ttl", "renew"), [(0, 1), (30, 0), (30, 16), (-1, -1)])
def test_bad_timings_are_refused(ttl: float, renew: float) -> None:
    with pytest.raises(ValueError):
        LeasePolicy(ttl=ttl, renew_every=renew)


def test_asyncpg_placeholders() -> None:
    sql = acquire_sql("postgresql")
    assert "VALUES ($1, $2, $3, 1)" in sql and "expires_at <= $4" in sql and ":" not in sql
    assert acquire_sql("sqlite") == ACQUIRE_SQL
    assert for_dialect(RELEASE_SQL, "postgresql").endswith("owner = $1")
    fence = for_dialect(FENCE_SQL, "postgresql")
    assert "SET expires_at = $3" in fence and "table_id = $1 AND owner = $2" in fence
    assert "expires_at > $4" in fence


def open_db(path: Path) -> sqlite3.Connection:
    """A connection in autocommit (each statement its own transaction, as the store's would
    be inside its own); durability is not what these tests check, so no fsync."""
    db = sqlite3.connect(path, isolation_level=None, timeout=10, check_same_thread=False)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=OFF")
    return db


def create(path: Path) -> None:
    db = open_db(path)
    db.execute("CREATE TABLE tables (id INTEGER PRIMARY KEY)")
    db.execute(CREATE_SQL)
    db.executemany("INSERT INTO tables (id) VALUES (?)", [(n,) for n in range(1, 201)])
    db.close()


def sql_claim(db: sqlite3.Connection, table_id: int, owner: str, now: float,
              ttl: float = 30.0) -> Lease | None:
    row = db.execute(ACQUIRE_SQL, {"table_id": table_id, "owner": owner,
                                   "expires_at": now + ttl, "now": now}).fetchone()
    return None if row is None else Lease(table_id, row[0], row[1], row[2])


def sql_fence(db: sqlite3.Connection, table_id: int, owner: str, now: float) -> bool:
    cursor = db.execute(FENCE_SQL, {"table_id": table_id, "owner": owner,
                                    "expires_at": now + 30.0, "now": now})
    return cursor.rowcount == 1


def sql_row(db: sqlite3.Connection, table_id: int) -> Lease | None:
    row = db.execute("SELECT owner, expires_at, generation FROM table_leases WHERE table_id = ?",
                     (table_id,)).fetchone()
    return None if row is None else Lease(table_id, row[0], row[1], row[2])


STEPS = st.lists(
    st.tuples(st.sampled_from(["claim", "fence", "release", "wait"]),
              st.sampled_from(["A", "B", "C"]),
              st.sampled_from([0.0, 1.0, 9.5, 10.0, 29.9, 30.0, 45.0])),
    min_size=1, max_size=40,
)


@pytest.fixture(scope="module")
def lease_db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[sqlite3.Connection]:
    path = tmp_path_factory.mktemp("leases") / "l.db"
    create(path)
    db = open_db(path)
    yield db
    db.close()


@settings(max_examples=80, deadline=None)
@given(steps=STEPS)
def test_the_sql_follows_the_rule_and_there_are_never_two_owners(
    lease_db: sqlite3.Connection, steps: list[tuple[str, str, float]]
) -> None:
    """Any interleaving of claims (acquire/renew/steal), fenced writes, releases and waits by
    three processes: the SQLite statements give what `LeasePolicy` says, and at no instant do
    two processes hold the lease."""
    db = lease_db
    db.execute("DELETE FROM table_leases")
    clock = FakeClock()
    rule = policy(clock)
    model: Lease | None = None
    granted: dict[str, Lease] = {}  # each process's last grant: what it believes it holds
    for op, owner, wait in steps:
        if op == "wait":
            clock.now += wait
        elif op == "claim":
            expected = rule.claim(model, 1, owner)
            assert sql_claim(db, 1, owner, clock.now) == expected
            if expected is not None:
                model = granted[owner] = expected
        elif op == "fence":
            expected = rule.fence(model, owner)
            assert sql_fence(db, 1, owner, clock.now) == (expected is not None)
            if expected is not None:
                model = granted[owner] = expected
        else:
            db.execute(RELEASE_SQL, {"owner": owner})
            if model is not None and model.owner == owner:
                model = None
            granted.pop(owner, None)
        assert sql_row(db, 1) == model
        holders = [name for name, lease in granted.items() if rule.holds(lease, name)]
        assert len(holders) <= 1, (holders, clock.now)


def test_two_processes_claiming_at_once_never_both_win(tmp_path: Path) -> None:
    """Two connections (as two processes would have) claim the same 200 tables at the same
    moment: every table has exactly one owner, the one the database kept."""
    path = tmp_path / "race.db"
    create(path)
    won: dict[str, set[int]] = {"A": set(), "B": set()}
    start = threading.Barrier(2)

    def claim_all(owner: str) -> None:
        db = open_db(path)
        start.wait()
        for table_id in range(1, 201):
            if sql_claim(db, table_id, owner, 1_000.0) is not None:
                won[owner].add(table_id)
        db.close()

    threads = [threading.Thread(target=claim_all, args=(name,)) for name in won]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert won["A"].isdisjoint(won["B"])
    assert won["A"] | won["B"] == set(range(1, 201))
    db = open_db(path)
    for owner, tables in won.items():
        for table_id in tables:
            assert sql_row(db, table_id) == Lease(table_id, owner, 1_030.0, 1)
    db.close()


def test_the_module_docstring_shows_the_statements_the_code_runs() -> None:
    import bot.cluster.leases as leases

    def words(text: str) -> str:
        return " ".join(text.split())

    doc = words(leases.__doc__ or "")
    for sql in (ACQUIRE_SQL, FENCE_SQL, RELEASE_SQL):
        assert words(sql) in doc


def test_every_process_start_has_its_own_owner_id() -> None:
    import os

    from bot.cluster.leases import new_owner_id

    first, second = new_owner_id(), new_owner_id()
    assert first != second
    assert first.split(":")[1] == str(os.getpid())

