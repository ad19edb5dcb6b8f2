"""The event log of a hand: what happened, in order, as small immutable records.

``Event(kind, seat, data)``; ``data`` holds only JSON-able values (card codes as strings).
Kinds: ante, deal (private to ``seat``), phase, pass, bet, call, raise, allin, declare,
concede, win, special, play, senza, close, payment, carry, refund.

An ``Event`` is a tuple subclass ``(kind, seat, data)`` with named read-only fields: hands
build about a hundred of them each, and a tuple is several times cheaper to make than a
frozen dataclass. It compares, prints and round-trips (``to_dict``/``from_dict``) like the
dataclass it replaced (as a tuple it also equals the plain tuple ``(kind, seat, data)``).
"""

from __future__ import annotations

from typing import Any

PRIVATE_KINDS = frozenset({"deal"})


class Event(tuple[str, int | None, dict[str, Any]]):
    """One thing that happened. ``private`` events may be shown only to ``seat``."""

    __slots__ = ()

    def __new__(cls, kind: str, seat: int | None, data: dict[str, Any]) -> Event:
        return tuple.__new__(cls, (kind, seat, data))

    @property
    def kind(self) -> str:
        """What happened: ante, deal, bet, play, ..."""
        return self[0]

    @property
    def seat(self) -> int | None:
        """The seat concerned, or None."""
        return self[1]

    @property
    def data(self) -> dict[str, Any]:
        """JSON-able details."""
        return self[2]

    def __getnewargs__(self) -> tuple[str, int | None, dict[str, Any]]:
        return (self[0], self[1], self[2])

    def __repr__(self) -> str:
        return f"Event(kind={self[0]!r}, seat={self[1]!r}, data={self[2]!r})"

    @property
    def private(self) -> bool:
        """True when only ``seat`` may see this event (the cards dealt to them)."""
        return self[0] in PRIVATE_KINDS

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (None: a spectator) may see this event."""
        return self[0] not in PRIVATE_KINDS or (seat is not None and seat == self[1])

    def to_dict(self) -> dict[str, Any]:
        """JSON-able dict."""
        return {"kind": self[0], "seat": self[1], "data": self[2]}

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Event:
        """Inverse of ``to_dict``."""
        return Event(d["kind"], d["seat"], dict(d["data"]))
