"""Two stores on one PostgreSQL database, each with its own pool, as two bot processes are:
concurrent spends never go negative nor double-credit, a daily claim pays once, moves lock
accounts in one order (no deadlock), and only transactions that did not apply are retried."""

from __future__ import annotations

import asyncio
import random

import asyncpg
import pytest

from bot.store import CooldownActive, InsufficientFunds, Move
from bot.store.ledger import MINT_ACCOUNT, USER, Account
from bot.store.models import TableSave
from bot.store.sql import Statement

from .conftest import GUILD, postgres_schema

SPENDS = 50  # per process


async def test_two_processes_spending_one_account_never_go_negative() -> None:
    async with postgres_schema() as open_store:
        first, second = await open_store(pool_size=10), await open_store(pool_size=10)
        await first.grant(GUILD, 7, 500, reason="stake", by=0)  # 1000 + 500 chips
        stores = [first] * SPENDS + [second] * SPENDS
        results = await asyncio.gather(
            *(s.grant(GUILD, 7, -40, reason="spend", by=0) for s in stores),
            return_exceptions=True,
        )
        refused = [r for r in results if isinstance(r, InsufficientFunds)]
        applied = [r for r in results if isinstance(r, int)]
        assert len(refused) + len(applied) == 2 * SPENDS  # nothing else went wrong
        assert len(applied) == 1500 // 40  # exactly as many as the chips allow
        assert min(applied) >= 0 and len(set(applied)) == len(applied)  # one balance each
        assert await second.balance(GUILD, 7) == 1500 - 40 * len(applied)
        removals = await first.query(
            "SELECT COUNT(*) FROM ledger WHERE reason = 'remove' AND src_id = ?", (7,)
        )
        assert removals[0][0] == len(applied)  # one ledger row per spend, none doubled
        assert await first.audit() == []


async def test_daily_claim_pays_once_across_processes() -> None:
    async with postgres_schema() as open_store:
        first, second = await open_store(), await open_store()
        now = 1_000_000.0
        results = await asyncio.gather(
            *(s.claim_daily(GUILD, 9, now=now) for s in [first, second] * SPENDS),
            return_exceptions=True,
        )
        paid = [r for r in results if not isinstance(r, BaseException)]
        assert len(paid) == 1, [r for r in results if not isinstance(r, CooldownActive)][:3]
        assert all(isinstance(r, CooldownActive) for r in results if r not in paid)
        assert await first.balance(GUILD, 9) == 1000 + 200
        assert await second.audit() == []


async def test_saves_lock_accounts_in_one_order_so_none_deadlocks() -> None:
    """Saves of many tables pay between the same two players, listing them in random orders:
    accounts are updated in user-id order, so PostgreSQL never finds a deadlock to break."""
    async with postgres_schema() as open_store:
        first, second = await open_store(), await open_store()
        users = [1, 2, 3, 4]
        await first.balances(GUILD, users)
        await first.grant(GUILD, 1, 2000, reason="stake", by=0)
        rows = [
            await first.create_table(GUILD, channel, settings={}, seats=users)
            for channel in range(40)
        ]
        for row in rows:  # every table holds 40 chips to pay out
            await first.save_table(row.id, TableSave(0, moves=[Move(1, 40, "ante")]))
        rng = random.Random(5)

        def payout() -> list[Move]:
            moves = [Move(u, 10 if u % 2 else -20, "bet") for u in users]
            rng.shuffle(moves)
            return moves

        saved = await asyncio.gather(
            *(
                (first if i % 2 else second).save_table(row.id, TableSave(1, moves=payout()))
                for i, row in enumerate(rows)
            )
        )
        assert [r.version for r in saved] == [2] * len(rows)
        assert first.retries == second.retries == 0  # no deadlock was detected and retried
        assert await first.audit() == []


async def test_only_an_aborted_transaction_is_retried_and_it_applies_once() -> None:
    async with postgres_schema() as open_store:
        store = await open_store()
        attempts = []

        def spend(tx):  # PostgreSQL aborts the first attempt
            attempts.append(1)
            balance = yield from tx.add_to_user(GUILD, 3, -100)
            if len(attempts) == 1:
                raise asyncpg.SerializationError("could not serialize access")
            return balance

        assert await store._transaction(spend) == 900
        assert (len(attempts), store.retries) == (2, 1)
        assert await store.balance(GUILD, 3) == 900

        def refused(tx):  # a refusal of ours is never retried
            attempts.append(1)
            yield from tx.add_to_user(GUILD, 3, -5000)

        attempts.clear()
        with pytest.raises(InsufficientFunds):
            await store._transaction(refused)
        assert len(attempts) == 1
        # the balance changes above had no ledger rows: put the books straight for the audit
        await store._transaction(lambda tx: tx.add_to_user(GUILD, 3, 100))
        assert await store.audit() == []


async def test_connection_lost_before_commit_is_retried_and_applies_once() -> None:
    """The server drops the connection in the middle of a transaction (before COMMIT): it was
    not applied, so it is run again, on another connection, and applied exactly once."""
    async with postgres_schema() as open_store:
        store = await open_store()
        await store.balance(GUILD, 4)
        attempts = []

        def spend(tx):
            ((pid,),) = yield Statement("SELECT pg_backend_pid()")
            attempts.append(pid)
            balance = yield from tx.add_to_user(GUILD, 4, -100)
            if len(attempts) == 1:  # the server ends this connection: this statement fails
                yield Statement("SELECT pg_terminate_backend(pg_backend_pid())")
            yield Statement("SELECT 1")
            tx.record(GUILD, Account(USER, 4), MINT_ACCOUNT, 100, "remove")
            return balance

        assert await store._transaction(spend) == 900
        assert len(attempts) == 2 and attempts[0] != attempts[1]
        assert store.retries == 1
        assert await store.balance(GUILD, 4) == 900  # debited once, not twice
        assert await store.audit() == []
