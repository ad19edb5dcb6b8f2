"""`Table`: the in-memory side of one open table, and the table limits."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.engine import Hand
from bot.store import TableRow
from bot.tables.meta import TableMeta
from bot.tables.updates import TableState

MIN_PLAYERS = 3
MAX_PLAYERS = 6
MIN_BALANCE_ANTES = 10  # a minimum balance to sit: 10 x ante
MAX_TIMEOUTS = 2  # timeouts in a row before removal at the end of the hand
LAST_EVENTS = 30  # public events kept in the snapshot


class Table:
    """The in-memory side of one open table (its row, meta, engine hand, lock, tasks)."""

    __slots__ = (
        "balances",
        "closed",
        "cpu_players",
        "hand",
        "lock",
        "meta",
        "row",
        "snapshot",
        "timeout",
        "timer",
        "timer_key",
    )

    def __init__(self, row: TableRow, meta: TableMeta, hand: Hand | None, timeout: float) -> None:
        self.row = row
        self.meta = meta
        self.hand = hand
        self.lock = asyncio.Lock()
        self.timeout = timeout
        self.balances: dict[int, int] = {}
        self.cpu_players: dict[int, Any] = {}
        self.timer: asyncio.Task[None] | None = None
        self.timer_key: tuple[float, int, int] | None = None
        self.snapshot: TableState | None = None
        self.closed = False

    @property
    def id(self) -> int:
        """The table id."""
        return self.row.id

    @property
    def in_hand(self) -> bool:
        """Whether a hand is being played (not over)."""
        return self.hand is not None and self.hand.phase != "over"
