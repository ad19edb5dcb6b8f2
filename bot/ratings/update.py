"""Rating updates after a finished hand, with openskill's Bradley-Terry full-pairing model.

Full pairing compares every two players of the hand (a tie is a draw between them); at 3–6
players that costs nothing. openskill's Plackett-Luce (its default) is not used: in 6.2 it
gives a player ranked just below tied winners the winners' own update (openskill.py issues
#155 and #173, PR #176), and ties are common here (two players who both sat out the bets).

A hand is a free-for-all of 3–6 players ranked by their net result (equal nets tie). Two
pools are updated from it:

- **Humans** are rated among the humans of the hand only, on the ranking of their nets. The
  CPU seats are left out of the match entirely, so nothing a CPU did enters a human's update
  except through the humans' own nets. A hand with fewer than two humans changes no human
  rating (there is nobody to be compared with) and does not count as a rated hand.
- **CPUs** are rated against everyone at the table, humans and CPUs, with the ranking of all
  the nets; only the CPUs' new ratings are kept, so the humans' ratings are held fixed for
  them. A CPU key names a pool (e.g. one per level on a server, for `addbot` labels); when
  one key has several seats at a hand, its new rating is the mean of its seats' results and
  it gains one rated hand.

Only the players dealt into the hand take part (a player who sat it out, R-5, is not a seat).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import fmean

from openskill.models import BradleyTerryFull

from bot.ratings.rating import BETA, MU, SIGMA, TAU, Rating

MIN_SEATS = 3
MAX_SEATS = 6

_MODEL = BradleyTerryFull(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)


@dataclass(frozen=True, slots=True)
class Seat:
    """One player of a finished hand: who (an opaque key), human or CPU, rating before, net."""

    key: str
    human: bool
    rating: Rating
    net: int


def ranks_of(nets: Sequence[int]) -> list[int]:
    """Competition ranks of nets, best first (1 = the highest net; equal nets share a rank)."""
    return [1 + sum(other > net for other in nets) for net in nets]


def _rate(ratings: Sequence[Rating], nets: Sequence[int]) -> list[tuple[float, float]]:
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    rated = _MODEL.rate(teams, ranks=[float(r) for r in ranks_of(nets)])
    return [(team[0].mu, team[0].sigma) for team in rated]


def rate_hand(seats: Sequence[Seat]) -> dict[str, Rating]:
    """The new ratings after one hand, by key (only the keys whose rating changed).

    Humans must have distinct keys; CPU keys may repeat (see the module docstring).
    """
    if not MIN_SEATS <= len(seats) <= MAX_SEATS:
        raise ValueError(f"a hand has {MIN_SEATS} to {MAX_SEATS} seats, not {len(seats)}")
    humans = [s for s in seats if s.human]
    if len({s.key for s in humans}) != len(humans):
        raise ValueError("a human holds one seat of a hand")
    if {s.key for s in humans} & {s.key for s in seats if not s.human}:
        raise ValueError("a key is either a human's or a CPU pool's, not both")
    new: dict[str, Rating] = {}
    if len(humans) >= 2:
        for seat, (mu, sigma) in zip(
            humans, _rate([s.rating for s in humans], [s.net for s in humans]), strict=True
        ):
            new[seat.key] = Rating(mu, sigma, seat.rating.hands + 1)
    cpu_results: dict[str, list[tuple[float, float]]] = defaultdict(list)
    cpu_before: dict[str, Rating] = {}
    everyone = _rate([s.rating for s in seats], [s.net for s in seats])
    for seat, result in zip(seats, everyone, strict=True):
        if not seat.human:
            cpu_results[seat.key].append(result)
            cpu_before.setdefault(seat.key, seat.rating)
    for key, results in cpu_results.items():
        mu = fmean(r[0] for r in results)
        sigma = fmean(r[1] for r in results)
        new[key] = Rating(mu, sigma, cpu_before[key].hands + 1)
    return new
