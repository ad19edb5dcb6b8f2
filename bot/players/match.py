"""Offline games of CPU players with the real engine: one hand, and fair duplicate duels.

A duel between levels A and B seats them A, B, A, B (4 players) and plays every deal twice,
the second time with the seats swapped (B, A, B, A) on the same cards, the dealer rotating from
deal to deal. A deal's score is team A's mean chips per player and per hand over both plays, so
the luck of the cards cancels out; the mean of the deal scores over many deals, with a 95%
interval, measures A against B (0 means equal strength; the game is zero-sum between the teams).
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence

from bot.engine import Rules
from bot.engine.hand import Hand
from bot.players.base import CpuPlayer
from bot.players.levels import make_player

START_CHIPS = 5_000


def play_hand(
    rules: Rules,
    players: Sequence[CpuPlayer],
    dealer: int,
    *,
    seed: int | None = None,
    chips: Sequence[int] | None = None,
    on_turn: Callable[[Hand, int, object], None] | None = None,
) -> Hand:
    """Play one whole hand, every seat asking its player with its seat view,
    legal actions and events only.

    `on_turn(hand, seat, action)` is called before each action is applied.
    """
    stacks = list(chips) if chips is not None else [START_CHIPS] * rules.players
    hand = Hand.start(rules, stacks, dealer, seed=seed)
    while hand.to_act is not None:
        seat = hand.to_act
        view = hand.seat_view(seat)
        action = players[seat].choose(view, view.legal, hand.events_for(seat))
        if on_turn is not None:
            on_turn(hand, seat, action)
        hand.act(seat, action)
    return hand


def mean_interval(values: Sequence[float]) -> tuple[float, float]:
    """Mean and half-width of its 95% normal-approximation interval."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.inf
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def duel_scores(a: str, b: str, deals: int, seed: int = 0) -> list[float]:
    """Team A's score (mean chips per player per hand) on each of `deals` duplicate deals."""
    rules = Rules(players=4)
    rng = random.Random(seed)
    team_a = [make_player(a, seed=rng.randrange(2**31)) for _ in range(2)]
    team_b = [make_player(b, seed=rng.randrange(2**31)) for _ in range(2)]
    scores = []
    for d in range(deals):
        deal_seed = rng.randrange(2**31)
        dealer = d % 4
        first = play_hand(
            rules, [team_a[0], team_b[0], team_a[1], team_b[1]], dealer, seed=deal_seed
        )
        swapped = play_hand(
            rules, [team_b[0], team_a[0], team_b[1], team_a[1]], dealer, seed=deal_seed
        )
        assert first.result is not None and swapped.result is not None
        a_chips = first.result[0] + first.result[2] + swapped.result[1] + swapped.result[3]
        scores.append(a_chips / 4)
    return scores
