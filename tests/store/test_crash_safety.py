"""Crash safety: an exception or a cancellation inside a transaction, or the process dying in
the middle of one, leaves nothing half-written."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap

import pytest

from bot.store import Move, Store

from .conftest import GUILD


class Boom(Exception):
    pass


async def test_exception_inside_a_transaction_leaves_nothing(store: Store) -> None:
    await store.balance(GUILD, 1)
    with pytest.raises(Boom):
        async with store._write() as tx:
            await tx.add_to_user(GUILD, 1, -500)
            await tx.ensure_account(GUILD, 2)
            raise Boom
    assert await store.balance(GUILD, 1) == 1000
    async with store._read() as db:
        users = await db.execute_fetchall("SELECT user_id FROM accounts")
    assert [r[0] for r in users] == [1]
    # the connection is usable again and not stuck in a transaction
    assert await store.grant(GUILD, 1, 5, reason="after", by=0) == 1005


async def test_cancelled_action_is_rolled_back(store: Store) -> None:
    row = await store.create_table(GUILD, 1, settings={}, seats=[1])
    started = asyncio.Event()

    async def slow_action() -> None:
        async with store._write() as tx:
            await tx.add_to_user(GUILD, 1, -100)
            started.set()
            await asyncio.sleep(10)

    task = asyncio.create_task(slow_action())
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await store.balance(GUILD, 1) == 1000
    saved = await store.save_table(row.id, expected_version=0, moves=[Move(1, 100, "ante")])
    assert saved.escrow == 100


CRASH = textwrap.dedent(
    """
    import asyncio, os, sys
    from bot.store import Move, Store

    async def main():
        store = await Store.open(sys.argv[1])
        row = await store.create_table(1, 1, settings={}, seats=[1, 2])
        await store.save_table(row.id, expected_version=0, moves=[Move(1, 60, "ante")])
        async with store._write() as tx:   # the process dies in the middle of this one
            await tx.add_to_user(1, 2, -60)
            await tx.db.execute("UPDATE tables SET escrow = escrow + 60, version = 2")
            await tx.flush()
            os._exit(3)

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
