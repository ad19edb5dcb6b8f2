"""Which seats are CPU players: their user ids are negative, unique per table; a table's CPU
seats (`CpuSeats`: level and own seed of each)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from bot.tables.limits import CPUS_PER_TABLE


def is_cpu(user: int) -> bool:
    """Whether `user` is a CPU seat (CPU ids are negative; Discord ids are positive)."""
    return user <= 0


def free_cpu_id(table_id: int, taken: Collection[int]) -> int | None:
    """The first CPU id of `table_id` not in `taken`: -(table_id * 10 + k), k = 1..9, so CPU
    accounts never collide between tables of one server. None when all are taken."""
    for k in range(1, CPUS_PER_TABLE + 1):
        user = -(table_id * 10 + k)
        if user not in taken:
            return user
    return None


@dataclass(frozen=True, slots=True)
class CpuSeats:
    """The CPU seats of a table: each one's level and its own seed (`bot.fairness.cpu_seed`,
    drawn when it sat, at every kind of table, so the CPU plays the same after any restart,
    independent of the table's fair-deal secret). A value: each change returns a new one.
    Stored flat in the meta's JSON under the keys it always had (`cpus`, `cpu_seeds`, and
    `next_cpu`, a counter older code kept: CPU ids come from the table id now)."""

    levels: Mapping[int, str] = field(default_factory=dict)
    seeds: Mapping[int, int] = field(default_factory=dict)
    next: int = 1

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> CpuSeats:
        """The CPU seats of a stored meta `data` (a `TableMeta.to_dict`)."""
        return cls({int(u): str(v) for u, v in (data.get("cpus") or {}).items()},
                   {int(u): int(v) for u, v in (data.get("cpu_seeds") or {}).items()},
                   int(data.get("next_cpu", 1)))

    def to_dict(self) -> dict[str, Any]:
        """The JSON fields of the meta this value is stored in."""
        return {"cpus": dict(self.levels), "cpu_seeds": dict(self.seeds), "next_cpu": self.next}

    def __contains__(self, user: object) -> bool:
        return user in self.levels

    def level(self, user: int) -> str | None:
        """The level of CPU seat `user` (None: not a CPU seat here)."""
        return self.levels.get(user)

    def seated(self, user: int, level: str, seed: int) -> CpuSeats:
        """CPU `user` of `level` sits, with its own `seed`."""
        return replace(self, levels={**self.levels, user: level}, seeds={**self.seeds, user: seed})

    def with_seed(self, user: int, seed: int) -> CpuSeats:
        """`user`'s seed, for a row saved before every kind of table drew one at seating."""
        return replace(self, seeds={**self.seeds, user: seed})

    def without(self, user: int) -> CpuSeats:
        """CPU `user` left the table."""
        return replace(self, levels={u: v for u, v in self.levels.items() if u != user},
                       seeds={u: s for u, s in self.seeds.items() if u != user})
