"""CPU players: legal, deterministic, view-only (issue 8)."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import Action, Event, Rules, SeatView
from bot.engine.hand import Hand
from bot.players import LEVELS, CpuPlayer, RandomPlayer, make_player
from bot.players.base import action_kind, amount_of
from bot.players.match import play_hand
from bot.players.strategy import DecisionFigures, ThinkingPlayer
from tests.engine.behaviour_hash import view as json_view


def _players(levels: list[str], seed: int) -> list[CpuPlayer]:
    return [make_player(lv, seed + i) for i, lv in enumerate(levels)]


class Checked:
    """Wraps a player: checks every action it returns is legal, and what it was shown."""

    def __init__(self, inner: CpuPlayer, hand_ref: list[Hand]) -> None:
        self.inner = inner
        self.name = inner.name
        self.hand_ref = hand_ref
        self.kinds: set[str] = set()

    def choose(
        self, view: SeatView, legal: Sequence[Action], events: Sequence[Event] = ()
    ) -> Action:
        hand = self.hand_ref[0]
        seat = view.seat
        assert seat is not None
        hidden = _hidden_cards(hand, seat)
        text = repr(view) + json.dumps([e.to_dict() for e in events])
        leaks = [c for c in hidden if f"Card({c})" in text or f'"{c}"' in text]
        assert not leaks, "view leaks another seat's cards"
        # the player gets the view's values (its legal actions included): no hand to reach
        action = self.inner.choose(view, list(view.legal), events)
        assert hand.can(seat, action), f"{self.name} chose illegal {action}"
        self.kinds.add(action_kind(action))
        return action


def _hidden_cards(hand: Hand, seat: int) -> set[str]:
    """Cards held by other seats that they have not shown (nobody else may see them)."""
    shown = {c for d in json_view(hand, None)["declared"] for c in d["cards"]}
    return {
        c.code
        for s in range(hand.rules.players)
        if s != seat
        for c in hand.cards(s)
        if c.code not in shown
    }


def _play_checked(levels: list[str], seed: int, rules: Rules) -> tuple[Hand, list[Checked]]:
    ref: list[Hand] = []
    players = [Checked(p, ref) for p in _players(levels, seed)]
    hand = Hand.start(rules, [3000] * rules.players, seed % rules.players, seed=seed)
    ref.append(hand)
    while hand.to_act is not None:
        seat = hand.to_act
        hand.act(seat, players[seat].choose(
            hand.seat_view(seat), hand.legal_actions(), hand.events_for(seat)
        ))
    return hand, players


RULES = [
    Rules(players=4),
    Rules(players=3),
    Rules(players=3, three_players="suit", ranking="total"),
    Rules(players=5, cards_per_payment=2),
    Rules(players=6, three_aces_jump=True),
    Rules(players=4, max_bet=50, unclaimed_big_pot="carry"),
]


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), rules=st.sampled_from(RULES))
def test_R8_R9_R12_every_action_is_legal_and_views_hide_other_hands(seed: int, rules: Rules):
    rng = random.Random(seed)
    levels = [rng.choice(["random", "easy"]) for _ in range(rules.players)]
    hand, _ = _play_checked(levels, seed, rules)
    assert hand.phase == "over" and hand.result is not None


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_hard_player_plays_legal_whole_hands(players: int) -> None:
    levels = ["hard", "easy", "random", "hard", "easy", "random"][:players]
    kinds: set[str] = set()
    for seed in range(3):
        hand, checked = _play_checked(levels, 100 * players + seed, Rules(players=players))
        assert hand.phase == "over"
        kinds |= checked[0].kinds
    assert kinds & {"bet", "call", "raise"}, "the hard player never put chips in"


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_game(level: str) -> None:
    def run() -> list[tuple[int, str]]:
        hand = play_hand(Rules(players=4), _players([level] * 4, 7), 1, seed=42)
        return hand.actions

    assert run() == run()


def _whole_hand(levels: list[str], seed: int, deal: int
                ) -> tuple[list[str], list[DecisionFigures]]:
    """Every action of a whole 4-player hand as text, and the decision figures of seat 0."""
    players = _players(levels, seed)
    figures: list[DecisionFigures] = []

    def record(hand: Hand, seat: int, action: object) -> None:
        last = getattr(players[0], "last", None)
        if seat == 0 and last is not None:
            figures.append(replace(last, seconds=0.0))  # the only timing-dependent figure

    hand = play_hand(Rules(players=4), players, deal % 4, seed=deal, on_turn=record)
    assert hand.phase == "over"
    return [f"{seat}:{text}" for seat, text in hand.actions], figures


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_same_seed_same_actions_for_a_whole_hand_twice(level: str) -> None:
    """The default players (real budgets, not test ones) replay a whole hand identically: their
    searches are budgeted in samples and simulated plays, not in time, so the samples used, the
    stoppa nodes and the gains they computed are equal too, and no safety cut happened."""
    levels = [level, "easy" if level == "hard" else "random", level, "random"]
    for deal in (3, 11):
        first = _whole_hand(levels, 21, deal)
        second = _whole_hand(levels, 21, deal)
        assert first == second
        assert not any(f.cut for f in first[1])
    assert any(a.split(":", 1)[1].startswith("play") for a in first[0]), "no stoppa reached"
    if level == "hard":
        searched = [f for f in first[1] if f.stoppa_samples]
        assert searched, "seat 0 never searched a stoppa opening in these hands"


def test_different_seeds_differ() -> None:
    games = {
        tuple(play_hand(Rules(players=4), _players(["random"] * 4, s), 0, seed=1).actions)
        for s in range(4)
    }
    assert len(games) > 1


def _deal_positions(rules: Rules, dealer: int, seat: int) -> list[int]:
    """Deck positions dealt to `seat` (R-3: each deal, priority order from the eldest)."""
    n = rules.players
    order = [(dealer + 1 + i) % n for i in range(n)]
    pos, mine = 0, []
    for k in rules.deals:
        for s in order:
            if s == seat:
                mine.extend(range(pos, pos + k))
            pos += k
    return mine


@pytest.mark.parametrize("level", ["easy", "hard"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_decision_depends_only_on_the_view(level: str, seed: int) -> None:
    """Shuffling the cards of the other seats (same view for the seat to act) changes nothing."""
    rules = Rules(players=4)
    dealer = seed % 4
    base = Hand.start(rules, [3000] * 4, dealer, seed=seed)
    seat = base.to_act
    assert seat is not None
    keep = set(_deal_positions(rules, dealer, seat))
    deck = base.deck
    others = [i for i in range(len(deck)) if i not in keep]
    decisions = set()
    for shuffle in range(4):
        order = list(deck)
        moved = [deck[i] for i in others]
        random.Random(shuffle).shuffle(moved)
        for i, card in zip(others, moved, strict=True):
            order[i] = card
        hand = Hand.start(rules, [3000] * 4, dealer, deck=order)
        assert json_view(hand, seat)["hand"] == json_view(base, seat)["hand"]
        player = make_player(level, 5)
        view, legal, events = hand.seat_view(seat), hand.legal_actions(), hand.events_for(seat)
        decisions.add(str(player.choose(view, legal, events)))
    assert len(decisions) == 1


def test_random_player_bets_within_range() -> None:
    rules = Rules(players=4)
    player = RandomPlayer(3)
    seen = set()
    for seed in range(40):
        hand = Hand.start(rules, [3000] * 4, 0, seed=seed)
        while hand.to_act is not None and hand.phase in ("small_point", "big_point"):
            seat = hand.to_act
            view, legal = hand.seat_view(seat), hand.legal_actions()
            action = player.choose(view, legal, hand.events_for(seat))
            if action_kind(action) in ("bet", "raise"):
                low, high = hand.bet_range(seat)
                assert low <= amount_of(action) <= high
                seen.add(amount_of(action))
            hand.act(seat, action)
    assert len(seen) > 5, "amounts should vary over the range"


def test_make_player_levels() -> None:
    for level in LEVELS:
        player = make_player(level, 1)
        assert isinstance(player, CpuPlayer)
    assert isinstance(make_player("hard"), ThinkingPlayer)
    with pytest.raises(ValueError, match="unknown CPU level"):
        make_player("grandmaster")
