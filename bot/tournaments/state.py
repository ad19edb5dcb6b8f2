"""The sit-and-go state machine: registering → running → finished (or cancelled).

Every function takes a frozen `TournamentState` and returns a new one; nothing is changed in
place, so the table service can write the returned state in the same transaction as the hand
that produced it and a restart resumes from `TournamentState.from_dict` exactly.

- Registering: players register (each escrows `config.buy_in`) and unregister (refunded);
  `cancel` refunds everyone. `start` needs every seat taken; it draws the first dealer by lot.
- Running: seats keep the registration order. Before each hand `next_hand` gives the players
  still in, their stacks and the dealer (an engine seat); `stakes_for` the level's stakes
  (level = hands played // K). After it `after_hand` takes the stacks and eliminates every
  player who cannot pay the next hand's ante (R-5), placing them last-first; simultaneous
  eliminations are ranked by their stack at the start of that hand, then by the hand's seat
  priority (R-3: the eldest hand first, the dealer last). The deal passes to the next seat
  still in.
- Finished: when fewer than 3 players can pay the ante (a hand needs 3, R-5) the players
  still in take the first places by stack, then priority. `payouts` splits the prize pool.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from bot.engine import MIN_PLAYERS
from bot.ratings.errors import RankedError
from bot.tournaments.config import TournamentConfig
from bot.tournaments.presets import Level


class Phase(StrEnum):
    """Where a tournament is in its life."""

    REGISTERING = "registering"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class Placement:
    """A player's finishing place (1 = the winner) and the hands played when it was decided."""

    player: str
    place: int
    hand: int

    def to_list(self) -> list[Any]:
        """[player, place, hand]."""
        return [self.player, self.place, self.hand]


@dataclass(frozen=True, slots=True)
class TournamentState:
    """A tournament at one moment. `players` are the seats in order (registration order);
    `stacks` their tournament chips (an eliminated player keeps the stack they left with);
    `dealer` the seat that deals the next hand; `places` the players placed so far."""

    config: TournamentConfig
    phase: Phase = Phase.REGISTERING
    players: tuple[str, ...] = ()
    stacks: tuple[int, ...] = ()
    hands_played: int = 0
    dealer: int = 0
    places: tuple[Placement, ...] = ()

    @property
    def level(self) -> int:
        """The level of the next hand, 0-based (shown to people as level + 1)."""
        return self.hands_played // self.config.schedule.hands_per_level

    @property
    def prize_pool(self) -> int:
        """The escrowed buy-ins: what `payouts` pays out."""
        return self.config.buy_in * len(self.players)

    @property
    def alive(self) -> tuple[str, ...]:
        """The players still in, in seat order."""
        placed = {p.player for p in self.places}
        return tuple(p for p in self.players if p not in placed)

    def place_of(self, player: str) -> int | None:
        """The finishing place of `player`, None while they are still in."""
        return next((p.place for p in self.places if p.player == player), None)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able fields."""
        return {
            "config": self.config.to_dict(),
            "phase": self.phase.value,
            "players": list(self.players),
            "stacks": list(self.stacks),
            "hands_played": self.hands_played,
            "dealer": self.dealer,
            "places": [p.to_list() for p in self.places],
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> TournamentState:
        """The state of `to_dict`."""
        return cls(
            TournamentConfig.from_dict(d["config"]),
            Phase(d["phase"]),
            tuple(str(p) for p in d["players"]),
            tuple(int(s) for s in d["stacks"]),
            int(d["hands_played"]),
            int(d["dealer"]),
            tuple(Placement(str(p), int(place), int(h)) for p, place, h in d["places"]),
        )


@dataclass(frozen=True, slots=True)
class NextHand:
    """What the table service deals next: engine seat i is `players[i]` with `stacks[i]`."""

    players: tuple[str, ...]
    stacks: tuple[int, ...]
    dealer: int
    stakes: Level


@dataclass(frozen=True, slots=True)
class LevelUp:
    """The stakes rose: the new level (0-based) and its stakes, to announce at the table."""

    level: int
    stakes: Level


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """What `after_hand` returns: the new state, who went out (best place first), the level
    change if any."""

    state: TournamentState
    eliminated: tuple[Placement, ...]
    level_up: LevelUp | None

    @property
    def finished(self) -> bool:
        """True when this hand ended the tournament."""
        return self.state.phase is Phase.FINISHED


def new_tournament(config: TournamentConfig) -> TournamentState:
    """A tournament open for registration."""
    return TournamentState(config)


def _require(state: TournamentState, phase: Phase) -> None:
    if state.phase is not phase:
        raise RankedError(f"ranked.tournament_not_{phase.value}")


def register(state: TournamentState, player: str) -> TournamentState:
    """`player` takes the next seat (the caller escrows `config.buy_in` in the same
    transaction)."""
    _require(state, Phase.REGISTERING)
    if player in state.players:
        raise RankedError("ranked.tournament_already_registered")
    if len(state.players) >= state.config.seats:
        raise RankedError("ranked.tournament_full", seats=state.config.seats)
    return replace(state, players=(*state.players, player))


def unregister(state: TournamentState, player: str) -> TournamentState:
    """`player` leaves before the start (the caller refunds `config.buy_in`)."""
    _require(state, Phase.REGISTERING)
    if player not in state.players:
        raise RankedError("ranked.tournament_not_registered")
    return replace(state, players=tuple(p for p in state.players if p != player))


def cancel(state: TournamentState) -> tuple[TournamentState, dict[str, int]]:
    """Call off a tournament that has not started: the state and each player's refund."""
    _require(state, Phase.REGISTERING)
    refunds = {p: state.config.buy_in for p in state.players}
    return replace(state, phase=Phase.CANCELLED), refunds


