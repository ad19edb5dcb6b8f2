"""Which shards a process runs, and which servers (guilds) it therefore owns.

Discord sends every event of a server to one shard, `(guild_id >> 22) % shard_count` (the
server id's creation time in milliseconds, modulo the count: discord.py uses the same rule in
`AutoShardedClient`). A process that runs the shards `shard_ids` of `shard_count` owns exactly
the servers that rule maps into its ids; that is the one place the rule lives here, so the
table service (which resumes only the tables of its own servers) and the cluster supervisor
(which splits the shards between processes) agree with Discord by construction.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Discord caps a bot's shard count far below this; a larger value is a typo.
MAX_SHARD_COUNT = 10_000


class ShardError(ValueError):
    """A shard setting is wrong. The message is one line naming what to fix."""


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord sends the events of server `guild_id` to."""
    if shard_count < 1:
        raise ValueError("shard_count must be at least 1")
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True)
class ShardPlan:
    """The shards one process runs: `shard_ids` (sorted, distinct) of `shard_count`.

    `shard_ids=None` means all of them (what discord.py does without `shard_ids`).
    """

    shard_count: int
    shard_ids: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if not 1 <= self.shard_count <= MAX_SHARD_COUNT:
            raise ShardError(f"the shard count must be between 1 and {MAX_SHARD_COUNT}")
        if self.shard_ids is not None:
            if not self.shard_ids:
                raise ShardError("a process must run at least one shard")
            if list(self.shard_ids) != sorted(set(self.shard_ids)):
                raise ShardError("shard ids must be distinct and in increasing order")
            if self.shard_ids[0] < 0 or self.shard_ids[-1] >= self.shard_count:
                raise ShardError(
                    f"shard ids must be from 0 to {self.shard_count - 1}"
                    f" (the shard count is {self.shard_count})"
                )

    @property
    def ids(self) -> tuple[int, ...]:
        """Every shard id this process runs."""
        if self.shard_ids is None:
            return tuple(range(self.shard_count))
        return self.shard_ids

    def owns(self, guild_id: int) -> bool:
        """Whether the events (and so the tables) of server `guild_id` come to this process."""
        shard = shard_of(guild_id, self.shard_count)
        return self.shard_ids is None or shard in self.shard_ids

    def describe_ids(self) -> str:
        """The ids as `STOPPA_SHARD_IDS` takes them: runs as ranges (`0-3,6`)."""
        return format_shard_ids(self.ids)


def parse_shard_ids(text: str, shard_count: int) -> tuple[int, ...]:
    """`0-3`, `0,2,5` or `0-1,6` as sorted, distinct shard ids below `shard_count`.

    Raises `ShardError` (one line, saying what was wrong) on anything else.
    """
    ids: list[int] = []
    for part in text.split(","):
        part = part.strip()
        low, sep, high = part.partition("-")
        low, high = low.strip(), high.strip()
        if not low.isdigit() or (sep and not high.isdigit()):
            raise ShardError(
                f"{part!r} is not a shard id or a range like 0-3 (write e.g. 0-3 or 0,2,5)"
            )
        first, last = int(low), int(high) if sep else int(low)
        if last < first:
            raise ShardError(f"the range {part!r} goes backwards (write {last}-{first})")
        if last >= shard_count:
            raise ShardError(
                f"shard {last} does not exist: with {shard_count} shards the ids are"
                f" 0 to {shard_count - 1}"
            )
        ids.extend(range(first, last + 1))
    if len(ids) != len(set(ids)):
        raise ShardError(f"a shard id is listed twice in {text!r}")
    return tuple(sorted(ids))


def format_shard_ids(ids: tuple[int, ...] | list[int]) -> str:
    """Sorted shard ids written compactly, runs as ranges: `(0, 1, 2, 3, 6)` -> `0-3,6`."""
    parts: list[str] = []
    start = previous = None
    for shard in sorted(ids):
        if previous is not None and shard == previous + 1:
            previous = shard
            continue
        if start is not None:
            parts.append(str(start) if start == previous else f"{start}-{previous}")
        start = previous = shard
    if start is not None:
        parts.append(str(start) if start == previous else f"{start}-{previous}")
    return ",".join(parts)


def split_shards(shard_count: int, processes: int) -> list[ShardPlan]:
    """`shard_count` shards split between `processes` processes in contiguous blocks whose
    sizes differ by at most one (8 over 3: `0-2`, `3-5`, `6-7`)."""
    if processes < 1:
        raise ShardError("a cluster needs at least one process")
    if processes > shard_count:
        raise ShardError(
            f"{processes} processes need at least {processes} shards (got {shard_count}):"
            " every process runs one shard or more"
        )
    base, extra = divmod(shard_count, processes)
    plans: list[ShardPlan] = []
    start = 0
    for index in range(processes):
        size = base + (1 if index < extra else 0)
        plans.append(ShardPlan(shard_count, tuple(range(start, start + size))))
        start += size
    return plans
