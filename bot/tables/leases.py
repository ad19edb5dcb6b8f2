"""Which tables this process drives: the servers its shards hold, and the leases it holds.

Several bot processes may share one database (a cluster). A process drives a table (applies
its actions, runs its turn clock and its CPU seats) only while it holds the table's lease in
the store (`acquire_lease`): at start it resumes the open tables of its own servers whose
lease it gets; on a beat (`LeasePolicy.renew_every`) it renews the leases of the tables in
memory, drops a table whose lease it lost (no write: the store's fence refuses it anyway),
and takes over the open tables of its servers that nobody holds any more (their owner
crashed, or stopped during a reshard), resuming each from the database. A clean stop
releases every lease so the next owner need not wait for them to expire.

Lease times are the wall clock of `Ownership.clock` (a fake one in tests), not the turn clock
of the service: a lease measures whether a process is alive, not the time of a game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass, field

import bot.metrics as metrics
from bot.cluster.leases import LeasePolicy, new_owner_id
from bot.cluster.shards import ShardPlan
from bot.store import StoreContract, TableRow
from bot.tables.clock import Clock

log = logging.getLogger("stoppa.tables")


class WallClock:
    """Lease time: the wall clock (`time.time`), and ONE event-loop sleep to wait for a beat
    (a beat that wakes a little early is harmless; a loop whose time is simulated, as in the
    offline harness, keeps its beats on its own time instead of spinning)."""

    def now(self) -> float:
        """The current epoch time."""
        return time.time()

    async def sleep_until(self, when: float) -> None:
        """Sleep about until `when` (at once if it has passed)."""
        await asyncio.sleep(max(0.0, when - time.time()))


@dataclass(frozen=True)
class Ownership:
    """This process's name in the leases, its shards (None: every server), the timings and
    the clock they are measured on."""

    owner: str = field(default_factory=new_owner_id)
    shards: ShardPlan | None = None
    policy: LeasePolicy = field(default_factory=LeasePolicy)
    clock: Clock = field(default_factory=WallClock, compare=False)

    def owns(self, guild_id: int) -> bool:
        """Whether the server's events, and so its tables, come to this process."""
        return self.shards is None or self.shards.owns(guild_id)


class LeaseKeeper:
    """Takes, renews and releases the leases of one table service (see the module doc).

    `held` lists the ids of the tables in memory; `drop(table_id)` forgets one whose lease
    was lost; `adopt(row)` loads a table whose lease was just taken (from its stored row).
    """

    def __init__(
        self,
        store: StoreContract,
        ownership: Ownership,
        *,
        held: Callable[[], Collection[int]],
        drop: Callable[[int], None],
        adopt: Callable[[TableRow], Awaitable[None]],
    ) -> None:
        self.store = store
        self.clock = ownership.clock
        self.ownership = ownership
        self._held = held
        self._drop = drop
        self._adopt = adopt
        self.task: asyncio.Task[None] | None = None
        #: a beat is running (`TableService.wait_idle` waits for it)
        self.beating = False
        #: channel id -> table id of the open tables of this process's servers whose lease
        #: another process holds (a crashed one, until it expires): their channels have a
        #: table, not driven here yet
        self.elsewhere: dict[int, int] = {}

    @property
    def owner(self) -> str:
        """This process's name in `table_leases`."""
        return self.ownership.owner

    async def claim(self, table_id: int) -> bool:
        """Take (or keep) the table's lease now; whether this process holds it."""
        policy = self.ownership.policy
        lease = await self.store.acquire_lease(table_id, self.owner, policy.ttl, self.clock.now())
        return lease.granted

    async def claimable(self) -> list[TableRow]:
        """The open tables of this process's servers not in memory whose lease it just took,
        each read again after the lease was taken (so it shows every write of the old owner)."""
        held = set(self._held())
        taken: list[TableRow] = []
        elsewhere: dict[int, int] = {}
        for row in await self.store.load_open_tables():
            if row.id in held or not self.ownership.owns(row.guild_id):
                continue
            if await self.claim(row.id):
                taken.append(await self.store.get_table(row.id))
            else:
                elsewhere[row.channel_id] = row.id
        self.elsewhere = elsewhere
        return taken

    async def beat(self) -> None:
        """Renew every lease held; drop the tables whose lease was lost; take over the
        tables of this process's servers that nobody drives."""
        policy = self.ownership.policy
        now = self.clock.now()
        held = list(self._held())
        renewed = set(await self.store.renew_leases(self.owner, policy.ttl, now))
        for table_id in held:
            if table_id not in renewed:
                log.warning("table %s: lease lost; another process drives it now", table_id)
                self._drop(table_id)
        for row in await self.claimable():
            log.info("table %s: lease taken over; resuming it", row.id)
            metrics.lease_taken_over()
            await self._adopt(row)

    def start(self) -> None:
        """Run `beat` every `renew_every` seconds of the clock until `stop`."""
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        every = self.ownership.policy.renew_every
        due = self.clock.now() + every
        while True:
            await self.clock.sleep_until(due)
            due = max(due + every, self.clock.now())  # on a fixed beat; none piled up
            self.beating = True
            try:
                await self.beat()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("lease beat failed; retrying at the next one")
            finally:
                self.beating = False

    async def stop(self, release: Collection[int]) -> None:
        """Stop the beat and release the leases of `release` (a clean stop)."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task
            self.task = None
        for table_id in release:
            try:
                await self.store.release_lease(table_id, self.owner)
            except Exception:
                log.exception("table %s: lease not released; it expires by itself", table_id)
