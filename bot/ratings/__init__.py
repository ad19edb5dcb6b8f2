"""Ratings and seasons of ranked play: pure, synchronous, no I/O (docs/rules-spec.md is untouched).

API for the wiring step (the table service and the store call these; nothing here knows
Discord, the store or the table service):

- `Rating(mu, sigma, hands)`: the stored value (three columns; `to_dict`/`from_dict`),
  `.points` the number shown (1000 + 48·(mu − 3·sigma), at least 0; see `rating`),
  `.provisional` under 20 rated hands. A player without a row has `Rating()`.
- `rate_hand(seats)`: after every finished hand, with one `Seat(key, human, rating, net)`
  per player dealt in (net = the hand's result for that seat, e.g. `Hand.result[s]`); returns
  the new `Rating` of every key that changed. Humans are rated among the humans only; CPUs
  (one key per pool, e.g. `"cpu:easy"` per server) against everyone with the humans held
  fixed: CPU results never move a human's rating (see `update`).
- `trend(points, hands=10)`: the change of the shown points over the last hands, from the
  points the store keeps after each rated hand.
- `standings(ratings, winnings)` and `new_season(ending, name, ratings, winnings, taken=...)`
  -> `SeasonChange(record, name, ratings, winnings)`: freeze a season's `Standing`s (places
  shared by equal points) and reset ratings and season winnings; balances are not touched.
- `RankedError(key, **params)`: a refusal with a catalogue key (`ranked.*`), for a polite
  ephemeral reply in the player's language.

The multi-player model is openskill's Bradley-Terry with full pairing (openskill 6.x), chosen
for being maintained, MIT-licensed, made for free-for-all games of any number of players with
ties, and deterministic (no sampling), so ratings replay identically from stored hands (why
not its Plackett-Luce: see `update`).
"""

from __future__ import annotations

from bot.ratings.errors import RankedError
from bot.ratings.rating import PROVISIONAL_HANDS, TREND_HANDS, Rating, points_of, trend
from bot.ratings.seasons import (
    SeasonChange,
    SeasonRecord,
    Standing,
    check_season_name,
    new_season,
    standings,
)
from bot.ratings.update import Seat, ranks_of, rate_hand

__all__ = [
    "PROVISIONAL_HANDS",
    "TREND_HANDS",
    "RankedError",
    "Rating",
    "SeasonChange",
    "SeasonRecord",
    "Seat",
    "Standing",
    "check_season_name",
    "new_season",
    "points_of",
    "ranks_of",
    "rate_hand",
    "standings",
    "trend",
]
