"""The `Rating` value type and how a rating is shown to people.

A rating is openskill's (mu, sigma) pair plus the number of rated hands. People see the
**points**: the conservative ordinal mu − 3·sigma scaled so that one "beta" of skill (the
difference that wins about 3 games in 4 head to head) is worth 200 points, as on a chess
Elo scale, and offset by 1,000: a newcomer (mu 25, sigma 25/3, ordinal 0) shows 1,000 points,
an average player after some 60 hands (sigma about 2.5) about 1,850, one who wins nearly every
hand near 3,000. Points never go below 0. A rating of fewer than `PROVISIONAL_HANDS` hands is
"provisional": its sigma is still large, so its points are low and move fast.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

#: openskill's defaults, stated here because stored ratings depend on them
MU = 25.0
SIGMA = MU / 3
BETA = SIGMA / 2
TAU = MU / 300
#: points per unit of mu: one beta is 200 points, as on an Elo scale
POINTS_PER_MU = 200 / BETA
#: the points of a newcomer (ordinal 0)
POINTS_OFFSET = 1000
#: a rating with fewer rated hands than this is shown as provisional
PROVISIONAL_HANDS = 20
#: the number of hands a trend looks back over by default
TREND_HANDS = 10


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's rating on one server: openskill's mu and sigma, and the rated hands.

    The store keeps the three fields as columns (`to_dict` / `from_dict` name them).
    """

    mu: float = MU
    sigma: float = SIGMA
    hands: int = 0

    def __post_init__(self) -> None:
        if not self.sigma > 0:
            raise ValueError(f"sigma must be positive, not {self.sigma!r}")
        if isinstance(self.hands, bool) or not isinstance(self.hands, int) or self.hands < 0:
            raise ValueError(f"hands must be a whole number >= 0, not {self.hands!r}")

    @property
    def ordinal(self) -> float:
        """mu − 3·sigma: a skill the player has with about 99.7% confidence."""
        return self.mu - 3 * self.sigma

    @property
    def points(self) -> int:
        """The number people see (see the module docstring for the scale)."""
        return points_of(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        """True while the rating rests on fewer than `PROVISIONAL_HANDS` hands."""
        return self.hands < PROVISIONAL_HANDS

    def to_dict(self) -> dict[str, Any]:
        """JSON-able columns: mu, sigma, hands."""
        return {"mu": self.mu, "sigma": self.sigma, "hands": self.hands}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Rating:
        """The rating of `to_dict`'s columns."""
        return cls(float(d["mu"]), float(d["sigma"]), int(d["hands"]))


def points_of(mu: float, sigma: float) -> int:
    """The shown points of (mu, sigma): 1000 + 48·(mu − 3·sigma), rounded, at least 0."""
    return max(0, round(POINTS_OFFSET + POINTS_PER_MU * (mu - 3 * sigma)))


def trend(points: Sequence[int], hands: int = TREND_HANDS) -> int:
    """The change of the shown points over the last `hands` hands.

    `points` are the stored points after each rated hand, oldest first (the store keeps one
    per hand); with fewer than `hands` + 1 of them the trend runs from the oldest. An empty or
    one-point history has no trend (0).
    """
    if hands < 1:
        raise ValueError(f"a trend needs at least one hand, not {hands}")
    if len(points) < 2:
        return 0
    return points[-1] - points[max(0, len(points) - 1 - hands)]
