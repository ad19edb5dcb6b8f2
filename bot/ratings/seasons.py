"""Seasons: freezing the standings of the season that ends and starting a fresh one.

Starting a season is pure: `new_season` takes the name of the season that ends, the name of
the new one (`/season new name`), and the ratings and season winnings of the humans of a
server; it returns the frozen `SeasonRecord` of the ending season (what
`/leaderboard season:<name>` shows later), the new season's checked name, and the values the
store writes back (every rating fresh, every season winning 0).
Balances are not part of a season and are never touched. The store does it in one
transaction: insert the record, reset the ratings and the season winnings.
Standings are the humans': pass their ratings only (CPU pools keep or reset theirs as the
wiring decides; they are strength labels, not competitors).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.ratings.errors import RankedError
from bot.ratings.rating import Rating

#: the longest season name (it is shown in leaderboards and command choices)
MAX_NAME = 32


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of a season's final standings; `place` is shared by tied points."""

    place: int
    key: str
    points: int
    provisional: bool
    hands: int
    winnings: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-able fields."""
        return {
            "place": self.place,
            "key": self.key,
            "points": self.points,
            "provisional": self.provisional,
            "hands": self.hands,
            "winnings": self.winnings,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Standing:
        """The standing of `to_dict`'s fields."""
        return cls(
            int(d["place"]),
            str(d["key"]),
            int(d["points"]),
            bool(d["provisional"]),
            int(d["hands"]),
            int(d["winnings"]),
        )


@dataclass(frozen=True, slots=True)
class SeasonRecord:
    """A finished season: its name and its frozen standings, best first."""

    name: str
    standings: tuple[Standing, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-able fields."""
        return {"name": self.name, "standings": [s.to_dict() for s in self.standings]}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> SeasonRecord:
        """The record of `to_dict`'s fields."""
        return cls(str(d["name"]), tuple(Standing.from_dict(s) for s in d["standings"]))


@dataclass(frozen=True, slots=True)
class SeasonChange:
    """What starting a new season writes: the record of the old one, the new season's name
    and the fresh values."""

    record: SeasonRecord
    name: str
    ratings: dict[str, Rating]
    winnings: dict[str, int]


def standings(
    ratings: Mapping[str, Rating], winnings: Mapping[str, int], *, min_hands: int = 1
) -> tuple[Standing, ...]:
    """The standings of the humans with at least `min_hands` rated hands, best first.

    Sorted by shown points; equal points share a place (1, 2, 2, 4) and are listed by season
    winnings, then key, so the order is the same every time. A player with winnings but no
    rating has a fresh one.
    """
    rows = []
    for key in set(ratings) | set(winnings):
        rating = ratings.get(key, Rating())
        if rating.hands >= min_hands:
            rows.append((rating, winnings.get(key, 0), key))
    rows.sort(key=lambda row: (-row[0].points, -row[1], row[2]))
    out: list[Standing] = []
    for i, (rating, won, key) in enumerate(rows):
        place = out[-1].place if out and out[-1].points == rating.points else i + 1
        out.append(Standing(place, key, rating.points, rating.provisional, rating.hands, won))
    return tuple(out)


def check_season_name(name: str, taken: Iterable[str]) -> str:
    """The season name, trimmed; `RankedError` when empty, too long or already used here."""
    clean = " ".join(name.split())
    if not clean:
        raise RankedError("ranked.season_name_empty")
    if len(clean) > MAX_NAME:
        raise RankedError("ranked.season_name_long", limit=MAX_NAME)
    if clean.casefold() in {t.casefold() for t in taken}:
        raise RankedError("ranked.season_name_taken", name=clean)
    return clean


def new_season(
    ending: str,
    name: str,
    ratings: Mapping[str, Rating],
    winnings: Mapping[str, int],
    *,
    taken: Iterable[str] = (),
) -> SeasonChange:
    """Freeze the season `ending` and start the season `name` with fresh ratings and winnings.

    `taken` holds the names of this server's earlier seasons; the new name must differ from
    them and from `ending` (names pick a season in `/leaderboard season:`).
    """
    fresh_name = check_season_name(name, [*taken, ending])
    record = SeasonRecord(ending, standings(ratings, winnings))
    keys = set(ratings) | set(winnings)
    return SeasonChange(
        record, fresh_name, {key: Rating() for key in keys}, {key: 0 for key in keys}
    )
