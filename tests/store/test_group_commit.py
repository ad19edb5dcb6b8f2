"""Group commit: concurrent saves share one BEGIN IMMEDIATE ... COMMIT, each in its own
savepoint, so one refused save rolls back alone and every other one is applied whole."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.store import InsufficientFunds, Move, Store
from bot.store.errors import IntegrityViolation
from bot.store.models import TableSave
from bot.store.sql import Statement

from .conftest import GUILD


@pytest.fixture
def store(sqlite_store: Store) -> Store:
    """These tests drive the SQLite store's own transaction runner: SQLite only."""
    return sqlite_store


async def test_one_refused_save_in_a_group_rolls_back_alone(store: Store) -> None:
    tables = [
        await store.create_table(GUILD, channel, settings={}, seats=[channel])
        for channel in range(1, 9)
    ]
    for row in tables:
        await store.balance(GUILD, row.channel_id)  # the seat's account, 1000 chips
    groups_before = store.groups
    # table 5's seat asks for more chips than it has: only that save is refused
    amounts = [5_000 if row.channel_id == 5 else 60 for row in tables]
    results = await asyncio.gather(
        *(
            store.save_table(row.id, TableSave(0, moves=[Move(row.channel_id, amount, "ante")]))
            for row, amount in zip(tables, amounts, strict=True)
        ),
        return_exceptions=True,
    )
    assert store.groups - groups_before < len(tables)  # they really were grouped
    for row, result in zip(tables, results, strict=True):
        if row.channel_id == 5:
            assert isinstance(result, InsufficientFunds)
            assert await store.escrow(row.id) == 0
            assert await store.balance(GUILD, row.channel_id) == 1000
        else:
            assert not isinstance(result, BaseException), result
            assert (result.version, result.escrow) == (1, 60)
            assert await store.balance(GUILD, row.channel_id) == 940
    assert await store.total_chips(GUILD) == (8000 - 7 * 60, 7 * 60, 8000)


async def test_raw_integrity_errors_come_out_typed(store: Store) -> None:
    def duplicate_account(tx):
        yield from tx.ensure_account(GUILD, 77)
        yield Statement(
            "INSERT INTO accounts (guild_id, user_id, balance) VALUES (?, ?, 0)", (GUILD, 77)
        )

    with pytest.raises(IntegrityViolation) as caught:
        await store._transaction(duplicate_account)
    assert isinstance(caught.value.__cause__, sqlite3.IntegrityError)
    rows = await store.query("SELECT COUNT(*) FROM accounts WHERE user_id = 77")
    assert next(iter(rows))[0] == 0  # rolled back whole
