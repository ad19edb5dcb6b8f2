"""Which seats are CPU players: their user ids are negative, unique per table."""

from __future__ import annotations

from collections.abc import Collection

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
