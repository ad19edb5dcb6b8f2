"""A sit-and-go tournament's settings, checked once when the opener creates it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.engine import MAX_PLAYERS, MIN_PLAYERS
from bot.ratings.errors import RankedError
from bot.tournaments.presets import PAYOUTS, SCHEDULES, Payout, Schedule

#: the highest buy-in and starting stack a tournament accepts
MAX_BUY_IN = 10**9
MAX_STACK = 10**7
#: a starting stack holds at least this many antes of the first level
MIN_ANTES = 10


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    """Buy-in (server chips), seats, starting stack (tournament chips), schedule, payout."""

    buy_in: int
    seats: int
    starting_stack: int
    schedule: Schedule
    payout: Payout

    @classmethod
    def create(
        cls,
        *,
        buy_in: int,
        seats: int,
        starting_stack: int | None = None,
        schedule: str = "regular",
        payout: str = "winner_takes_all",
        hands_per_level: int | None = None,
    ) -> TournamentConfig:
        """A checked config from the opener's choices; `RankedError` names the first bad one.

        `starting_stack` defaults to the schedule's; `hands_per_level` overrides the
        schedule's K (hands played at each level).
        """
        if schedule not in SCHEDULES:
            raise RankedError("ranked.tournament_bad_schedule", choices=", ".join(SCHEDULES))
        if payout not in PAYOUTS:
            raise RankedError("ranked.tournament_bad_payout", choices=", ".join(PAYOUTS))
        chosen = SCHEDULES[schedule]
        if hands_per_level is not None:
            chosen = Schedule(chosen.name, chosen.levels, hands_per_level, chosen.stack)
        stack = chosen.stack if starting_stack is None else starting_stack
        config = cls(buy_in, seats, stack, chosen, PAYOUTS[payout])
        config.check()
        return config

    def check(self) -> None:
        """Raise `RankedError` for the first setting out of range."""
        if not _whole(self.buy_in) or not 0 <= self.buy_in <= MAX_BUY_IN:
            raise RankedError("ranked.tournament_bad_buy_in", limit=MAX_BUY_IN)
        if not _whole(self.seats) or not MIN_PLAYERS <= self.seats <= MAX_PLAYERS:
            raise RankedError("ranked.tournament_bad_seats", low=MIN_PLAYERS, high=MAX_PLAYERS)
        low = MIN_ANTES * self.schedule.level(0).ante
        if not _whole(self.starting_stack) or not low <= self.starting_stack <= MAX_STACK:
            raise RankedError("ranked.tournament_bad_stack", low=low, high=MAX_STACK)
        k = self.schedule.hands_per_level
        if not _whole(k) or not 1 <= k <= 100:
            raise RankedError("ranked.tournament_bad_level_hands", low=1, high=100)
        if len(self.payout.percents) >= self.seats:
            raise RankedError(
                "ranked.tournament_payout_seats",
                places=len(self.payout.percents),
                seats=len(self.payout.percents) + 1,
            )

    def to_dict(self) -> dict[str, Any]:
        """JSON-able fields."""
        return {
            "buy_in": self.buy_in,
            "seats": self.seats,
            "starting_stack": self.starting_stack,
            "schedule": self.schedule.to_dict(),
            "payout": self.payout.to_dict(),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> TournamentConfig:
        """The config of `to_dict`."""
        return cls(
            int(d["buy_in"]),
            int(d["seats"]),
            int(d["starting_stack"]),
            Schedule.from_dict(d["schedule"]),
            Payout.from_dict(d["payout"]),
        )


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
