"""Choosing a stoppa opening (R-12) by search over the seat's own openings.

The hidden cards are split at random among the other seats (their counts are public, cards they
have shown and not played stay theirs); for each sample every candidate opening is played out to
the close with `shedding.heuristic_open` for every later opening, and scored by the R-13
payment. The same samples are used for every candidate (common random numbers).

The work is bounded by counts, never by the clock, so that a decision depends only on the seed
and the view: at most `max_samples` samples, and no new sample once `max_nodes` nodes have been
spent over every candidate's play-outs (a node is one simulated card play; each play-out also
counts `PLAYOUT_NODES` for its fixed cost, so that nodes track time). An optional wall-clock
`deadline` is a safety net only (sized never to bind in normal play); `SearchResult.cut` says
when it did.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from bot.players.knowledge import Knowledge, rank_of
from bot.players.shedding import Counts, Shedding, counts_of, heuristic_open, live_counts
from bot.shuffle import shuffle

#: Nodes charged per play-out for its fixed cost (copying hands, openings), measured as about
#: the cost of 12 simulated card plays.
PLAYOUT_NODES = 12


@dataclass(slots=True)
class Payment:
    """R-13 stakes: chips per counted card and cards per payment."""

    card_rate: int = 10
    cards_per_payment: int = 1

    def owed(self, cards_left: int, chips: int) -> int:
        """What a seat with `cards_left` (and `chips`) pays the closer."""
        return min(chips, self.card_rate * (cards_left // self.cards_per_payment))


@dataclass(slots=True)
class SearchResult:
    """The chosen rank, the mean gain of each candidate, the samples and simulated card plays
    (nodes) used, and whether the safety deadline cut the search short."""

    rank: int
    gains: dict[int, float]
    samples: int
    nodes: int = 0
    cut: bool = False


def live_totals(know: Knowledge) -> Counts:
    """How many cards of each rank are still held by someone (mine included)."""
    played = set(know.played)
    return live_counts(counts_of([rank_of(c) for c in know.deck if c not in played]))


def heuristic_choice(know: Knowledge, candidates: list[int]) -> int:
    """The quick opening of `shedding.heuristic_open`, restricted to `candidates`."""
    hand = counts_of([rank_of(c) for c in know.mine])
    total = live_totals(know)
    hands = [hand]
    choice = heuristic_open(0, hands, total)
    return choice if choice in candidates else candidates[0]


def sample_hands(know: Knowledge, rng: random.Random) -> list[Counts]:
    """Rank counts of every seat: mine, and a random split of the hidden cards for the others."""
    pool = [rank_of(c) for c in know.unseen()]
    shuffle(rng, pool)  # exactly rng.shuffle(pool), faster
    hands: list[Counts] = []
    pos = 0
    for seat in range(know.players):
        if seat == know.seat:
            hands.append(counts_of([rank_of(c) for c in know.mine]))
            continue
        fixed = [rank_of(c) for c in know.shown.get(seat, [])]
        need = max(0, know.counts[seat] - len(fixed))
        hands.append(counts_of(fixed + pool[pos : pos + need]))
        pos += need
    return hands


def search_opening(
    know: Knowledge,
    candidates: list[int],
    payment: Payment,
    rng: random.Random,
    *,
    max_samples: int = 400,
    max_nodes: int | None = None,
    deadline: float | None = None,
    deal: Callable[[Knowledge, random.Random], list[Counts]] | None = None,
) -> SearchResult:
    """Evaluate each candidate opening rank by sampled play-outs; the best mean gain wins.

    At most `max_samples` samples; no sample is started once `max_nodes` card plays have been
    simulated, nor after the safety `deadline` (`time.perf_counter()`, None: none); at least
    one sample is always completed. `deal` draws the other hands (default `sample_hands`:
    the hidden cards split uniformly; the expert passes a deal that keeps what the stoppa's
    plays told it).
    """
    if len(candidates) == 1:
        return SearchResult(candidates[0], {candidates[0]: 0.0}, 0)
    full = counts_of([rank_of(c) for c in know.deck])
    jump = know.rules.three_aces_jump
    me = know.seat
    sums = dict.fromkeys(candidates, 0.0)
    done = nodes = 0
    cut = False
    while done < max_samples:
        if done and max_nodes is not None and nodes >= max_nodes:
            break
        if done and deadline is not None and time.perf_counter() > deadline:
            cut = True
            break
        hands = (deal or sample_hands)(know, rng)
        held = sum(map(sum, hands))
        for rank in candidates:
            game = Shedding([h[:] for h in hands], full, jump)
            closer = game.play_out(me, heuristic_open, first=rank)
            nodes += held - sum(game.sizes) + PLAYOUT_NODES
            if closer == me:
                gain = sum(
                    payment.owed(game.sizes[s], know.chips[s])
                    for s in range(know.players)
                    if s != me
                )
            else:
                gain = -payment.owed(game.sizes[me], know.chips[me])
            sums[rank] += gain
        done += 1
    gains = {r: sums[r] / max(done, 1) for r in candidates}
    best = max(candidates, key=lambda r: (gains[r], -r))
    return SearchResult(best, gains, done, nodes, cut)
