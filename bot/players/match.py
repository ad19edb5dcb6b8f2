"""Offline games of CPU players with the real engine: one hand, and fair duplicate duels.

A duel between levels A and B seats them A, B, A, B (4 players; A, B, A, B, A, B at 6) and
plays every deal twice, the second time with the seats swapped (B, A, B, A...) on the same
cards, the dealer rotating from deal to deal. A deal's score is team A's mean chips per player
and per hand over both plays, so the luck of the cards cancels out; the mean of the deal scores
over many deals, with a 95% interval, measures A against B (0 means equal strength; the game is
zero-sum between the teams). Besides the levels, a duel may seat `hard2`, the hard player with
a tighter, more aggressive style (`hard.HARD_TIGHT_AGGRESSIVE`).

`phase_ledger` says where a seat's chips of one hand went (antes, each kind of betting round
by how it ended for the seat, the stoppa, special hands), and `duel_ledgers` averages it for
team A over a duel's deals exactly as `duel_scores` scores them: comparing two levels against
the same opponents on the same decks shows in which phase one wins what the other does not.
"""

from __future__ import annotations

import math
import random
import statistics
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence

from bot.engine import Rules
from bot.engine.events import (
    Anted,
    BetMade,
    BigPointBegan,
    Conceded,
    Declared,
    HandEnded,
    Paid,
    Passed,
    Raised,
    SmallPointBegan,
    SpecialHand,
    StoppaBegan,
    Wager,
    WentAllIn,
    Won,
)
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
    on_start: Callable[[Hand], None] | None = None,
) -> Hand:
    """Play one whole hand, every seat asking its player with its seat view,
    legal actions and events only.

    `on_turn(hand, seat, action)` is called before each action is applied; `on_start(hand)`
    once the cards are dealt (a benchmark's clairvoyant seat watches the hand through it).
    """
    stacks = list(chips) if chips is not None else [START_CHIPS] * rules.players
    hand = Hand.start(rules, stacks, dealer, seed=seed)
    if on_start is not None:
        on_start(hand)
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


#: builds a duel's player of a level (a name) from its seed
PlayerMaker = Callable[[str, int], CpuPlayer]


def _round_outcome(seat: int, put: int, won: int, acts: dict[str, set[int]]) -> str:
    """How a betting round (and its showdown) ended for `seat`."""
    if seat in acts["declared"]:
        return "showdown_won" if won > 0 else "showdown_lost"
    if seat in acts["conceded"]:
        return "conceded"
    if seat in acts["passed"] and put > 0:
        return "folded_after_chips"
    return "won_without_showdown" if won > 0 else "out"


def phase_ledger(hand: Hand, seats: Iterable[int]) -> dict[int, dict[str, float]]:
    """Per seat of `seats`, its chips of a finished `hand` by where they went: "ante",
    "small" and "big" (what each kind of round won less what the seat put in), split as
    "small:<outcome>:<aggressor|passive>" (`_round_outcome`; aggressor: it bet or raised),
    "stoppa", "special" (R-11) and "total" (the hand's result: the parts add up to it). Counts
    are kept under "n:": rounds it put chips in ("n:small:in"), showdowns, showdowns won."""
    out: dict[int, defaultdict[str, float]] = {s: defaultdict(float) for s in seats}
    kind: str | None = None
    put: dict[int, int] = defaultdict(int)
    won: dict[int, int] = defaultdict(int)
    acts: dict[str, set[int]] = defaultdict(set)
    paid_for = "stoppa"  # what a `Paid` event pays: the stoppa's close, or a special hand

    def close_round() -> None:
        if kind is None:
            return
        for s, chips in out.items():
            net = won[s] - put[s]
            style = "aggressor" if s in acts["aggressor"] else "passive"
            chips[kind] += net
            chips[f"{kind}:{_round_outcome(s, put[s], won[s], acts)}:{style}"] += net
            chips[f"n:{kind}:in"] += put[s] > 0
            chips[f"n:{kind}:showdown"] += s in acts["declared"]
            chips[f"n:{kind}:showdown_won"] += s in acts["declared"] and won[s] > 0

    for e in hand.events:
        if isinstance(e, SmallPointBegan | BigPointBegan | StoppaBegan | HandEnded):
            close_round()
            put.clear()
            won.clear()
            acts.clear()
            kind = ("small" if isinstance(e, SmallPointBegan)
                    else "big" if isinstance(e, BigPointBegan) else None)
            if isinstance(e, HandEnded):
                for s, chips in out.items():
                    chips["total"] += e.result[s]
        elif isinstance(e, Anted) and e.seat in out:
            out[e.seat]["ante"] -= e.amount
        elif isinstance(e, Wager) and not isinstance(e, WentAllIn):
            put[e.seat] += e.amount
            if isinstance(e, BetMade | Raised):
                acts["aggressor"].add(e.seat)
        elif isinstance(e, Won):
            won[e.seat] += e.amount
        elif isinstance(e, Passed | Conceded | Declared):
            name = {Passed: "passed", Conceded: "conceded", Declared: "declared"}[type(e)]
            acts[name].add(e.seat)
        elif isinstance(e, SpecialHand):
            paid_for = "special"  # its payments follow as `Paid` events
        elif isinstance(e, Paid):
            for s, sign in ((e.seat, -1), (e.to, 1)):
                if s in out:
                    out[s][paid_for] += sign * e.amount
    return {s: dict(chips) for s, chips in out.items()}


