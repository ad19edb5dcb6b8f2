"""Sit-and-go tournaments played at real tables through `TableService` (issue 21)."""

from __future__ import annotations

from bot.tables import TableError
from bot.tournaments import Phase
from tests.tables.helpers import GUILD
from tests.tournaments.helpers import THREAD, TournamentHarness


async def test_four_cpus_play_to_the_end_and_the_pool_is_paid_exactly(
    th: TournamentHarness,
) -> None:
    info = await th.cpu_tournament(buy_in=250, payout="65_35")
    entrants = [e.user_id for e in info.entrants]
    before = await th.store.balances(GUILD, entrants)
    assert info.prize_pool == 1000
    state = await th.tournaments.start(info.id, channel=THREAD, own_thread=True)
    assert state.tournament is not None and state.tournament.status is Phase.RUNNING
    await th.svc.wait_idle()
    done = await th.tournaments.info(info.id)
    assert done.status is Phase.FINISHED
    assert sorted(p.place for p in done.places) == [1, 2, 3, 4]
    assert sum(done.payouts.values()) == 1000
    winner = next(p.user_id for p in done.places if p.place == 1)
    second = next(p.user_id for p in done.places if p.place == 2)
    assert done.payouts == {winner: 650, second: 350}
    after = await th.store.balances(GUILD, entrants)
    for user in entrants:
        assert after[user] == before[user] + done.payouts.get(user, 0)
    assert th.svc.state(THREAD) is None  # the table closed
    kinds = [u.kind for u in th.updates]
    assert kinds[-2:] == ["tournament_over", "closed"]
    assert await th.store.audit() == []


async def test_nobody_joins_a_tournament_table(th: TournamentHarness) -> None:
    info = await th.cpu_tournament(hands_per_level=50)
    await th.svc.stop()  # no CPU turn runs: the table waits at its first hand
    await th.open()
    try:
        await th.tournaments.start(info.id, channel=THREAD, own_thread=True)
    finally:
        pass
    try:
        await th.svc.join(GUILD, THREAD, 77)
    except TableError as error:
        assert error.code == "tournament_table"
    else:
        raise AssertionError("joined a tournament table")
