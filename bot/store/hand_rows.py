"""Finished hands as read back for a player's history and replays (see `HistoryMixin`)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from bot.store.jsontext import int_keys


@dataclass(frozen=True, slots=True)
class StoredHand:
    """One row of `hands` with its table's channel.

    `seats` are the players' user ids in seat order (the order of `result`, which the table
    service writes seat by seat); `events` is the hand's full event log as stored (JSON text,
    private deals included: filter with `Event.visible_to` before showing anything).
    """

    id: int
    table_id: int
    channel_id: int
    hand_no: int
    at: float
    seats: tuple[int, ...]
    result: dict[int, int]
    closes: dict[int, int]
    events: str

    def seat_of(self, user: int) -> int | None:
        """The seat `user` played in this hand, or None."""
        return self.seats.index(user) if user in self.seats else None

    def event_dicts(self) -> list[dict[str, Any]]:
        """The event log as a list of dicts (`Event.to_dict()` form)."""
        return list(json.loads(self.events))


def history_entry(row: Any) -> dict[str, Any]:
    """One row of a table's `hand_history` (either database's row type) as a dict whose user
    keys are ints."""
    return {
        "hand_no": row["hand_no"],
        "seed": row["seed"],
        "events": row["events"],
        "result": int_keys(row["result"]),
        "pots_won": int_keys(row["pots_won"]),
        "closes": int_keys(row["closes"]),
        "biggest_pot": int_keys(row["biggest_pot"]),
        "at": row["at"],
    }


#: the columns `stored_hand` reads, in order (hands aliased h, tables t)
HAND_COLUMNS = "h.id, h.table_id, t.channel_id, h.hand_no, h.at, h.result, h.closes, h.events"


def stored_hand(row: Any) -> StoredHand:
    """A `StoredHand` from a row of `HAND_COLUMNS`."""
    result = int_keys(row[5])
    return StoredHand(
        id=int(row[0]),
        table_id=int(row[1]),
        channel_id=int(row[2]),
        hand_no=int(row[3]),
        at=float(row[4]),
        seats=tuple(result),
        result=result,
        closes=int_keys(row[6]),
        events=str(row[7]),
    )
