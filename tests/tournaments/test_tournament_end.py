"""The end of a tournament is resumable at every step (issue 21): the last hand (with the
finished state), the payout, the final `tournament_over` update and the table's close. A
crash between any two of them ends, after a restart, in the same books: each prize paid
once, the pool empty, the table closed. So does a cancel whose table did not close."""

from __future__ import annotations

from typing import Any

import pytest

from bot.tournaments import Phase, TournamentInfo
from tests.tables.helpers import GUILD
from tests.tournaments.helpers import THREAD, TournamentHarness


class Crash(Exception):
    """The process died here (the store call never happened)."""


def _fail(th: TournamentHarness, method: str) -> list[int]:
    """Make the store's `method` fail once, as a crash right before it would; the calls."""
    calls: list[int] = []

    async def crash(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        raise Crash(method)

    setattr(th.store, method, crash)  # this store object only: a restart opens a new one
    return calls


async def _finished_books(th: TournamentHarness, info: TournamentInfo) -> None:
    done = await th.tournaments.info(info.id)
    assert done.status is Phase.FINISHED
    row = await th.store.get_tournament(info.id)
    assert (row.status, row.pool) == ("finished", 0)
    assert th.svc.state(THREAD) is None
    assert sum(done.payouts.values()) == info.prize_pool
    assert await th.store.audit() == []


@pytest.mark.parametrize("crash_before", ["pay_tournament", "close_table"])
async def test_a_crash_at_the_end_resumes_to_the_same_books(
    th: TournamentHarness, crash_before: str
) -> None:
    info = await th.cpu_tournament(cpus=3, buy_in=150, payout="winner_takes_all")
    users = [e.user_id for e in info.entrants]
    before = dict(await th.store.balances(GUILD, users))
    calls = _fail(th, crash_before)
    await th.tournaments.start(info.id, channel=THREAD, own_thread=True)
    await th.svc.wait_idle()
    assert calls == [1]  # the end stopped there; the table is still open
    state = th.svc.state(THREAD)
    assert state is not None and state.tournament is not None
    assert state.tournament.status is Phase.FINISHED
    paid_already = crash_before == "close_table"
    assert ((await th.store.get_tournament(info.id)).status == "finished") is paid_already
    await th.restart()  # the new service resumes the end as it starts
    await th.svc.wait_idle()
    await _finished_books(th, info)
    done = await th.tournaments.info(info.id)
    after = dict(await th.store.balances(GUILD, users))
    assert after == {u: before[u] + done.payouts.get(u, 0) for u in users}
    await th.restart()  # and once more: nothing is paid twice
    assert dict(await th.store.balances(GUILD, users)) == after


async def test_a_cancel_whose_table_did_not_close_closes_it_after_a_restart(
    th: TournamentHarness,
) -> None:
    await th.reopen(cpu_delay=1.0)
    info = await th.cpu_tournament(cpus=3, buy_in=80)
    users = [e.user_id for e in info.entrants]
    await th.tournaments.start(info.id, channel=THREAD, own_thread=True)
    await th.clock.advance(1.0)
    await th.svc.wait_idle()
    _fail(th, "close_table")
    with pytest.raises(Crash):
        await th.tournaments.cancel(info.id, 99)
    refunded = dict(await th.store.balances(GUILD, users))
    assert (await th.store.get_tournament(info.id)).status == "cancelled"
    await th.restart()
    await th.svc.wait_idle()
    assert th.svc.state(THREAD) is None  # closed at once, no hand dealt
    assert dict(await th.store.balances(GUILD, users)) == refunded
    assert (await th.tournaments.info(info.id)).status is Phase.CANCELLED


async def test_a_tournament_cancelled_behind_its_table_closes_it_at_the_hand_end(
    th: TournamentHarness,
) -> None:
    """Cancelled in the store alone (as another process whose table this is not would): the
    hand's save is refused and the table closes instead of playing on."""
    await th.reopen(cpu_delay=1.0)
    info = await th.cpu_tournament(cpus=3, buy_in=40)
    users = [e.user_id for e in info.entrants]
    await th.tournaments.start(info.id, channel=THREAD, own_thread=True)
    await th.clock.advance(1.0)
    await th.svc.wait_idle()
    await th.store.cancel_tournament(info.id)
    refunded = dict(await th.store.balances(GUILD, users))
    for _ in range(200):
        if th.svc.state(THREAD) is None:
            break
        await th.clock.advance(1.0)
        await th.svc.wait_idle()
    assert th.svc.state(THREAD) is None
    assert dict(await th.store.balances(GUILD, users)) == refunded
    table_id = (await th.tournaments.info(info.id)).table_id
    assert table_id is not None
    assert (await th.store.get_table(table_id)).status == "closed"