def duel_ledgers(
    a: str,
    b: str,
    deals: int,
    seed: int = 0,
    players: int = 4,
    *,
    make: PlayerMaker = make_duel_player,
    on_start: Callable[[Hand], None] | None = None,
) -> list[dict[str, float]]:
    """Team A's `phase_ledger` on each of `deals` duplicate deals, per player and per hand as
    `duel_scores` scores them (its "total" is that score; `make`, `on_start` as there)."""
    ledgers: list[dict[str, float]] = []

    def keep(first: Hand, swapped: Hand) -> None:
        row: dict[str, float] = defaultdict(float)
        for hand, seats in ((first, range(0, players, 2)), (swapped, range(1, players, 2))):
            for chips in phase_ledger(hand, seats).values():
                for name, value in chips.items():
                    row[name] += value / players
        ledgers.append(dict(row))

    _duel(a, b, deals, seed, players, keep, make, on_start)
    return ledgers


def duel_scores(
    a: str,
    b: str,
    deals: int,
    seed: int = 0,
    players: int = 4,
    *,
    make: PlayerMaker = make_duel_player,
    on_start: Callable[[Hand], None] | None = None,
) -> list[float]:
    """Team A's score (mean chips per player per hand) on each of `deals` duplicate deals of
    `players` seats (an even number: A and B alternate); `make` builds a player of a level
    from its seed, `on_start` sees each hand once dealt (`play_hand`)."""
    scores: list[float] = []

    def score(first: Hand, swapped: Hand) -> None:
        assert first.result is not None and swapped.result is not None
        a_chips = sum(first.result[0::2]) + sum(swapped.result[1::2])
        scores.append(a_chips / players)

    _duel(a, b, deals, seed, players, score, make, on_start)
    return scores


def _duel(
    a: str,
    b: str,
    deals: int,
    seed: int,
    players: int,
    each: Callable[[Hand, Hand], None],
    make: PlayerMaker = make_duel_player,
    on_start: Callable[[Hand], None] | None = None,
) -> None:
    """Play `deals` duplicate deals (team A in the even seats, then in the odd ones, on the
    same cards) and give each pair of hands to `each`."""
    if players % 2:
        raise ValueError("a duel needs an even number of seats")
    rules = Rules(players=players)
    rng = random.Random(seed)
    team_a = [make(a, rng.randrange(2**31)) for _ in range(players // 2)]
    team_b = [make(b, rng.randrange(2**31)) for _ in range(players // 2)]
    first_seats = [p for pair in zip(team_a, team_b, strict=True) for p in pair]
    swapped_seats = [p for pair in zip(team_b, team_a, strict=True) for p in pair]
    for d in range(deals):
        deal_seed = rng.randrange(2**31)
        dealer = d % players
        first = play_hand(rules, first_seats, dealer, seed=deal_seed, on_start=on_start)
        each(first, play_hand(rules, swapped_seats, dealer, seed=deal_seed, on_start=on_start))
