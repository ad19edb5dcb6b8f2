"""Hypothesis: any tournament config and seed, played by CPU entrants at a real table through
`TableService`, ends, pays exactly its pool by place, and creates or loses no chip."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.tournaments import PAYOUTS, SCHEDULES, Phase, TournamentConfig
from tests.tables.helpers import GUILD
from tests.tournaments.helpers import LOBBY, OPENER, THREAD, TournamentHarness


@st.composite
def configs(draw: st.DrawFn) -> TournamentConfig:
    seats = draw(st.integers(3, 6))
    payout = draw(st.sampled_from([p for p, v in PAYOUTS.items() if len(v.percents) < seats]))
    schedule = draw(st.sampled_from(sorted(SCHEDULES)))
    low = 10 * SCHEDULES[schedule].level(0).ante
    return TournamentConfig.create(
        buy_in=draw(st.integers(0, 400)),
        seats=seats,
        starting_stack=draw(st.integers(low, 3 * low)),
        schedule=schedule,
        payout=payout,
        hands_per_level=draw(st.integers(1, 4)),
    )


async def _play(config: TournamentConfig, seed: int, levels: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        th = TournamentHarness(Path(folder) / "p.db")
        th.seed = seed
        await th.open()
        try:
            info = await th.tournaments.create(GUILD, LOBBY, OPENER, config)
            for i in range(config.seats):
                info = await th.tournaments.add_cpu(info.id, OPENER, levels[i % len(levels)])
            # every account exists (a CPU's is made, minted, when first read)
            await th.store.balances(GUILD, [e.user_id for e in info.entrants])
            balances, pools, minted_before = await th.store.total_chips(GUILD)
            assert pools == info.prize_pool == config.buy_in * config.seats
            await th.tournaments.start(info.id, channel=THREAD, own_thread=True)
            await th.svc.wait_idle()
            done = await th.tournaments.info(info.id)
            assert done.status is Phase.FINISHED  # every tournament ends
            assert sorted(p.place for p in done.places) == list(range(1, config.seats + 1))
            assert sum(done.payouts.values()) == config.buy_in * config.seats
            balances, pools, minted = await th.store.total_chips(GUILD)
            assert pools == 0 and minted == minted_before and balances == minted
            assert await th.store.audit() == []
            assert th.svc.state(THREAD) is None
        finally:
            await th.close()


@pytest.mark.slow
@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    config=configs(),
    seed=st.integers(0, 2**31),
    levels=st.lists(st.sampled_from(["easy", "random", "hard"]), min_size=1, max_size=3),
)
def test_no_chip_is_created_or_lost_and_every_tournament_ends(
    config: TournamentConfig, seed: int, levels: list[str]
) -> None:
    asyncio.run(_play(config, seed, levels))


async def _play_with_restarts(config: TournamentConfig, seed: int, stops: list[int]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        th = TournamentHarness(Path(folder) / "p.db")
        th.seed = seed
        await th.open(cpu_delay=1.0)  # CPUs think on the fake clock: restarts fall mid-hand
        try:
            info = await th.tournaments.create(GUILD, LOBBY, OPENER, config)
            for _ in range(config.seats):
                info = await th.tournaments.add_cpu(info.id, OPENER, "easy")
            await th.store.balances(GUILD, [e.user_id for e in info.entrants])
            minted_before = (await th.store.total_chips(GUILD))[2]
            await th.tournaments.start(info.id, channel=THREAD, own_thread=True)
            for steps in range(50_000):
                if th.svc.state(THREAD) is None:
                    break
                if stops and steps >= stops[0]:
                    stops.pop(0)
                    before = th.svc.state(THREAD)
                    await th.restart()
                    after = th.svc.state(THREAD)
                    assert after is not None and before is not None
                    assert after.tournament == before.tournament
                await th.clock.advance(1.0)
                await th.svc.wait_idle()
            done = await th.tournaments.info(info.id)
            assert done.status is Phase.FINISHED
            assert sum(done.payouts.values()) == config.buy_in * config.seats
            balances, pools, minted = await th.store.total_chips(GUILD)
            assert (pools, minted, balances) == (0, minted_before, minted)
            assert await th.store.audit() == []
        finally:
            await th.close()


@pytest.mark.slow
@settings(max_examples=5, deadline=None)
@given(
    config=configs(),
    seed=st.integers(0, 2**31),
    stops=st.lists(st.integers(0, 120), min_size=1, max_size=3).map(sorted),
)
def test_restarts_anywhere_change_nothing_and_the_tournament_still_ends(
    config: TournamentConfig, seed: int, stops: list[int]
) -> None:
    asyncio.run(_play_with_restarts(config, seed, stops))
