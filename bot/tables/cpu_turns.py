"""`CpuTurns`: the CPU players of one table's seats and the choice of their moves.

When a CPU seat is to act after a commit, the session starts a task that thinks off the event
loop (after the service's `cpu_delay`, on its clock) and applies the move under its lock if
the turn is still the one it thought about; a CPU that fails (or chooses an illegal action)
plays the engine's default action. This class keeps each seat's `CpuPlayer` (built once, with
the seat's own seed) and the task of the turn scheduled last; `to_play` says which CPU seat
acts now.

The thinking is the service's `Thinker`'s (`bot.thinking`): in a worker process on a live
bot, so a search does not hold this process's interpreter lock while people click. A worker
thinks with a copy of the player and hands back the player as it is after choosing, which
replaces the seat's: a player's state (its rng, what it read of the bets) runs from one
decision to the next as it would in one process. One decision of a table at a time, so that
state passes on in order.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from bot.engine import Action, Hand
from bot.players import CpuPlayer
from bot.tables.cpus import is_cpu
from bot.tables.meta import TableMeta
from bot.tables.shared import PlayerFactory
from bot.thinking import Thinker

log = logging.getLogger("stoppa.tables")


def to_play(hand: Hand, meta: TableMeta) -> int | None:
    """The CPU seat to act now in `hand` (not leaving, not sat out), or None."""
    if hand.to_act is None:
        return None
    user = meta.in_play.players[hand.to_act]
    if not is_cpu(user) or user not in meta.cpus or user in meta.in_play.leaving:
        return None
    return None if meta.absence.is_away(user) else user


class CpuTurns:
    """The CPU players of table `table_id` (see the module docstring)."""

    def __init__(self, table_id: int, factory: PlayerFactory, thinker: Thinker) -> None:
        self.table_id = table_id
        self.factory = factory
        self.thinker = thinker
        self.players: dict[int, CpuPlayer] = {}
        #: held while a seat of this table thinks (its player is replaced when it is done)
        self.thinking = asyncio.Lock()
        #: the CPU turn scheduled last (`played` waits for the chain of them)
        self.task: asyncio.Task[None] | None = None

    async def played(self) -> None:
        """Wait until no CPU seat is to act (each move schedules the next one's task)."""
        while self.task is not None and not self.task.done():
            await asyncio.wait({self.task})

    def player(self, user: int, level: str, seed: Callable[[], int]) -> CpuPlayer:
        """The CPU player of seat `user` (built once, with the seat's own `seed()` drawn when
        it sat: never from the table's secret or seed, so it cannot know a future deck)."""
        player = self.players.get(user)
        if player is None:
            player = self.players[user] = self.factory(level, seed())
        return player

    async def choose(self, user: int, level: str, seed: Callable[[], int], hand: Hand,
                     seat: int) -> Action | None:
        """The choice of CPU `user` (of `level`, its seed `seed()`) in `seat` of `hand`,
        thought off the event loop (None when it failed); the seat keeps the player as it is
        after choosing."""
        view, legal, events = hand.seat_view(seat), hand.legal_actions(), hand.events_for(seat)
        async with self.thinking:
            try:
                decision = await self.thinker.decide(self.player(user, level, seed), view,
                                                     legal, events)
            except Exception:
                log.exception("table %s: CPU %s failed to choose; defaulting", self.table_id,
                              user)
                return None
            self.players[user] = decision.player
            return decision.action
