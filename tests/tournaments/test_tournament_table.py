"""Sit-and-go tournaments played at real tables through `TableService` (issue 21), on
SQLite and PostgreSQL: the prize pool paid exactly, places and eliminations, restart
mid-level, cancel with refunds, the end's steps resumable, leavers staying in."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot.store import StoreError
from bot.tables import TableError, TableState
from bot.tournaments import Phase, TournamentConfig, TournamentInfo
from tests.tables.helpers import GUILD
from tests.tournaments.helpers import LOBBY, OPENER, THREAD, TournamentHarness


def _notices(th: TournamentHarness, key: str) -> list[dict[str, Any]]:
    return [n.params for u in th.updates for n in u.notices if n.key == key]


async def _play_until(
    th: TournamentHarness, done: Callable[[TableState | None], bool], step: float = 1.0,
    limit: int = 20_000,
) -> None:
    """Move the fake clock (CPU thinking time, turn clocks) until `done(snapshot)`."""
    for _ in range(limit):
        if done(th.svc.state(THREAD)):
            return
        await th.clock.advance(step)
        await th.svc.wait_idle()
    raise AssertionError("the table never got there")


async def _books(th: TournamentHarness, users: list[int]) -> dict[int, int]:
    return dict(await th.store.balances(GUILD, users))


async def test_four_cpus_play_to_the_end_and_the_pool_is_paid_exactly(
    th: TournamentHarness,
) -> None:
    minted = await th.minted()
    info = await th.cpu_tournament(buy_in=250, payout="65_35")
    entrants = [e.user_id for e in info.entrants]
    before = await _books(th, entrants)
    minted_after_accounts = await th.minted()  # the CPU accounts were created (minted)
    assert minted_after_accounts >= minted
    assert info.prize_pool == 1000 and info.status is Phase.REGISTERING
    state = await th.tournaments.start(info.id, channel=THREAD, own_thread=True)
    assert state.tournament is not None and state.tournament.status is Phase.RUNNING
    assert state.tournament.level == 1 and state.stakes["ante"] == 60
    await th.svc.wait_idle()
    done = await th.tournaments.info(info.id)
    assert done.status is Phase.FINISHED
    assert sorted(p.place for p in done.places) == [1, 2, 3, 4]
    winner = next(p.user_id for p in done.places if p.place == 1)
    second = next(p.user_id for p in done.places if p.place == 2)
    assert done.payouts == {winner: 650, second: 350}
    after = await _books(th, entrants)
    for user in entrants:  # each entrant: the buy-in paid before, the prize now
        assert after[user] == before[user] + done.payouts.get(user, 0)
    assert sum(after.values()) == sum(before.values()) + 1000
    assert await th.minted() == minted_after_accounts  # no chip created or lost
    assert await th.store.audit() == []
    assert th.svc.state(THREAD) is None  # the table closed
    assert [u.kind for u in th.updates][-2:] == ["tournament_over", "closed"]
    final = next(u for u in th.updates if u.kind == "tournament_over")
    assert final.state.tournament is not None
    assert final.state.tournament.payouts == done.payouts
    assert final.state.tournament.status is Phase.FINISHED
    # no ledger move while it played: only buy-ins, the CPU accounts and the prizes
    row = await th.store.get_tournament(info.id)
    assert (row.status, row.pool) == ("finished", 0)
    table = await th.store.get_table(state.table_id)
    assert (table.status, table.escrow) == ("closed", 0)


async def test_eliminations_are_announced_with_their_places_in_order(
    th: TournamentHarness,
) -> None:
    info = await th.cpu_tournament(cpus=5, payout="50_30_20")
    await th.tournaments.start(info.id, channel=THREAD, own_thread=False)
    await th.svc.wait_idle()
    done = await th.tournaments.info(info.id)
    out = _notices(th, "tables.tournament.eliminated")
    won = _notices(th, "tables.tournament.winner")
    places = {p.user_id: p.place for p in done.places}
    assert [n["place"] for n in out] == sorted((n["place"] for n in out), reverse=True)
    assert {n["player"]: n["place"] for n in out} == {u: p for u, p in places.items() if p > 1}
    assert [n["player"] for n in won] == [u for u, p in places.items() if p == 1]
    # an eliminated player leaves the table at the end of the hand that put them out
    checked = 0
    for update in th.updates:
        gone = [n.params["player"] for n in update.notices if n.key.endswith("eliminated")]
        t = update.state.tournament
        if update.kind == "hand_over" and gone and t is not None and t.status is Phase.RUNNING:
            assert not {s.user_id for s in update.state.seats} & set(gone)
            checked += 1
    assert checked  # at least one player went out before the last hand
    # places are decided in hand order: a later hand never gives a worse place
    by_hand = sorted(done.places, key=lambda p: (p.hand, -p.place))
    assert [p.place for p in by_hand] == sorted((p.place for p in by_hand), reverse=True)
    assert sum(done.payouts.values()) == done.prize_pool == 500


async def test_a_restart_mid_level_resumes_the_level_the_stacks_and_the_places(
    th: TournamentHarness,
) -> None:
    await th.reopen(cpu_delay=1.0)
    info = await th.cpu_tournament(cpus=4, schedule="turbo", payout="65_35")
    await th.tournaments.start(info.id, channel=THREAD, own_thread=True)

    def mid_level(state: TableState | None) -> bool:
        t = state.tournament if state else None
        return t is not None and t.level >= 2 and t.hands_played % 3 == 1 and state is not None \
            and state.to_act is not None

    await _play_until(th, mid_level)
    before = th.svc.state(THREAD)
    assert before is not None and before.tournament is not None
    await th.restart()
    after = th.svc.state(THREAD)
    assert after is not None and after.tournament is not None
    assert after.tournament == before.tournament  # level, stacks, places, hands played
    assert (after.hand_no, after.turn, after.to_act) == (before.hand_no, before.turn,
                                                         before.to_act)
    assert after.stakes == before.stakes
    assert [s.chips for s in after.seats] == [s.chips for s in before.seats]
    await _play_until(th, lambda s: s is None)
    done = await th.tournaments.info(info.id)
    assert done.status is Phase.FINISHED and sum(done.payouts.values()) == 400


async def test_cancel_while_registering_refunds_every_buy_in(th: TournamentHarness) -> None:
    config = TournamentConfig.create(buy_in=300, seats=4)
    info = await th.tournaments.create(GUILD, LOBBY, OPENER, config)
    start = await _books(th, [11, 12])
    await th.tournaments.join(info.id, 11)
    await th.tournaments.join(info.id, 12)
    info = await th.tournaments.add_cpu(info.id, OPENER, "hard")
    assert await _books(th, [11, 12]) == {11: start[11] - 300, 12: start[12] - 300}
    assert info.prize_pool == 900 and info.seats_left == 1
    assert [e.cpu for e in info.entrants] == [None, None, "hard"]
    left = await th.tournaments.leave(info.id, 12)
    assert left.prize_pool == 600 and (await _books(th, [12]))[12] == start[12]
    cancelled = await th.tournaments.cancel(info.id, OPENER)
    assert cancelled.status is Phase.CANCELLED and cancelled.prize_pool == 0
    assert await _books(th, [11, 12]) == start
    with pytest.raises(StoreError):
        await th.tournaments.join(info.id, 13)


@pytest.mark.parametrize("how", ["stoppa_end", "tournament_cancel"])
async def test_a_manager_ends_a_running_tournament_and_every_buy_in_comes_back(
    th: TournamentHarness, how: str
) -> None:
    await th.reopen(cpu_delay=1.0)
    config = TournamentConfig.create(buy_in=200, seats=3, schedule="turbo")
    info = await th.tournaments.create(GUILD, LOBBY, OPENER, config)
    start = await _books(th, [11, 12])
    await th.tournaments.join(info.id, 11)
    await th.tournaments.join(info.id, 12)
    info = await th.tournaments.add_cpu(info.id, OPENER, "easy")
    cpu = info.entrants[-1].user_id
    cpu_start = (await _books(th, [cpu]))[cpu] + 200
    await th.tournaments.start(info.id, channel=THREAD, own_thread=True)
    await th.clock.advance(1.0)
    await th.svc.wait_idle()
    if how == "stoppa_end":
        closed = await th.svc.force_close(GUILD, THREAD, OPENER)
        assert closed.status == "closed"
    else:
        await th.tournaments.cancel(info.id, OPENER)
    assert th.svc.state(THREAD) is None
    last = th.updates[-1]
    assert last.kind == "closed" and last.state.tournament is not None
    assert last.state.tournament.status is Phase.CANCELLED
    after = await th.tournaments.info(info.id)
    assert after.status is Phase.CANCELLED and after.prize_pool == 0
    assert await _books(th, [11, 12, cpu]) == {**start, cpu: cpu_start}
    assert _notices(th, "tables.tournament.cancelled")


async def test_nobody_joins_a_tournament_table_and_its_round_cannot_be_called(
    th: TournamentHarness,
) -> None:
    await th.reopen(cpu_delay=1.0)
    config = TournamentConfig.create(buy_in=10, seats=3)
    info = await th.tournaments.create(GUILD, LOBBY, OPENER, config)
    await th.tournaments.join(info.id, 11)
    await th.tournaments.add_cpu(info.id, 11, "easy")
    await th.tournaments.add_cpu(info.id, 11, "easy")
    await th.tournaments.start(info.id, channel=THREAD, own_thread=True)
    for refused in (
        th.svc.join(GUILD, THREAD, 77),
        th.svc.add_cpu(GUILD, THREAD, 11, "easy"),
        th.svc.call_round(GUILD, THREAD, 11),
    ):
        with pytest.raises(TableError) as error:
            await refused
        assert error.value.code == "tournament_table"
        assert error.value.message("it") != error.value.message("en")
    state = th.svc.state(THREAD)
    assert state is not None and len(state.seats) == 3


async def test_a_player_who_leaves_or_times_out_stays_in_until_eliminated(
    th: TournamentHarness,
) -> None:
    config = TournamentConfig.create(buy_in=100, seats=4, schedule="turbo")
    info = await th.tournaments.create(GUILD, LOBBY, OPENER, config)
    for user in (11, 12):
        await th.tournaments.join(info.id, user)
    for _ in range(2):
        info = await th.tournaments.add_cpu(info.id, OPENER, "easy")
    start = await _books(th, [11, 12])
    await th.tournaments.start(info.id, channel=THREAD, own_thread=True)
    await th.svc.wait_idle()
    left = await th.svc.leave(GUILD, THREAD, 11)
    seat = left.seat_of(11)
    assert seat is not None and seat.away  # still seated, sat out
    assert await _books(th, [11]) == {11: start[11]}  # leaving paid nothing back
    assert _notices(th, "tables.tournament.stays_in")
    # 12 never acts: the turn clock defaults them, then sits them out; play goes on
    await _play_until(th, lambda s: s is None, step=61.0)
    done = await th.tournaments.info(info.id)
    assert done.status is Phase.FINISHED
    assert {p.user_id for p in done.places} == {e.user_id for e in info.entrants}
    assert _notices(th, "living.sat_out")  # 12 timed out twice in a row
    books = await _books(th, [11, 12])
    assert books == {u: start[u] + done.payouts.get(u, 0) for u in (11, 12)}
    # tournament hands are rated like any hand (the two humans among themselves)
    rated = await th.store.ratings(GUILD, [11, 12])
    assert set(rated) == {11, 12} and all(r.hands > 0 for r in rated.values())
    assert all(r.winnings == 0 for r in rated.values())  # tournament chips win no season
    stats = await th.store.stats(GUILD, 11)
    assert stats.hands > 0 and stats.net == 0  # tournament chips are not net winnings


async def test_only_cpus_left_still_play_to_the_end(th: TournamentHarness) -> None:
    """An ordinary table closes without humans; a tournament table of CPUs plays on."""
    info = await th.cpu_tournament(cpus=3, payout="winner_takes_all")
    await th.tournaments.start(info.id, channel=THREAD, own_thread=True)
    await th.svc.wait_idle()
    done = await th.tournaments.info(info.id)
    assert done.status is Phase.FINISHED and done.hands_played > 1
    assert list(done.payouts.values()) == [300]


async def test_open_in_lists_registering_and_running_tournaments(th: TournamentHarness) -> None:
    await th.reopen(cpu_delay=1.0)
    first = await th.cpu_tournament(cpus=3)
    second = await th.tournaments.create(
        GUILD, LOBBY, OPENER, TournamentConfig.create(buy_in=5, seats=3)
    )
    await th.tournaments.start(first.id, channel=THREAD, own_thread=True)
    listed = await th.tournaments.open_in(GUILD)
    assert [(i.id, i.status) for i in listed] == [
        (first.id, Phase.RUNNING), (second.id, Phase.REGISTERING)
    ]
    running: TournamentInfo = listed[0]
    assert running.table_id is not None and running.stacks and running.level == 1
    assert running.opened_by == OPENER
    await th.tournaments.cancel(first.id, OPENER)
    await th.tournaments.cancel(second.id, OPENER)


async def test_one_table_at_a_time_for_an_entrant(th: TournamentHarness) -> None:
    """A member sitting at a table cannot register; one who sat down after registering
    holds the start until they leave it."""
    await th.svc.open_table(GUILD, 300, 11)
    config = TournamentConfig.create(buy_in=10, seats=3)
    info = await th.tournaments.create(GUILD, LOBBY, OPENER, config)
    with pytest.raises(TableError) as seated:
        await th.tournaments.join(info.id, 11)
    assert seated.value.code == "seated_elsewhere"
    await th.tournaments.join(info.id, 12)
    await th.tournaments.add_cpu(info.id, 12, "easy")
    await th.tournaments.add_cpu(info.id, 12, "easy")
    await th.svc.join(GUILD, 300, 12)
    with pytest.raises(TableError) as held:
        await th.tournaments.start(info.id, channel=THREAD, own_thread=True)
    assert held.value.code == "entrant_seated_elsewhere"
    assert (await th.tournaments.info(info.id)).status is Phase.REGISTERING
    await th.svc.leave(GUILD, 300, 12)
    state = await th.tournaments.start(info.id, channel=THREAD, own_thread=True)
    assert state.tournament is not None and state.tournament.status is Phase.RUNNING
    await th.tournaments.cancel(info.id, OPENER)
    await th.svc.force_close(GUILD, 300, OPENER)
