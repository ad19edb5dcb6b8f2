"""Each hook records what it should while metrics are on, and nothing while they are off."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import asyncpg
import pytest

import bot.metrics as metrics
from bot.discord_utils.request_budget import RequestBudget
from bot.store import Store
from tests.cluster.test_table_leases import POLICY, Cluster, deal, guild_on_shard, play
from tests.harness.virtual_time import run_virtual
from tests.store.conftest import postgres_schema

GUILD = 1


def sample(name: str, **labels: str) -> float:
    """A sample of the active registry (0 when absent)."""
    recorder = metrics.active()
    assert recorder is not None
    found = recorder.registry.get_sample_value(name, labels)
    return 0.0 if found is None else found


async def test_hooks_record_nothing_while_off(tmp_path: Path) -> None:
    assert metrics.active() is None
    assert metrics.started() == 0.0  # not even a clock read
    store = await Store.open(str(tmp_path / "off.db"))
    try:
        await store.grant(GUILD, 5, 100, reason="grant", by=1)
    finally:
        await store.close()
    metrics.action_applied(object())
    metrics.hand_finished()
    metrics.budget_waited(0.5)
    assert metrics.active() is None  # nothing was switched on by recording


async def test_sqlite_transactions_are_counted_and_timed(tmp_path: Path) -> None:
    metrics.enable()
    store = await Store.open(str(tmp_path / "on.db"))
    try:
        for user in range(3):
            await store.grant(GUILD, 10 + user, 50, reason="grant", by=1)
    finally:
        await store.close()
    committed = sample("stoppa_store_transactions_total", driver="sqlite")
    assert committed >= 3
    assert sample("stoppa_store_transaction_seconds_count", driver="sqlite") == committed
    assert sample("stoppa_store_transactions_total", driver="postgres") == 0


async def test_postgres_transactions_and_retries_are_counted() -> None:
    async with postgres_schema() as open_store:
        store = await open_store()
        await store.balance(GUILD, 3)
        metrics.enable()
        attempts: list[int] = []

        def spend(tx):  # a body of statements; PostgreSQL aborts the first attempt
            attempts.append(1)
            balance = yield from tx.add_to_user(GUILD, 3, 0)
            if len(attempts) == 1:
                raise asyncpg.SerializationError("could not serialize access")
            return balance

        await store._transaction(spend)
        assert sample("stoppa_store_transaction_retries_total", driver="postgres") == 1
        assert sample("stoppa_store_transactions_total", driver="postgres") == 1
        assert sample("stoppa_store_transaction_seconds_count", driver="postgres") == 1


def test_only_the_requests_that_waited_for_the_budget_are_counted() -> None:
    metrics.enable()

    async def burst() -> float:
        budget = RequestBudget(per_second=2)
        start = asyncio.get_running_loop().time()
        # t=0: two at once; the third waits to t=1, when both leave the window, so the
        # fourth goes at once; the fifth waits to t=2
        for _ in range(5):
            await budget.acquire()
        return asyncio.get_running_loop().time() - start

    took = run_virtual(burst())
    assert took == pytest.approx(2.0, abs=0.01)
    assert sample("stoppa_request_budget_waits_total") == 2
    assert sample("stoppa_request_budget_wait_seconds_sum") == pytest.approx(1 + 1, abs=0.01)


async def test_a_lease_takeover_is_counted(tmp_path: Path) -> None:
    path = str(tmp_path / "shared.db")

    async def open_sqlite() -> Store:
        return await Store.open(path)

    cluster = Cluster(open_sqlite)
    try:
        guild, channel = guild_on_shard(0), 500
        a = await cluster.start("proc-a")
        await cluster.start("proc-b")
        await deal(a.service, guild, channel)
        await play(a.service, guild, channel, 2)
        metrics.enable()
        assert a.service.leases is not None and a.service.leases.task is not None
        a.service.leases.task.cancel()  # a stops renewing: b takes the table over
        await cluster.advance(POLICY.ttl)
        assert sample("stoppa_lease_takeovers_total") == 1
    finally:
        await cluster.close()


def test_errors_are_counted_by_exception_class_and_logger() -> None:
    metrics.enable()
    from bot.metrics.errors import count_errors

    handler = count_errors()
    log = logging.getLogger("stoppa.tables.test")
    try:
        try:
            raise ValueError("a bug")
        except ValueError:
            log.exception("table 7: the next hand could not be dealt")
        log.error("no exception here")
        log.warning("only a warning")
    finally:
        logging.getLogger().removeHandler(handler)
    assert sample("stoppa_errors_total", kind="ValueError", logger="stoppa.tables") == 1
    assert sample("stoppa_errors_total", kind="logged", logger="stoppa.tables") == 1
    recorder = metrics.active()
    assert recorder is not None
    total = sum(s.value for family in recorder.errors.collect() for s in family.samples
                if s.name == "stoppa_errors_total")
    assert total == 2  # the warning is not an error
