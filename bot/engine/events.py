"""The event log of a hand: what happened, in order, as small frozen records.

``Event(kind, seat, data)``; ``data`` holds only JSON-able values (card codes as strings).
Kinds: ante, deal (private to ``seat``), phase, pass, bet, call, raise, allin, declare,
concede, win, special, play, senza, close, payment, carry, refund.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

PRIVATE_KINDS = frozenset({"deal"})


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened. ``private`` events may be shown only to ``seat``."""

    kind: str
    seat: int | None
    data: dict[str, Any]

    @property
    def private(self) -> bool:
        """True when only ``seat`` may see this event (the cards dealt to them)."""
        return self.kind in PRIVATE_KINDS

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (None: a spectator) may see this event."""
        return not self.private or (seat is not None and seat == self.seat)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able dict."""
        return {"kind": self.kind, "seat": self.seat, "data": self.data}

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Event:
        """Inverse of ``to_dict``."""
        return Event(d["kind"], d["seat"], dict(d["data"]))
