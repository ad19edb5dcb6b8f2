"""The stake levels and payout presets a tournament's opener chooses from.

A level is the stakes of R-4 for one stretch of hands. Every preset level keeps the default
proportions of docs/rules-spec.md (ante 6, small point 1, cip 1, max bet 20, card rate 1, times a
factor), which satisfy R-4's invariant (players × ante > small points × small point) for
3 to 6 players. After a schedule's last level every further level doubles the one before,
so the ante always outgrows the chips in play and a tournament always ends.

Payouts are percentages of the prize pool by finishing place; a preset pays fewer places
than the tournament has seats, so at least one player goes home with nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine import Rules


@dataclass(frozen=True, slots=True)
class Level:
    """The stakes of one level (R-4): what `Rules` takes, `cards_per_payment` left as set."""

    ante: int
    small_point: int
    cip: int
    max_bet: int
    card_rate: int

    def doubled(self) -> Level:
        """The level after a schedule's last one."""
        return Level(
            self.ante * 2, self.small_point * 2, self.cip * 2, self.max_bet * 2,
            self.card_rate * 2,
        )

    def rules(self, base: Rules, players: int) -> Rules:
        """`base` (a server's variants) with this level's stakes, for `players` players."""
        return base.replace(
            players=players,
            ante=self.ante,
            small_point=self.small_point,
            cip=self.cip,
            max_bet=self.max_bet,
            card_rate=self.card_rate,
        )

    def to_list(self) -> list[int]:
        """[ante, small_point, cip, max_bet, card_rate]."""
        return [self.ante, self.small_point, self.cip, self.max_bet, self.card_rate]

    @classmethod
    def from_list(cls, values: Sequence[int]) -> Level:
        """The level of `to_list`."""
        ante, small_point, cip, max_bet, card_rate = (int(v) for v in values)
        return cls(ante, small_point, cip, max_bet, card_rate)


def _scaled(factor: int) -> Level:
    return Level(6 * factor, factor, factor, 20 * factor, factor)


@dataclass(frozen=True, slots=True)
class Schedule:
    """A named list of levels, the hands played at each level (K) and the starting stack
    it suggests (the opener may choose another)."""

    name: str
    levels: tuple[Level, ...]
    hands_per_level: int
    stack: int

    def level(self, index: int) -> Level:
        """The stakes of level `index` (0-based); past the last level each one doubles."""
        if index < 0:
            raise ValueError(f"a level index is at least 0, not {index}")
        last = len(self.levels) - 1
        level = self.levels[min(index, last)]
        for _ in range(index - last):
            level = level.doubled()
        return level

    def to_dict(self) -> dict[str, Any]:
        """JSON-able fields (the levels themselves, so a running tournament keeps them)."""
        return {
            "name": self.name,
            "levels": [lv.to_list() for lv in self.levels],
            "hands_per_level": self.hands_per_level,
            "stack": self.stack,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Schedule:
        """The schedule of `to_dict`."""
        return cls(
            str(d["name"]),
            tuple(Level.from_list(v) for v in d["levels"]),
            int(d["hands_per_level"]),
            int(d["stack"]),
        )


@dataclass(frozen=True, slots=True)
class Payout:
    """A named split of the prize pool: percentages by place, best first, summing to 100."""

    name: str
    percents: tuple[int, ...]

    def __post_init__(self) -> None:
        if sum(self.percents) != 100 or min(self.percents, default=0) <= 0:
            raise ValueError(f"payout percents must be positive and sum to 100: {self.percents}")
        if list(self.percents) != sorted(self.percents, reverse=True):
            raise ValueError(f"a better place never gets less: {self.percents}")

    def shares(self, pool: int) -> list[int]:
        """The chips each paid place wins from `pool`, best first (they sum to `pool`): each
        its percentage rounded down, the odd chips of the rounding to the winner."""
        shares = [pool * pct // 100 for pct in self.percents]
        shares[0] += pool - sum(shares)
        return shares

    def to_dict(self) -> dict[str, Any]:
        """JSON-able fields."""
        return {"name": self.name, "percents": list(self.percents)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Payout:
        """The payout of `to_dict`."""
        return cls(str(d["name"]), tuple(int(p) for p in d["percents"]))


#: the schedules an opener picks from (by name), fastest first
SCHEDULES: dict[str, Schedule] = {
    s.name: s
    for s in (
        Schedule("turbo", tuple(map(_scaled, (10, 15, 25, 40, 60, 100, 150, 250))), 3, 1000),
        Schedule(
            "regular",
            tuple(map(_scaled, (10, 15, 20, 30, 40, 60, 80, 100, 150, 200, 300))),
            5,
            1500,
        ),
        Schedule(
            "slow",
            tuple(map(_scaled, (10, 15, 20, 25, 30, 40, 50, 60, 80, 100, 125, 150, 200, 250))),
            8,
            3000,
        ),
    )
}

#: the payout presets (by name)
PAYOUTS: dict[str, Payout] = {
    p.name: p
    for p in (
        Payout("winner_takes_all", (100,)),
        Payout("65_35", (65, 35)),
        Payout("50_30_20", (50, 30, 20)),
    )
}
