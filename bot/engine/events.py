"""The event log of a hand: what happened, in order, as small immutable records.

``Event(kind, seat, data)``; ``data`` holds only JSON-able values (card codes as strings).
Kinds: ante, deal (private to ``seat``), phase, pass, bet, call, raise, allin, declare,
concede, win, special, play, senza, close, payment, carry, refund.

An ``Event`` is a slotted object whose fields are read-only properties: a hand makes about a
hundred and twenty of them, and a plain ``__init__`` over slots is the cheapest constructor
that keeps the fields named and unassignable (a ``NamedTuple``'s or a tuple subclass's
``__new__`` costs a third more, a frozen dataclass's ``object.__setattr__`` twice as much).
It compares, prints, pickles and round-trips (``to_dict``/``from_dict``) like a dataclass.
"""

from __future__ import annotations

from typing import Any

PRIVATE_KINDS = frozenset({"deal"})


class Event:
    """One thing that happened. ``private`` events may be shown only to ``seat``."""

    __slots__ = ("_data", "_kind", "_seat")

    def __init__(self, kind: str, seat: int | None, data: dict[str, Any]) -> None:
        self._kind = kind
        self._seat = seat
        self._data = data

    @property
    def kind(self) -> str:
        """What happened: ante, deal, bet, play, ..."""
        return self._kind

    @property
    def seat(self) -> int | None:
        """The seat concerned, or None."""
        return self._seat

    @property
    def data(self) -> dict[str, Any]:
        """JSON-able details."""
        return self._data

    def __eq__(self, other: object) -> bool:
        """Same kind, seat and data (events hold a dict, so like it they are unhashable)."""
        if not isinstance(other, Event):
            return NotImplemented
        return (self._kind, self._seat, self._data) == (other._kind, other._seat, other._data)

    def __reduce__(self) -> tuple[type[Event], tuple[str, int | None, dict[str, Any]]]:
        return (Event, (self._kind, self._seat, self._data))

    def __repr__(self) -> str:
        return f"Event(kind={self._kind!r}, seat={self._seat!r}, data={self._data!r})"

    @property
    def private(self) -> bool:
        """True when only ``seat`` may see this event (the cards dealt to them)."""
        return self._kind in PRIVATE_KINDS

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (None: a spectator) may see this event."""
        return self._kind not in PRIVATE_KINDS or (seat is not None and seat == self._seat)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able dict."""
        return {"kind": self._kind, "seat": self._seat, "data": self._data}

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Event:
        """Inverse of ``to_dict``."""
        return Event(d["kind"], d["seat"], dict(d["data"]))