def start(state: TournamentState, seed: int | None = None) -> TournamentState:
    """Start a full tournament: every seat gets the starting stack, the dealer is drawn by lot
    (R-3) with `random.Random(seed)`."""
    _require(state, Phase.REGISTERING)
    n = len(state.players)
    if n < state.config.seats:
        raise RankedError("ranked.tournament_not_full", missing=state.config.seats - n)
    return replace(
        state,
        phase=Phase.RUNNING,
        stacks=(state.config.starting_stack,) * n,
        dealer=random.Random(seed).randrange(n),
    )


def stakes_for(state: TournamentState) -> Level:
    """The stakes of the next hand (the current level's)."""
    return state.config.schedule.level(state.level)


def next_hand(state: TournamentState) -> NextHand:
    """The players of the next hand in seat order, their stacks, the dealer and the stakes."""
    _require(state, Phase.RUNNING)
    alive = set(state.alive)
    seats = [i for i, p in enumerate(state.players) if p in alive]
    return NextHand(
        tuple(state.players[i] for i in seats),
        tuple(state.stacks[i] for i in seats),
        seats.index(state.dealer),
        stakes_for(state),
    )


def after_hand(state: TournamentState, stacks: Mapping[str, int]) -> HandOutcome:
    """Record a finished hand: `stacks` are the tournament chips of every player of the hand
    after it. Their sum must equal the sum before (no chip is created or lost, R-15)."""
    hand = next_hand(state)
    if set(stacks) != set(hand.players):
        raise ValueError("after_hand needs the stack of every player of the hand, and only those")
    if sum(stacks.values()) != sum(hand.stacks) or min(stacks.values()) < 0:
        raise ValueError("a hand moves chips between its players, never creates or loses any")
    n = len(hand.players)
    # seat priority of the hand just played: eldest hand 0, the dealer n - 1
    priority = {hand.players[(hand.dealer + 1 + k) % n]: k for k in range(n)}
    before = dict(zip(hand.players, hand.stacks, strict=True))
    played = state.hands_played + 1
    new_stacks = tuple(stacks.get(p, s) for p, s in zip(state.players, state.stacks, strict=True))
    after = replace(state, stacks=new_stacks, hands_played=played)
    ante = stakes_for(after).ante
    out = sorted(
        (p for p in hand.players if stacks[p] < ante), key=lambda p: (-before[p], priority[p])
    )
    still_in = [p for p in hand.players if stacks[p] >= ante]
    if len(still_in) < MIN_PLAYERS:
        out = sorted(still_in, key=lambda p: (-stacks[p], priority[p])) + out
        still_in = []
    first_place = len(state.alive) - len(out) + 1
    placed = tuple(Placement(p, first_place + i, played) for i, p in enumerate(out))
    # the later places are written first: `places` lists players in elimination order
    places = state.places + tuple(reversed(placed))
    if still_in:
        after = replace(after, places=places, dealer=_next_dealer(state, set(still_in)))
    else:
        after = replace(after, places=places, phase=Phase.FINISHED)
    level_up = None
    if after.phase is Phase.RUNNING and after.level != state.level:
        level_up = LevelUp(after.level, stakes_for(after))
    return HandOutcome(after, placed, level_up)


def _next_dealer(state: TournamentState, still_in: set[str]) -> int:
    n = len(state.players)
    for step in range(1, n + 1):
        seat = (state.dealer + step) % n
        if state.players[seat] in still_in:
            return seat
    raise AssertionError("a running tournament has players left")


def payouts(state: TournamentState) -> dict[str, int]:
    """The prize of each paid place of a finished tournament, by player (sums to the pool).

    The split is `Payout.shares` (the rounding's odd chips go to the winner).
    """
    _require(state, Phase.FINISHED)
    shares = state.config.payout.shares(state.prize_pool)
    by_place = {p.place: p.player for p in state.places}
    return {by_place[i + 1]: share for i, share in enumerate(shares)}
