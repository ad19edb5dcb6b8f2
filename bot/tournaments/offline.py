"""Tournaments of CPU players played offline with the real engine (tests, bench, demos).

The loop is the one the table service will run: `next_hand`, the level's `Rules`,
`Hand.start` and its actions (here every seat asks a CPU player, as `bot.players.match` does),
then `after_hand` with the stacks. It is the only module of the package that plays hands.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.engine import Rules
from bot.players.base import CpuPlayer
from bot.players.match import play_hand
from bot.tournaments import HandOutcome, Phase, TournamentState, after_hand, next_hand

#: the variants of a server that changed none
DEFAULT = Rules()


def play_one(
    state: TournamentState, players: Mapping[str, CpuPlayer], seed: int, base: Rules = DEFAULT
) -> HandOutcome:
    """Deal and play the next hand to its end with `Hand.start` and record it."""
    upcoming = next_hand(state)
    rules = upcoming.stakes.rules(base, len(upcoming.players))
    hand = play_hand(
        rules, [players[p] for p in upcoming.players], upcoming.dealer, seed=seed,
        chips=upcoming.stacks,
    )
    assert hand.result is not None
    return after_hand(state, dict(zip(upcoming.players, hand.chips, strict=True)))


def play_to_the_end(
    state: TournamentState, players: Mapping[str, CpuPlayer], seed: int, limit: int = 500
) -> tuple[TournamentState, list[HandOutcome]]:
    """Play hands until the tournament finishes; every outcome, in order."""
    outcomes: list[HandOutcome] = []
    while state.phase is Phase.RUNNING:
        assert len(outcomes) < limit, "a tournament always ends: the stakes keep rising"
        outcome = play_one(state, players, seed + state.hands_played)
        outcomes.append(outcome)
        state = outcome.state
    return state, outcomes
