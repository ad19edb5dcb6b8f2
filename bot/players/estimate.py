"""Monte Carlo estimates of a point's chances, from what a seat can see.

The cards a seat cannot see are dealt at random to the other seats (the cards they have shown
stay theirs), and every sample is scored against the seat's own point. With `model=True` the
samples are weighted by how likely each opponent's betting is given its sampled cards (a seat
that bet or raised tends to hold a strong point), and the seats yet to act are assumed to fold
weak points when facing a bet.
"""

from __future__ import annotations

import bisect
import itertools
import random
import time
from dataclasses import dataclass, field
from functools import cache

from bot.players.knowledge import Knowledge, point_key
from bot.shuffle import shuffle


@cache
def strength_table(deck: tuple[int, ...], size: int, by_total: bool) -> tuple[tuple[int, int], ...]:
    """Sorted keys of the best point of random `size`-card holdings from `deck`.

    Exhaustive for up to three cards, else 3,000 seeded samples.
    """
    if size <= 3:
        keys = [point_key(combo, by_total) for combo in itertools.combinations(deck, size)]
    else:
        rng = random.Random(size * 7919 + len(deck))
        keys = [point_key(rng.sample(deck, size), by_total) for _ in range(3000)]
    keys.sort()
    return tuple(keys)


def percentile(table: tuple[tuple[int, int], ...], key: tuple[int, int]) -> float:
    """The share of `table` below `key` (ties count half): 0.0 weakest .. 1.0 strongest."""
    lo = bisect.bisect_left(table, key)
    hi = bisect.bisect_right(table, key, lo)
    return (lo + hi) / (2 * len(table))


@dataclass(slots=True)
class Opponent:
    """An opponent still contesting the point, as the estimator sees it."""

    seat: int
    size: int  # eligible cards it holds for this point
    bet: int  # chips it has put in this round
    committed: bool  # it has bet, called or raised this round
    aggression: float = 0.0  # weight exponent: how strongly its bets say "strong point"
    allin: bool = False  # it cannot put in more chips (it stays in for what it matched)


@dataclass(slots=True)
class Sample:
    """One sampled deal of the opponents' cards: weight, and per opponent (beaten, strength,
    the R-7 key of its best point)."""

    weight: float
    beaten: list[bool] = field(default_factory=list)
    strength: list[float] = field(default_factory=list)
    keys: list[tuple[int, int]] = field(default_factory=list)


def sample_points(
    know: Knowledge,
    my_cards: list[int],
    opponents: list[Opponent],
    *,
    big: bool,
    samples: int,
    rng: random.Random,
    model: bool,
    deadline: float | None = None,
) -> list[Sample]:
    """Deal the unseen cards to `opponents` `samples` times and score my point against each.

    `big` means the eligible cards are the whole hand (shown cards included); otherwise only
    the current deal (shown cards of earlier deals are excluded from it). The sample count is
    the budget; `deadline` (a `time.perf_counter()` value, None: none) is only a safety net that
    stops early, keeping at least a few samples (fewer samples than asked tell it did).
    """
    by_total = know.by_total
    mine = point_key(my_cards, by_total)
    my_prio = know.priority(know.seat)
    pool = know.unseen()
    deck = tuple(know.deck)
    tables = {o.seat: strength_table(deck, o.size, by_total) for o in opponents}
    out: list[Sample] = []
    for i in range(samples):
        if deadline is not None and i >= 8 and i % 16 == 0 and time.perf_counter() > deadline:
            break
        shuffle(rng, pool)  # exactly rng.shuffle(pool), faster
        pos = 0
        sample = Sample(1.0)
        for o in opponents:
            fixed = know.shown.get(o.seat, []) if big else []
            need = max(0, o.size - len(fixed))
            cards = fixed + pool[pos : pos + need]
            pos += need
            key = point_key(cards, by_total)
            strength = percentile(tables[o.seat], key)
            beaten = mine > key or (mine == key and my_prio < know.priority(o.seat))
            sample.beaten.append(beaten)
            sample.strength.append(strength)
            sample.keys.append(key)
            if model and o.committed:
                sample.weight *= max(strength, 0.02) ** o.aggression
        out.append(sample)
    return out


def call_threshold(price: float, tightness: float) -> float:
    """The strength an opponent is assumed to need to call a bet costing `price` of the pot."""
    return min(0.97, max(0.0, tightness + 1.1 * price))


def expected_gain(
    samples: list[Sample],
    opponents: list[Opponent],
    *,
    level: int,
    my_bet: int,
    pot: int,
    tightness: float,
    model: bool,
) -> float:
    """Expected chips gained by putting my bet up to `level`, relative to passing now.

    `pot` holds the small or big pot plus every bet already made this round. Opponents below
    `level` call when their sampled strength clears `call_threshold` (with `model`; otherwise
    every one still in calls); nobody calling wins `pot`.
    """
    cost = level - my_bet
    total_w = 0.0
    gain = 0.0
    for s in samples:
        w = s.weight
        total_w += w
        won = pot
        called = False
        lost = False
        for j, o in enumerate(opponents):
            owe = 0 if o.allin else level - o.bet
            if owe <= 0 or not model:
                calls = True
            else:
                price = owe / (pot + cost + owe)
                calls = s.strength[j] >= call_threshold(price, tightness)
            if calls:
                called = True
                won += max(owe, 0)
                if not s.beaten[j]:
                    lost = True
        if not called:
            gain += w * pot
        elif lost:
            gain -= w * cost
        else:
            gain += w * won
    return gain / total_w if total_w else 0.0


def win_share(samples: list[Sample]) -> float:
    """Weighted chance of beating every opponent at a showdown."""
    total = sum(s.weight for s in samples)
    if not total:
        return 0.0
    return sum(s.weight for s in samples if all(s.beaten)) / total
