"""A harness for tournament tables: the table harness with a `TournamentService` beside it."""

from __future__ import annotations

from typing import Any

from bot.tables import TableService
from bot.tournaments import TournamentConfig, TournamentInfo
from bot.tournaments.record import TableTournament
from bot.tournaments.service import TournamentService
from bot.tournaments.table_policy import policy_for
from tests.tables.helpers import GUILD, Harness

#: the channel where tournaments are opened, and the thread of their table
LOBBY = 500
THREAD = 501
OPENER = 11


class TournamentHarness(Harness):
    """The table harness (real store file, fake clock, restart) with tournaments."""

    tournaments: TournamentService
    #: the tournament service's seed (first dealers, table seeds)
    seed = 3

    async def open(self, **kwargs: Any) -> TableService:
        kwargs.setdefault("policy_for", policy_for)  # tournament tables play by their policy
        kwargs.setdefault("read_tournament", TableTournament.from_dict)  # and hold its record
        service = await super().open(**kwargs)
        self.tournaments = TournamentService(self.store, service, seed=self.seed)
        return service

    async def reopen(self, **kwargs: Any) -> TableService:
        """Stop the service and close the store, then open both again with new options
        (e.g. `cpu_delay=1.0`: CPUs think on the fake clock, so the test drives time)."""
        await self.svc.stop()
        await self.store.close()
        return await self.open(**kwargs)

    async def cpu_tournament(
        self, *, cpus: int = 4, buy_in: int = 100, schedule: str = "turbo",
        payout: str = "65_35", level: str = "easy", hands_per_level: int | None = None,
    ) -> TournamentInfo:
        """A full tournament of CPU entrants (registering: not started)."""
        config = TournamentConfig.create(
            buy_in=buy_in, seats=cpus, schedule=schedule, payout=payout,
            hands_per_level=hands_per_level,
        )
        info = await self.tournaments.create(GUILD, LOBBY, OPENER, config)
        for _ in range(cpus):
            info = await self.tournaments.add_cpu(info.id, OPENER, level)
        return info

    async def minted(self) -> int:
        """The chips minted on the server so far (balances + escrows + pools)."""
        balances, escrow, minted = await self.store.total_chips(GUILD)
        assert balances + escrow == minted
        return int(minted)
