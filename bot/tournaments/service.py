"""`TournamentService`: sit-and-go tournaments for the Discord side (Discord-free).

The cog calls it; it keeps the tournament rows of the store (registration, escrowed
buy-ins, refunds, payouts) and opens the tournament's table on the `TableService`, which
plays the hands (see `bot.tables.tournament_hands`). Who may open or cancel a tournament is
the cog's check (`ServerSettings.tournaments_open`, manager permissions): the service only
records the opener.

Refusals are `TournamentError` (the store's: `error.message(lang)`, text `store.<code>`),
`RankedError` (`t(error.key, lang, **error.params)`, text `ranked.*`) or the table service's
`TableError`; nothing changed when one is raised.
"""

from __future__ import annotations

from bot.ratings.errors import RankedError
from bot.store import StoreContract
from bot.store.errors import TournamentError
from bot.tables.service import TableService
from bot.tables.updates import TableState
from bot.tournaments.config import TournamentConfig
from bot.tournaments.info import TournamentInfo

__all__ = ["RankedError", "TournamentError", "TournamentService"]


class TournamentService:
    """Tournaments of the servers of one process, beside its `TableService`."""

    def __init__(self, store: StoreContract, tables: TableService) -> None:
        self.store = store
        self.tables = tables

    async def create(
        self, guild: int, channel: int, by: int, config: TournamentConfig
    ) -> TournamentInfo:
        """Open a tournament for registration in `channel` (the opener is not registered)."""
        raise NotImplementedError

    async def join(self, tournament_id: int, user: int) -> TournamentInfo:
        """Register `user`, escrowing the buy-in from their balance."""
        raise NotImplementedError

    async def leave(self, tournament_id: int, user: int) -> TournamentInfo:
        """Withdraw `user` before the start, refunding the buy-in."""
        raise NotImplementedError

    async def add_cpu(self, tournament_id: int, by: int, level: str) -> TournamentInfo:
        """Register a CPU entrant of `level` ("easy", "hard", "random"); it pays its buy-in
        from its own CPU account, like a table CPU."""
        raise NotImplementedError

    async def cancel(self, tournament_id: int, by: int) -> TournamentInfo:
        """Cancel a registering or running tournament, refunding every buy-in."""
        raise NotImplementedError

    async def start(self, tournament_id: int, *, channel: int, own_thread: bool) -> TableState:
        """Seat the entrants at a new tournament table in `channel` and deal; the tournament
        becomes running with its table, in one transaction with the table's creation."""
        raise NotImplementedError

    async def info(self, tournament_id: int) -> TournamentInfo:
        """The tournament now (TournamentError tournament_not_found)."""
        raise NotImplementedError

    async def open_in(self, guild: int) -> list[TournamentInfo]:
        """The server's tournaments registering or running, oldest first."""
        raise NotImplementedError
