"""Offline games of CPU players with the real engine: one hand, and fair duplicate duels.

A duel between levels A and B seats them A, B, A, B (4 players; A, B, A, B, A, B at 6) and
plays every deal twice, the second time with the seats swapped (B, A, B, A...) on the same
cards, the dealer rotating from deal to deal. A deal's score is team A's mean chips per player
and per hand over both plays, so the luck of the cards cancels out; the mean of the deal scores
over many deals, with a 95% interval, measures A against B (0 means equal strength; the game is
zero-sum between the teams). Besides the levels, a duel may seat `hard2`, the hard player with
a tighter, more aggressive style (`hard.HARD_TIGHT_AGGRESSIVE`).
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence

from bot.engine import Rules
from bot.engine.hand import Hand
from bot.players.base import CpuPlayer
from bot.players.hard import HARD_TIGHT_AGGRESSIVE, HardPlayer
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


def make_duel_player(level: str, seed: int) -> CpuPlayer:
    """A player of `level`, or of `hard2` (hard with the tight, aggressive style)."""
    if level == "hard2":
        player = HardPlayer(seed, "hard2")
        player.style = HARD_TIGHT_AGGRESSIVE
        return player
    return make_player(level, seed)


def duel_scores(a: str, b: str, deals: int, seed: int = 0, players: int = 4) -> list[float]:
    """Team A's score (mean chips per player per hand) on each of `deals` duplicate deals of
    `players` seats (an even number: A and B alternate)."""
    if players % 2:
        raise ValueError("a duel needs an even number of seats")
    rules = Rules(players=players)
    rng = random.Random(seed)
    team_a = [make_duel_player(a, rng.randrange(2**31)) for _ in range(players // 2)]
    team_b = [make_duel_player(b, rng.randrange(2**31)) for _ in range(players // 2)]
    first_seats = [p for pair in zip(team_a, team_b, strict=True) for p in pair]
    swapped_seats = [p for pair in zip(team_b, team_a, strict=True) for p in pair]
    scores = []
    for d in range(deals):
        deal_seed = rng.randrange(2**31)
        dealer = d % players
        first = play_hand(rules, first_seats, dealer, seed=deal_seed)
        swapped = play_hand(rules, swapped_seats, dealer, seed=deal_seed)
        assert first.result is not None and swapped.result is not None
        a_chips = sum(first.result[0::2]) + sum(swapped.result[1::2])
        scores.append(a_chips / players)
    return scores
