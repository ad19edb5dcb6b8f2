"""Concurrency on the one writer connection: many tasks spending from one account at once."""

from __future__ import annotations

import asyncio

from bot.store import InsufficientFunds, Move, Store
from bot.store.models import TableSave

from .conftest import GUILD


async def test_50_tasks_spending_from_one_account(store: Store) -> None:
    await store.balance(GUILD, 1)  # 1000 chips; 50 removals of 30 -> 33 fit, 17 must fail

    async def spend() -> bool:
        try:
            await store.grant(GUILD, 1, -30, reason="spend", by=0)
        except InsufficientFunds:
            return False
        return True

    results = await asyncio.gather(*(spend() for _ in range(50)))
    assert results.count(True) == 1000 // 30
    assert await store.balance(GUILD, 1) == 1000 - 30 * (1000 // 30) == 10
    assert await store.total_chips(GUILD) == (10, 0, 10)


async def test_50_tables_taking_antes_from_one_player_at_once(store: Store) -> None:
    tables = [await store.create_table(GUILD, 100 + i, settings={}, seats=[1]) for i in range(50)]

    async def ante(table_id: int) -> int:
        try:
            row = await store.save_table(
                table_id,
                TableSave(0, moves=[Move(1, 70, "ante", 1), Move(2, 1, "ante", 1)]),
            )
        except InsufficientFunds:
            return 0
        return row.escrow

    escrows = await asyncio.gather(*(ante(t.id) for t in tables))
    assert sorted(set(escrows)) == [0, 71]
    assert escrows.count(71) == 1000 // 70
    assert await store.balance(GUILD, 1) == 1000 % 70
    assert await store.balance(GUILD, 2) == 1000 - 1000 // 70
    balances, escrow, minted = await store.total_chips(GUILD)
    assert escrow == 71 * (1000 // 70) and balances + escrow == minted == 2000


async def test_concurrent_saves_of_one_table_one_wins_per_version(store: Store) -> None:
    row = await store.create_table(GUILD, 5, settings={}, seats=[1, 2])

    async def bet(user: int) -> str:
        try:
            await store.save_table(row.id, TableSave(0, moves=[Move(user, 10, "bet")]))
        except Exception as error:
            return type(error).__name__
        return "ok"

    outcomes = await asyncio.gather(*(bet(u) for u in range(1, 11)))
    assert outcomes.count("ok") == 1
    assert set(outcomes) == {"ok", "VersionConflict"}
    assert await store.escrow(row.id) == 10
    assert sum((await store.balances(GUILD, list(range(1, 11)))).values()) == 10_000 - 10
