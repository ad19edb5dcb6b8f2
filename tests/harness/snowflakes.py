"""Realistic Discord snowflakes (timestamp << 22 | worker | process | increment)."""

from __future__ import annotations

import itertools

DISCORD_EPOCH_MS = 1_420_070_400_000
#: 2025-01-01T00:00:00Z: every snowflake of a harness run is "made" after this instant.
BASE_MS = 1_735_689_600_000


class Snowflakes:
    """A deterministic source of increasing snowflakes (one millisecond apart)."""

    def __init__(self, base_ms: int = BASE_MS, worker: int = 1, process: int = 0) -> None:
        self._ms = itertools.count(base_ms)
        self._inc = itertools.count()
        self._worker = worker & 0x1F
        self._process = process & 0x1F

    def next(self) -> int:
        """A new snowflake."""
        ms = next(self._ms) - DISCORD_EPOCH_MS
        return (ms << 22) | (self._worker << 17) | (self._process << 12) | (next(self._inc) & 0xFFF)


def snowflake_time_iso(snowflake: int) -> str:
    """The ISO-8601 timestamp encoded in a snowflake (as Discord writes it)."""
    import datetime

    ms = (snowflake >> 22) + DISCORD_EPOCH_MS
    moment = datetime.datetime.fromtimestamp(ms / 1000, tz=datetime.UTC)
    return moment.isoformat()
