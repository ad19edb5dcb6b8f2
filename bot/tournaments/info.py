"""`TournamentInfo`: what the Discord side sees of a tournament (plain data, no store types).

It is built from the stored row and the tournament's state (`TournamentState`) by the
tournament service, and carried by every `TableState` of a tournament table
(`TableState.tournament`), so the cog renders status, standings and results from it alone.
User ids are ints; CPU entrants have negative ids and a `cpu` level.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.tournaments.config import TournamentConfig
from bot.tournaments.presets import Level
from bot.tournaments.state import Phase


@dataclass(frozen=True, slots=True)
class Entrant:
    """One registered player, in seat order: a member, or a CPU (`cpu` = its level)."""

    user_id: int
    cpu: str | None = None


@dataclass(frozen=True, slots=True)
class Place:
    """A finishing place (1 = the winner) and the hand (1-based count) that decided it."""

    user_id: int
    place: int
    hand: int


@dataclass(frozen=True, slots=True)
class Posts:
    """What the cog posted for a tournament, kept in its row so a restart forgets nothing:
    the registration message (channel id, message id), the channel or thread its table plays
    in, and whether the results were posted there."""

    registration: tuple[int, int] | None = None
    table_channel: int | None = None
    results_posted: bool = False


@dataclass(frozen=True, slots=True)
class TournamentInfo:
    """A tournament at one moment.

    `status` is a `Phase` (a `StrEnum`: "registering", "running", "finished", "cancelled").
    `config` holds the buy-in, seats, starting stack, the schedule (name, levels, hands per
    level) and the payout (name, percents). `level` is 1-based (as people count) and `stakes`
    that level's stakes; `hands_to_next_level` counts the hands still played at this level.
    `stacks` are tournament chips by user (every entrant, the eliminated with what they
    left with); `places` lists the places decided so far, best first; `payouts` the server
    chips each paid place received, once finished.
    """

    id: int
    guild_id: int
    channel_id: int
    status: Phase
    config: TournamentConfig
    entrants: tuple[Entrant, ...]
    prize_pool: int
    level: int
    stakes: Level
    hands_played: int
    hands_to_next_level: int
    stacks: Mapping[int, int] = field(default_factory=dict)
    places: tuple[Place, ...] = ()
    payouts: Mapping[int, int] = field(default_factory=dict)
    #: the language ("it"/"en") each entrant registered in, where known (the tournament's
    #: public texts and its table speak its entrants' language where no manager pinned one)
    languages: Mapping[int, str] = field(default_factory=dict)
    table_id: int | None = None
    #: the member who opened it (None if unknown)
    opened_by: int | None = None
    #: what the cog posted (read from the row: `TournamentService.info`, `to_post`)
    posts: Posts = Posts()

    @property
    def seats_left(self) -> int:
        """Seats still free while registering."""
        return max(0, self.config.seats - len(self.entrants))

    def is_entrant(self, user: int) -> bool:
        """Whether `user` is registered (or playing)."""
        return any(e.user_id == user for e in self.entrants)

    def place_of(self, user: int) -> int | None:
        """The finishing place of `user`, None while they are still in."""
        return next((p.place for p in self.places if p.user_id == user), None)

    def cpu_level(self, user: int) -> str | None:
        """The CPU level of entrant `user` (None for a member)."""
        return next((e.cpu for e in self.entrants if e.user_id == user), None)
