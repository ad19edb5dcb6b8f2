"""Tournaments (issue 21) on both backends: buy-ins escrowed in the tournament's pool, paid
out to the winners (exactly the pool) or refunded on withdrawal and cancel; full, double and
late registrations refused; the state saved under a version check; all audited."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import InsufficientFunds, StoreContract, TournamentError

from .conftest import GUILD

PLAYERS = (1, 2, 3, 4)


async def _four_registered(store: StoreContract, buy_in: int = 100) -> int:
    t = await store.create_tournament(GUILD, 9, buy_in=buy_in, max_players=4, state="{}")
    for user in PLAYERS:
        await store.register(t.id, user)
    return t.id


async def test_register_four_and_pay_65_35(store: StoreContract) -> None:
    before = sum((await store.balances(GUILD, list(PLAYERS))).values())
    tid = await _four_registered(store)
    row = await store.get_tournament(tid)
    assert (row.pool, row.entrants, row.status) == (400, list(PLAYERS), "open")
    assert await store.balances(GUILD, list(PLAYERS)) == dict.fromkeys(PLAYERS, 900)
    assert await store.total_chips(GUILD) == (3600, 400, 4000)  # the pool is held, not lost
    assert await store.audit() == []
    paid = await store.pay_tournament(tid, {3: 260, 1: 140})
    assert (paid.status, paid.pool) == ("finished", 0)
    assert await store.balances(GUILD, list(PLAYERS)) == {1: 1040, 2: 900, 3: 1160, 4: 900}
    assert sum((await store.balances(GUILD, list(PLAYERS))).values()) == before
    assert await store.total_chips(GUILD) == (4000, 0, 4000)
    with pytest.raises(TournamentError) as again:
        await store.pay_tournament(tid, {3: 400})
    assert again.value.code == "tournament_not_open"


@pytest.mark.parametrize(
    ("payouts", "code"),
    [
        ({1: 260, 2: 100}, "tournament_payout_mismatch"),
        ({1: 300, 2: 200}, "tournament_payout_mismatch"),
        ({1: 400, 9: 0}, "tournament_payout_bad"),
        ({9: 400}, "tournament_payout_bad"),
    ],
)
async def test_payouts_must_sum_to_the_pool_and_go_to_entrants(
    store: StoreContract, payouts: dict[int, int], code: str
) -> None:
    tid = await _four_registered(store)
    with pytest.raises(TournamentError) as refused:
        await store.pay_tournament(tid, payouts)
    assert refused.value.code == code and refused.value.message("it")
    row = await store.get_tournament(tid)
    assert (row.pool, row.status) == (400, "open")  # nothing moved


async def test_cancel_refunds_every_buy_in(store: StoreContract) -> None:
    tid = await _four_registered(store, buy_in=250)
    t = await store.get_tournament(tid)
    await store.save_tournament(tid, expected_version=t.version, status="running", state='{"r":1}')
    cancelled = await store.cancel_tournament(tid)
    assert (cancelled.status, cancelled.pool) == ("cancelled", 0)
    assert await store.balances(GUILD, list(PLAYERS)) == dict.fromkeys(PLAYERS, 1000)
    refunds = await store.query(  # type: ignore[attr-defined]
        "SELECT COUNT(*), SUM(amount) FROM ledger WHERE reason = 'buy_in_refund'"
    )
    assert tuple(refunds[0]) == (4, 1000)


async def test_double_full_late_and_broke_registrations_refused(store: StoreContract) -> None:
    t = await store.create_tournament(GUILD, 9, buy_in=600, max_players=2)
    await store.register(t.id, 1)
    with pytest.raises(TournamentError) as double:
        await store.register(t.id, 1)
    assert double.value.code == "tournament_registered"
    await store.grant(GUILD, 5, -500, reason="spent", by=0)
    with pytest.raises(InsufficientFunds):
        await store.register(t.id, 5)
    await store.register(t.id, 2)
    with pytest.raises(TournamentError) as full:
        await store.register(t.id, 3)
    assert full.value.code == "tournament_full"
    row = await store.get_tournament(t.id)
    assert (row.entrants, row.pool) == ([1, 2], 1200)
    await store.save_tournament(t.id, expected_version=row.version, status="running")
    with pytest.raises(TournamentError) as late:
        await store.unregister(t.id, 1)
    assert late.value.code == "tournament_not_open"
    await store.pay_tournament(t.id, {1: 1200})
    with pytest.raises(TournamentError) as missing:
        await store.register(999, 1)
    assert missing.value.code == "tournament_not_found"


async def test_unregister_refunds_and_frees_the_seat(store: StoreContract) -> None:
    t = await store.create_tournament(GUILD, 9, buy_in=100, max_players=2)
    await store.register(t.id, 1)
    left = await store.unregister(t.id, 1)
    assert (left.entrants, left.pool) == ([], 0)
    assert await store.balance(GUILD, 1) == 1000
    with pytest.raises(TournamentError) as absent:
        await store.unregister(t.id, 1)
    assert absent.value.code == "tournament_not_registered"
    for user in (2, 3):
        await store.register(t.id, user)
    await store.cancel_tournament(t.id)


async def test_save_state_with_a_version_check(store: StoreContract) -> None:
    t = await store.create_tournament(GUILD, 9, buy_in=0, max_players=8)
    saved = await store.save_tournament(t.id, expected_version=0, state='{"round":1}')
    assert (saved.version, saved.state) == (1, '{"round":1}')
    with pytest.raises(TournamentError) as stale:
        await store.save_tournament(t.id, expected_version=0, state='{"round":2}')
    assert stale.value.code == "tournament_version_conflict"
    table = await store.create_table(GUILD, 10, settings={})
    linked = await store.save_tournament(t.id, expected_version=1, table_id=table.id)
    assert (linked.table_id, linked.state) == (table.id, '{"round":1}')
    with pytest.raises(ValueError):
        await store.save_tournament(t.id, expected_version=2, status="finished")
    assert [x.id for x in await store.open_tournaments(GUILD)] == [t.id]
    await store.cancel_tournament(t.id)
    assert await store.open_tournaments(GUILD) == []


async def test_concurrent_registrations_never_pass_the_size(
    two_stores: tuple[StoreContract, StoreContract],
) -> None:
    a, b = two_stores
    t = await a.create_tournament(GUILD, 9, buy_in=50, max_players=6)

    async def enter(user: int) -> str:
        try:
            await (a if user % 2 else b).register(t.id, user)
        except TournamentError as error:
            return error.code
        return "ok"

    outcomes = await asyncio.gather(*(enter(u) for u in range(1, 31)))
    assert outcomes.count("ok") == 6 and set(outcomes) == {"ok", "tournament_full"}
    row = await b.get_tournament(t.id)
    assert (len(row.entrants), row.pool) == (6, 300)
    await a.cancel_tournament(t.id)
