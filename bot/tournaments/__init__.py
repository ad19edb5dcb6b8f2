"""Sit-and-go tournaments: pure, synchronous rules of a tournament around ordinary hands.

API for the wiring step (the table service and the store call these; nothing here knows
Discord, the store or the table service; refusals are `RankedError` with a `ranked.*`
catalogue key for a polite ephemeral reply):

- `TournamentConfig.create(buy_in=, seats=, starting_stack=None, schedule="regular",
  payout="winner_takes_all", hands_per_level=None)`: the opener's choices, checked.
  `SCHEDULES` (turbo / regular / slow: `Level`s of R-4 stakes, K hands per level and a
  suggested starting stack of 1,000 / 1,500 / 3,000, the default) and
  `PAYOUTS` (winner_takes_all, 65_35, 50_30_20) are the presets.
- `new_tournament(config)`, `register(state, player)` (escrow `config.buy_in` in the same
  transaction), `unregister(state, player)` (refund it), `cancel(state)` -> (state, refunds),
  `start(state, seed)` once every seat is taken.
- Each hand: `next_hand(state)` -> `NextHand(players, stacks, dealer, stakes)`;
  `stakes.rules(server_rules, len(players))` is the engine's `Rules` for `Hand.start(rules,
  stacks, dealer)`; when it is over, `after_hand(state, {player: stack})` ->
  `HandOutcome(state, eliminated, level_up, finished)`.
- `stakes_for(state)`: the current level's stakes; `payouts(state)` -> {player: chips} once
  finished (the whole prize pool, paid through the ledger).
- `TournamentState.to_dict()` / `from_dict()`: JSON, written with every hand, so a restart
  resumes the level, the stacks and the places exactly.

`offline.play_to_the_end(state, cpu_players, seed)` plays a whole tournament of CPU players
with the real engine, the loop above (tests, bench).

`TournamentInfo` (`info.py`) is what the Discord side sees; `service.TournamentService` (import
it from `bot.tournaments.service`) is the async service the cog calls.

Tournament chips are not server chips: only the buy-ins (the prize pool) are real, and
`payouts` pays exactly the pool.
"""

from __future__ import annotations

from bot.tournaments.config import TournamentConfig
from bot.tournaments.info import Entrant, Place, TournamentInfo
from bot.tournaments.presets import PAYOUTS, SCHEDULES, Level, Payout, Schedule
from bot.tournaments.state import (
    HandOutcome,
    LevelUp,
    NextHand,
    Phase,
    Placement,
    TournamentState,
    after_hand,
    cancel,
    new_tournament,
    next_hand,
    payouts,
    register,
    stakes_for,
    start,
    unregister,
)

__all__ = [
    "PAYOUTS",
    "SCHEDULES",
    "Entrant",
    "HandOutcome",
    "Level",
    "LevelUp",
    "NextHand",
    "Payout",
    "Phase",
    "Place",
    "Placement",
    "Schedule",
    "TournamentConfig",
    "TournamentInfo",
    "TournamentState",
    "after_hand",
    "cancel",
    "new_tournament",
    "next_hand",
    "payouts",
    "register",
    "stakes_for",
    "start",
    "unregister",
]
