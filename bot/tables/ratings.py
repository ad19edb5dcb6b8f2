"""The ratings of a finished hand, for the store to write with the hand itself.

After every finished hand the session asks `hand_ratings` for the players' new ratings and
puts them on the hand's `HandRecord`, so the hand, its chips and its ratings are one
transaction (a crash never leaves a hand rated twice or not at all). The math is
`bot.ratings.rate_hand`: humans are rated among the humans of the hand only (fewer than two
humans: no human is rated), CPUs in one pool per level and server, against everyone but
without ever moving a human's rating; the pool's rating is the `addbot` strength label.

A CPU pool is stored under a reserved negative id (`CPU_POOLS`): CPU seats are
-(table_id * 10 + k) with table ids from 1, so -1..-9 never name a seat, and negative ids
never appear on a board. Two tables of one server may rate the same pool at the same time and
one update may then be lost: a label, not a competition, so no lock is taken for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from bot.ratings import Rating, Seat, rate_hand
from bot.store import HandRecord, RatingUpdate, StoreContract
from bot.tables.cpus import is_cpu

#: the store id of each CPU level's rating pool (fixed: stored ratings depend on it)
CPU_POOLS: dict[str, int] = {"random": -1, "easy": -2, "hard": -3, "expert": -4}


def cpu_pool(level: str) -> int | None:
    """The store id of the rating pool of CPU `level` (None for a level without one)."""
    return CPU_POOLS.get(level)


async def rate_record(
    store: StoreContract, guild: int, record: HandRecord, cpus: Mapping[int, str]
) -> HandRecord:
    """The hand record with its ratings and the season they were read in (the store drops
    them if a new season started before the hand is saved)."""
    season = await store.current_season(guild)
    ratings = await hand_ratings(store, guild, record.result, cpus)
    return replace(record, ratings=ratings, ratings_season=season)


async def hand_ratings(
    store: StoreContract,
    guild: int,
    result: Mapping[int, int],
    cpus: Mapping[int, str],
) -> tuple[RatingUpdate, ...]:
    """The new ratings after a hand: `result` maps every player dealt in to their net (the
    hand record's), `cpus` the CPU seats to their level. Empty when nothing is rated."""
    players = list(result)
    keys = [_key(user, cpus) for user in players]
    if len(players) < 3 or all(k is None for k in keys):
        return ()
    known = {k for k in keys if k is not None}
    stored = await store.ratings(guild, sorted(known))
    seats: list[Seat] = []
    nets: dict[int, int] = {}
    for user, key in zip(players, keys, strict=True):
        net = result[user]
        if key is None:  # a CPU level without a pool: it plays but is not rated
            seats.append(Seat(f"seat:{user}", False, Rating(), int(net)))
            continue
        before = stored.get(key)
        rating = Rating(before.mu, before.sigma, before.hands) if before else Rating()
        seats.append(Seat(str(key), not is_cpu(user), rating, int(net)))
        nets[key] = nets.get(key, 0) + int(net)
    new = rate_hand(seats)
    updates = [
        RatingUpdate(int(k), r.mu, r.sigma, r.hands, nets[int(k)])
        for k, r in new.items()
        if not k.startswith("seat:")
    ]
    return tuple(sorted(updates, key=lambda u: u.user))


def _key(user: int, cpus: Mapping[int, str]) -> int | None:
    """The store id a seat is rated under: the user, or its CPU level's pool."""
    if not is_cpu(user):
        return user
    return cpu_pool(cpus.get(user, ""))


async def cpu_label(store: StoreContract, guild: int, level: str) -> Rating | None:
    """The rating of CPU `level` on this server, if it has played a rated hand."""
    pool = cpu_pool(level)
    if pool is None:
        return None
    stored = (await store.ratings(guild, [pool])).get(pool)
    return Rating(stored.mu, stored.sigma, stored.hands) if stored else None


__all__ = ["CPU_POOLS", "cpu_label", "cpu_pool", "hand_ratings", "rate_record"]
