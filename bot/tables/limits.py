"""The table limits of the service (the seat limits are the engine's: R-1)."""

from __future__ import annotations

from bot.engine import MAX_PLAYERS, MIN_PLAYERS

MIN_BALANCE_ANTES = 10  # a minimum balance to sit: 10 x ante
MAX_TIMEOUTS = 2  # timeouts in a row before a player is sat out (or leaves: `away_mode`)
LAST_EVENTS = 30  # public events kept in the snapshot
CPUS_PER_TABLE = 9  # CPU ids -(table_id * 10 + k), k = 1..9
#: seconds between the end of a hand and the next deal on a server whose managers set none
#: (`/settings pause`): over two of the table message's publish intervals (1.5 s), so the
#: hand's last picture (the cards shown, who paid) is surely posted before the next deal
#: replaces it, and about the time it takes to read it; the result itself stays on screen
#: until the next human decision whatever the pause
DEFAULT_HAND_PAUSE = 4.0

__all__ = [
    "CPUS_PER_TABLE",
    "DEFAULT_HAND_PAUSE",
    "LAST_EVENTS",
    "MAX_PLAYERS",
    "MAX_TIMEOUTS",
    "MIN_BALANCE_ANTES",
    "MIN_PLAYERS",
]
