"""Table leases: the timing rule (pure), and each process start's owner name.

A table is driven (its actions applied, its turn clock run, its CPU players moved) only by the
process that holds its lease: a row of `table_leases` naming the owner and when the lease
expires. The store owns the statements (`acquire_lease`, `renew_lease`, `release_lease`, and
the fence of `save_table`/`close_table`, see `bot.store.leases` and `bot.store.tables`); the
table service takes, renews and releases leases (`bot.tables.leases`). This module holds what
both follow: how long a lease lasts, when it is renewed, and the rule itself as pure code
(`LeasePolicy.claim`/`fence`), which the tests run against the store step by step.

The owner renews every `renew_every` seconds, pushing the expiry to now + `ttl`; a process
that dies stops renewing, and once the expiry has passed any process whose shards hold the
table's server may take the lease and resume the table from the database, its turn clock
restored from the stored deadline. During a reshard the old owner releases its leases as it
stops (or they expire), so the new owner takes over within `ttl + renew_every` at worst. Every
table write is fenced (it applies only while its writer holds the unexpired lease, checked in
the same transaction), so a process paused past its expiry (GC, SIGSTOP, a slow disk) whose
lease was taken cannot write a single row afterwards.

The clock is each process's wall clock (`time.time`); processes on several machines need
clocks within a small fraction of `ttl - renew_every` of each other (NTP gives milliseconds).
"""

from __future__ import annotations

import os
import secrets
import socket
from dataclasses import dataclass, replace


def new_owner_id() -> str:
    """This process start's name in `table_leases.owner`: `<host>:<pid>:<random>`, so a
    restarted process (same host, maybe the same pid) never passes for its predecessor."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


@dataclass(frozen=True)
class Lease:
    """Who holds a table and until when (seconds since the epoch), as the rule sees it."""

    table_id: int
    owner: str
    expires_at: float


@dataclass(frozen=True)
class LeasePolicy:
    """How long a lease lasts (`ttl`) and how often its owner renews it, in seconds.

    `renew_every` is at most half of `ttl`, so one missed renewal (a slow transaction, a
    network blip) does not lose the lease. Times are the caller's `now`.
    """

    ttl: float = 30.0
    renew_every: float = 10.0

    def __post_init__(self) -> None:
        if not self.ttl > 0:
            raise ValueError("a lease's ttl must be more than 0 seconds")
        if not 0 < self.renew_every <= self.ttl / 2:
            raise ValueError("renew_every must be more than 0 and at most half of ttl")

    def claim(self, current: Lease | None, table_id: int, owner: str, now: float) -> Lease | None:
        """The lease after `owner` asks for it at `now`, or None when someone else holds it.

        Free: `owner` gets it. Its own: renewed. Another's, expired: taken over. Another's,
        running: refused. The store's `acquire_lease` follows this rule.
        """
        expires_at = now + self.ttl
        if current is None or current.owner == owner or current.expires_at <= now:
            return Lease(table_id, owner, expires_at)
        return None

    def renew(self, current: Lease | None, owner: str, now: float) -> Lease | None:
        """The lease after its owner renews it (`renew_lease`), or None when `owner` lost it:
        not the owner, or the lease ran out (then it is not renewed)."""
        if not self.holds(current, owner, now):
            return None
        assert current is not None
        return replace(current, expires_at=now + self.ttl)

    def holds(self, lease: Lease | None, owner: str, now: float) -> bool:
        """Whether `owner` may drive (and write) the table at `now`: the store's fence."""
        return lease is not None and lease.owner == owner and now < lease.expires_at

    def renew_due(self, lease: Lease, now: float) -> bool:
        """Whether the owner should renew now (`renew_every` after the last claim)."""
        return now >= lease.expires_at - self.ttl + self.renew_every

    def free_at(self, lease: Lease) -> float:
        """When another process may take the lease if its owner stops renewing."""
        return lease.expires_at
