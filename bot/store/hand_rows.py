"""Finished hands as read back for a player's history and replays (see `HistoryMixin`)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from bot.engine.events import Event
from bot.store.jsontext import int_keys


def event_log(text: str) -> tuple[Event, ...]:
    """A hand's stored event log (the JSON text of `Event.to_dict()`s), typed."""
    return tuple(Event.from_dict(item) for item in json.loads(text))


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
    #: the words of the seats dealt in, in seat order, as (user, word) (docs/fairness.md)
    words: tuple[tuple[int, str], ...] = ()
    #: the table's commitment, and its secret only once the table closed (revealed)
    commitment: str | None = None
    revealed_secret: str | None = None

    def seat_of(self, user: int) -> int | None:
        """The seat `user` played in this hand, or None."""
        return self.seats.index(user) if user in self.seats else None

    def event_log(self) -> tuple[Event, ...]:
        """The full event log, typed (private deals included)."""
        return event_log(self.events)


@dataclass(frozen=True, slots=True)
class FinishedHand:
    """One finished hand of a table as `hand_history` reads it back: what the table service
    wrote (`HandRecord`) and when. User keys are ints; `result` is in seat order."""

    hand_no: int
    seed: int | None
    #: the hand's full event log (JSON text, private deals included)
    events: str
    result: dict[int, int]
    pots_won: dict[int, int]
    closes: dict[int, int]
    biggest_pot: dict[int, int]
    at: float
    #: the words of the seats dealt in, in seat order, as (user, word) (docs/fairness.md)
    words: tuple[tuple[int, str], ...]

    def event_log(self) -> tuple[Event, ...]:
        """The full event log, typed (private deals included)."""
        return event_log(self.events)


def history_entry(row: Any) -> FinishedHand:
    """One row of a table's `hand_history` (either database's row type)."""
    return FinishedHand(
        hand_no=int(row["hand_no"]),
        seed=None if row["seed"] is None else int(row["seed"]),
        events=str(row["events"]),
        result=int_keys(row["result"]),
        pots_won=int_keys(row["pots_won"]),
        closes=int_keys(row["closes"]),
        biggest_pot=int_keys(row["biggest_pot"]),
        at=float(row["at"]),
        words=words_of_row(row["words"]),
    )


def words_of_row(text: str | None) -> tuple[tuple[int, str], ...]:
    """The `hands.words` JSON as (user, word) pairs in seat order."""
    return tuple((int(u), str(w)) for u, w in json.loads(text or "[]"))


#: the columns `stored_hand` reads, in order (hands aliased h, tables t)
HAND_COLUMNS = (
    "h.id, h.table_id, t.channel_id, h.hand_no, h.at, h.result, h.closes, h.events, h.words,"
    " t.commitment, CASE WHEN t.revealed = 1 THEN t.secret END"
)


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
        words=words_of_row(row[8]),
        commitment=row[9],
        revealed_secret=row[10],
    )
