"""The table limits of the service (the seat limits are the engine's: R-1)."""

from __future__ import annotations

from bot.engine import MAX_PLAYERS, MIN_PLAYERS

MIN_BALANCE_ANTES = 10  # a minimum balance to sit: 10 x ante
MAX_TIMEOUTS = 2  # timeouts in a row before a player is sat out (or leaves: `away_mode`)
LAST_EVENTS = 30  # public events kept in the snapshot
CPUS_PER_TABLE = 9  # CPU ids -(table_id * 10 + k), k = 1..9

__all__ = [
    "CPUS_PER_TABLE",
    "LAST_EVENTS",
    "MAX_PLAYERS",
    "MAX_TIMEOUTS",
    "MIN_BALANCE_ANTES",
    "MIN_PLAYERS",
]
