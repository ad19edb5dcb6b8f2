"""A harness for the table service tests: real store file, fake clock, restart, drivers."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from bot.engine import Concede, Declare, Pass
from bot.players import RandomPlayer
from bot.store import Store
from bot.tables import FakeClock, TableService, TableState, Update

GUILD = 1
CHANNEL = 100
USERS = (11, 12, 13, 14)


class Harness:
    """A store on a file and a service on it, rebuilt by `restart()` as after a crash."""

    def __init__(
        self, path: Path, open_store: Callable[[], Awaitable[Any]] | None = None
    ) -> None:
        self.path = path
        #: opens the store (default: SQLite on `path`); each call is a new connection
        self.open_store = open_store
        self.clock = FakeClock()
        self.store: Any = None
        self.service: TableService | None = None
        self.updates: list[Update] = []
        self.service_kwargs: dict[str, Any] = {}

    async def open(self, **kwargs: Any) -> TableService:
        """Open the store and start a service on it (resuming open tables)."""
        self.service_kwargs.update(kwargs)
        if self.open_store is not None:
            self.store = await self.open_store()
        else:
            self.store = await Store.open(str(self.path))
        self.service = await TableService.start(
            self.store, clock=self.clock, seed=7, turn_timeout=60.0, **self.service_kwargs
        )
        self.service.subscribe(self._record)
        return self.service

    async def _record(self, update: Update) -> None:
        self.updates.append(update)

    async def restart(self) -> TableService:
        """Stop the service and close the store, then reopen both from the same file."""
        assert self.service is not None
        await self.service.stop()
        await self.store.close()
        return await self.open()

    async def close(self) -> None:
        """Stop everything."""
        if self.service is not None:
            await self.service.stop()
        if self.store is not None:
            await self.store.close()

    @asynccontextmanager
    async def audited(self) -> AsyncIterator[TableService]:
        """Open for the block; after it, once the service is idle, `chips_conserved`; closed
        however the block ends (the fixtures of the table and tournament tests)."""
        await self.open()
        try:
            yield self.svc
            await self.svc.wait_idle()
            await self.chips_conserved()
        finally:
            await self.close()

    @property
    def svc(self) -> TableService:
        """The current service."""
        assert self.service is not None
        return self.service

    def state(self, channel: int = CHANNEL) -> TableState | None:
        """The current snapshot of the table in `channel`."""
        return self.svc.state(channel)

    async def chips_conserved(self) -> None:
        """The ledger audit is clean and no chip was created or lost in the guild."""
        assert await self.store.audit() == []
        balances, escrow, minted = await self.store.total_chips(GUILD)
        assert balances + escrow == minted, (balances, escrow, minted)

    async def seat_four(self, users: tuple[int, ...] = USERS, channel: int = CHANNEL) -> None:
        """Open a table and seat `users`."""
        await self.svc.open_table(GUILD, channel, users[0])
        for user in users[1:]:
            await self.svc.join(GUILD, channel, user)


def random_players(users: tuple[int, ...] = USERS, seed: int = 0) -> dict[int, Any]:
    """A seeded random player per user."""
    return {u: RandomPlayer(seed * 1000 + u) for u in users}


class Passer:
    """Passes whenever it may, declares its best point, opens the stoppa as a timeout would."""

    name = "passer"

    def choose(self, view: Any, legal: list[Any], events: Any = ()) -> Any:
        """Pass, else the first declaration (the best point), else the first legal action."""
        for action in legal:
            if isinstance(action, Pass):
                return action
        declares = [a for a in legal if isinstance(a, Declare)]
        if declares:
            return declares[0]
        return next((a for a in legal if not isinstance(a, Concede)), legal[0])


async def drive(
    h: Harness,
    until: Callable[[TableState | None], bool],
    players: dict[int, Any],
    *,
    channel: int = CHANNEL,
    max_actions: int = 4000,
    skip: Callable[[TableState], bool] | None = None,
) -> TableState | None:
    """Let the humans of `players` act (with the tokens) until `until(state)` holds.

    `skip(state)` true: do not act, return the state (the caller acts, e.g. lets time pass).
    """
    for _ in range(max_actions):
        await h.svc.wait_idle()
        state = h.state(channel)
        if until(state):
            return state
        assert state is not None, "the table closed before the condition held"
        if skip is not None and skip(state):
            return state
        user = state.to_act
        assert user is not None, f"nobody to act: {state.status} {state.phase}"
        assert user > 0, "a CPU seat did not act"
        info = h.svc.hand_for(GUILD, channel, user)
        action = players[user].choose(info.seat_view, list(info.actions), info.events)
        await h.svc.act(
            GUILD, channel, user, action, expected_hand=state.hand_no, expected_turn=state.turn
        )
    raise AssertionError("the condition never held")


class TamePlayer:
    """Random, but bets and raises only the minimum: chips move slowly, nobody goes broke."""

    name = "tame"

    def __init__(self, seed: int) -> None:
        import random

        self.rng = random.Random(seed)

    def choose(self, view: Any, legal: list[Any], events: Any = ()) -> Any:
        """A uniformly random legal action (Bet/Raise at their listed minimum)."""
        return legal[self.rng.randrange(len(legal))]
