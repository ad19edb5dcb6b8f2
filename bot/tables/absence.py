"""`Absence`: the table's rule of absent players and who is absent now, as one value.

A player whose turn runs out `after` times in a row is sat out (their turns are passed for
them until they are back; one whole hand later they leave at its end) or, with `mode`
"leave", leaves at the end of the hand (`bot.tables.turn_clock.after_timeout`). A player who
left a tournament table stays in, sat out, until their own "I'm back" (`left`). These facts
belong together: they were five loose fields of `TableMeta` changed in six files; here each
change is a method that returns a new value (like `RoundCall`). The meta's JSON keeps them
flat, under the keys it always had (`timeouts`, `away`, `left`, `away_after`, `away_mode`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

#: the JSON keys of the meta this value is stored under
KEYS: tuple[str, ...] = ("timeouts", "away", "left", "away_after", "away_mode")


def _int_keys(data: Mapping[Any, Any] | None) -> dict[int, int]:
    return {int(k): int(v) for k, v in (data or {}).items()}


@dataclass(frozen=True, slots=True)
class Absence:
    """Absent players at one table (see the module docstring)."""

    #: turn timeouts in a row per user
    timeouts: Mapping[int, int] = field(default_factory=dict)
    #: sat-out players (their turns are passed for them): user -> the hand they were sat
    #: out in
    away: Mapping[int, int] = field(default_factory=dict)
    #: players who left (or were kicked from) a tournament table: they stay in, sat out,
    #: and only their own "I'm back" gives them their turns again
    left: tuple[int, ...] = ()
    #: timeouts in a row before a player is sat out (or leaves)
    after: int = 2
    #: what happens then: "sit_out" until they are back, or "leave" at the end of the hand
    mode: str = "sit_out"

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> Absence:
        """The absence part of a stored meta `data` (a `TableMeta.to_dict`)."""
        return cls(_int_keys(data.get("timeouts")), _int_keys(data.get("away")),
                   tuple(int(u) for u in data.get("left") or ()),
                   int(data.get("away_after", 2)), str(data.get("away_mode", "sit_out")))

    def to_dict(self) -> dict[str, Any]:
        """The JSON fields of the meta this value is stored in."""
        return {"timeouts": dict(self.timeouts), "away": dict(self.away),
                "left": list(self.left), "away_after": self.after, "away_mode": self.mode}

    def is_away(self, user: int) -> bool:
        """Whether `user` is sat out (their turns are passed for them)."""
        return user in self.away

    def count(self, user: int) -> int:
        """`user`'s turn timeouts in a row."""
        return self.timeouts.get(user, 0)

    def timed_out(self, user: int) -> Absence:
        """`user`'s turn ran out once more."""
        return replace(self, timeouts={**self.timeouts, user: self.count(user) + 1})

    def acted(self, user: int) -> Absence:
        """`user` played their turn themselves: their timeouts start again."""
        return replace(self, timeouts={**self.timeouts, user: 0})

    def sat(self, user: int) -> Absence:
        """`user` sits (again): no timeouts counted."""
        return replace(self, timeouts={u: n for u, n in self.timeouts.items() if u != user})

    def sat_out(self, user: int, hand_no: int) -> Absence:
        """`user` is sat out from hand `hand_no` (kept from an earlier one if already)."""
        if user in self.away:
            return self
        return replace(self, away={**self.away, user: hand_no})

    def gone(self, user: int, hand_no: int) -> Absence:
        """`user` left a tournament table: sat out, until their own "I'm back"."""
        out = self.sat_out(user, hand_no)
        return out if user in out.left else replace(out, left=(*out.left, user))

    def back(self, user: int) -> Absence:
        """A sat-out `user` is back: their turns are theirs again."""
        return replace(self, away={u: h for u, h in self.away.items() if u != user},
                       left=tuple(u for u in self.left if u != user),
                       timeouts={**self.timeouts, user: 0})

    def without(self, user: int) -> Absence:
        """`user` left the table: nothing kept about them."""
        return replace(self, timeouts={u: n for u, n in self.timeouts.items() if u != user},
                       away={u: h for u, h in self.away.items() if u != user},
                       left=tuple(u for u in self.left if u != user))

    def away_before(self, hand_no: int) -> list[int]:
        """The players sat out since a hand before `hand_no` (a whole hand: they leave)."""
        return [u for u, since in self.away.items() if since < hand_no]
