"""`Shared`: what every table session of one service uses in common.

The store, the clock, the CPU settings (their `Thinker` too), the listeners and the
background tasks, so that `TableService.stop` and `wait_idle` see every session's timers and
CPU turns.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.fairness import TableSecret, cpu_seed
from bot.players import CpuPlayer
from bot.store import StoreContract
from bot.tables.absence import Absence
from bot.tables.clock import Clock
from bot.tables.meta import TableMeta, TournamentReader
from bot.tables.updates import Update
from bot.thinking import Thinker

log = logging.getLogger("stoppa.tables")

Listener = Callable[[Update], Awaitable[None]]


#: Builds a CPU player from its level and seed (`bot.players.make_player`).
PlayerFactory = Callable[[str, int | None], CpuPlayer]


@dataclass
class Shared:
    """The service-wide part every session reads (store, clock, CPU settings, listeners)."""

    store: StoreContract
    clock: Clock
    player_factory: PlayerFactory
    cpu_delay: float = 0.0
    max_timeouts: int = 2
    #: what a player who ran out of time `max_timeouts` times in a row becomes: "sit_out" or
    #: "leave" (the defaults of every new table's settings, kept in its meta)
    away_mode: str = "sit_out"
    #: where the CPU seats think (worker processes on a live bot; by default a thread)
    thinker: Thinker = field(default_factory=Thinker)
    listeners: list[Listener] = field(default_factory=list)
    #: CPU moves and fired timers now running (`wait_idle` waits for them)
    busy: set[asyncio.Task[Any]] = field(default_factory=set)
    #: every CPU turn task and pending deal (`TableSession.schedule_deal`), asleep or
    #: running (`stop` cancels them)
    cpu_tasks: set[asyncio.Task[Any]] = field(default_factory=set)
    stopped: bool = False
    #: called with a table id when its session closes (the service forgets it)
    on_close: Callable[[int], None] = lambda table_id: None
    #: this process's name in the table leases and their clock; None: no leases (one
    #: process, unfenced writes)
    lease_owner: str | None = None
    lease_clock: Clock | None = None
    #: the seeded generator of the tables' secrets and CPU seeds when a test or the demo
    #: gave the service a seed on purpose; None (always on Discord): `secrets` draws them
    seeded: random.Random | None = None
    #: reads a stored tournament table's part of the meta (the tournament code's; None: this
    #: service plays no tournament tables)
    read_tournament: TournamentReader | None = None
    #: seconds between a hand and the next deal where a server set no pause (the bot runs
    #: with `DEFAULT_HAND_PAUSE`; tests, the demo and the benchmarks deal at once)
    hand_pause: float = 0.0

    async def pause_of(self, guild: int) -> float:
        """The pause between two hands on `guild`: its managers' `/settings pause`, else the
        service's; the default when the settings cannot be read (the hand still ends)."""
        try:
            pause = (await self.store.server_settings(guild)).hand_pause
        except Exception:
            log.exception("server %s: settings unreadable; the default pause", guild)
            return self.hand_pause
        return self.hand_pause if pause is None else float(pause)

    def read_meta(self, data: Mapping[str, Any]) -> TableMeta:
        """A stored meta, typed (`TableMeta.from_dict` with this service's tournament reader)."""
        return TableMeta.from_dict(data, self.read_tournament)

    def absence_rule(self) -> Absence:
        """A new table's rule of absent players: sat out (or gone, `away_mode`) after
        `max_timeouts` timeouts in a row."""
        return Absence(after=self.max_timeouts, mode=self.away_mode)

    def table_secret(self) -> TableSecret:
        """A new table's fair-deal secret (docs/fairness.md)."""
        return TableSecret.draw(self.seeded)

    def cpu_seed(self) -> int:
        """A new CPU seat's own seed, independent of every table secret."""
        return cpu_seed() if self.seeded is None else self.seeded.getrandbits(63)

    def fence(self) -> dict[str, Any]:
        """The keyword arguments that fence a table write by this process's lease (none
        without leases): `save_table(..., **shared.fence())`."""
        if self.lease_owner is None or self.lease_clock is None:
            return {}
        return {"lease_owner": self.lease_owner, "now": self.lease_clock.now()}

    def mark_busy(self, task: asyncio.Task[Any]) -> None:
        """`wait_idle` waits for busy tasks (not for those sleeping on the clock)."""
        self.busy.add(task)
        task.add_done_callback(self.busy.discard)

    def track_cpu(self, task: asyncio.Task[Any]) -> None:
        """Keep a CPU turn task until it ends (so `stop` can cancel it)."""
        self.cpu_tasks.add(task)
        task.add_done_callback(self.cpu_tasks.discard)

    async def publish(self, updates: Iterable[Update]) -> None:
        """Hand every update of a channel's table to every listener (a practice table's
        changes are its member's, answered in their clicks); a failing listener is logged,
        not raised."""
        for update in updates:
            if not update.channel_table:
                continue
            for listener in list(self.listeners):
                try:
                    await listener(update)
                except Exception:
                    log.exception("table listener failed on %s", update.kind)
