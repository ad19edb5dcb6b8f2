"""Crash safety: an exception or a cancellation inside a transaction, or the process dying in
the middle of one, leaves nothing half-written."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap

import pytest

from bot.store import Move, Store
from bot.store.models import TableSave

from .conftest import GUILD


@pytest.fixture
def store(sqlite_store: Store) -> Store:
    """These tests drive the SQLite store's own transaction runner: SQLite only."""
    return sqlite_store


class Boom(Exception):
    pass


async def test_exception_inside_a_transaction_leaves_nothing(store: Store) -> None:
    await store.balance(GUILD, 1)

    def half_done(tx):
        yield from tx.add_to_user(GUILD, 1, -500)
        yield from tx.ensure_account(GUILD, 2)
        raise Boom

    with pytest.raises(Boom):
        await store._transaction(half_done)
    assert await store.balance(GUILD, 1) == 1000
    users = await store.query("SELECT user_id FROM accounts")
    ledger = await store.query("SELECT COUNT(*) FROM ledger")
    assert [r[0] for r in users] == [1]
    assert next(iter(ledger))[0] == 1  # only the starting balance of user 1
    # the connection is usable again and not stuck in a transaction
    assert await store.grant(GUILD, 1, 5, reason="after", by=0) == 1005


async def test_cancelled_before_its_group_starts_is_not_applied(store: Store) -> None:
    row = await store.create_table(GUILD, 1, settings={}, seats=[1])
    async with store._lock:  # the writer task waits for the lock: the save is queued
        task = asyncio.create_task(
            store.save_table(row.id, TableSave(0, moves=[Move(1, 100, "ante")]))
        )
        await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    assert await store.balance(GUILD, 1) == 1000
    saved = await store.save_table(row.id, TableSave(0, moves=[Move(1, 100, "ante")]))
    assert (saved.version, saved.escrow) == (1, 100)


async def test_cancelled_while_running_is_all_or_nothing(store: Store) -> None:
    """A caller cancelled while its transaction runs: the transaction ends whole (here it
    commits), never half-written."""
    row = await store.create_table(GUILD, 1, settings={}, seats=[1, 2])
    started = asyncio.Event()
    loop = asyncio.get_running_loop()

    def slow(tx):
        yield from tx.add_to_user(GUILD, 1, -100)
        loop.call_soon_threadsafe(started.set)
        import time

        time.sleep(0.05)
        yield from tx.add_to_user(GUILD, 2, -100)

    task = asyncio.create_task(store._transaction(slow))
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    balances = await store.balances(GUILD, [1, 2])
    assert balances in ({1: 1000, 2: 1000}, {1: 900, 2: 900})
    assert await store.audit() != []  # the test moved chips without ledger rows: audit sees it
    # put the books straight for the fixture's final audit
    def restore(tx):
        for user in (1, 2):
            yield from tx.add_to_user(GUILD, user, 100)

    await store._transaction(restore)
    assert await store.escrow(row.id) == 0


CRASH = textwrap.dedent(
    """
    import asyncio, os, sys
    from bot.store import Move, Store, TableSave
    from bot.store.sql import Statement

    async def main():
        store = await Store.open(sys.argv[1])
        row = await store.create_table(1, 1, settings={}, seats=[1, 2])
        await store.save_table(row.id, TableSave(0, moves=[Move(1, 60, "ante")]))

        def dies(tx):   # the process dies in the middle of this transaction
            yield from tx.add_to_user(1, 2, -60)
            yield Statement("UPDATE tables SET escrow = escrow + 60, version = 2")
            yield from tx.flush()
            os._exit(3)

        await store._transaction(dies)

    asyncio.run(main())
    """
)


async def test_process_killed_mid_transaction_leaves_nothing(db_path: str) -> None:
    proc = await asyncio.to_thread(
        subprocess.run, [sys.executable, "-c", CRASH, db_path], capture_output=True, timeout=60
    )
    assert proc.returncode == 3, proc.stderr.decode()
    store = await Store.open(db_path)
    try:
        (row,) = await store.load_open_tables()
        assert (row.version, row.escrow) == (1, 60)
        assert await store.balances(1, [1, 2]) == {1: 940, 2: 1000}
        assert await store.audit() == []
    finally:
        await store.close()
