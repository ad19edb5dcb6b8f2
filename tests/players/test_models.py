"""The players' models agree with the engine: decks, points, the stoppa (R-2, R-7, R-12)."""

from __future__ import annotations

import ast
import logging
import random
from dataclasses import replace
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import ALL_CARDS, Action, Rules, SeatView, best_point, build_deck
from bot.engine.events import (
    BetMade,
    Called,
    Dealt,
    Declared,
    Event,
    ShowdownBegan,
    SmallPointBegan,
)
from bot.engine.hand import Hand
from bot.engine.stoppa import Stoppa
from bot.players import make_player
from bot.players.hard import HARD, HardPlayer
from bot.players.knowledge import card_code, card_id, point_key, read_view, used_deck
from bot.players.reading import BetReading
from bot.players.shedding import Shedding, counts_of

PLAYERS_DIR = Path(__file__).resolve().parents[2] / "bot" / "players"


def test_R2_used_deck_matches_the_engine() -> None:
    for players in (3, 4, 5, 6):
        for three in ("king", "suit"):
            for suit in "cdsb":
                for six in ("kings", "knights", "jacks"):
                    rules = Rules(
                        players=players, three_players=three, removed_suit=suit, six_players=six
                    )
                    mine = [card_code(c) for c in used_deck(rules)]
                    assert mine == [c.code for c in build_deck(players, three, suit, six)]


def test_card_ids_round_trip() -> None:
    for card in ALL_CARDS:
        assert card_id(card.code) == card.index and card_code(card.index) == card.code


@settings(max_examples=300, deadline=None)
@given(
    cards=st.lists(st.sampled_from(ALL_CARDS), min_size=1, max_size=13, unique=True),
    ranking=st.sampled_from(["count", "total"]),
)
def test_R7_point_key_matches_best_point(cards, ranking) -> None:
    engine = best_point(cards, ranking=ranking).key(ranking)
    assert point_key([c.index for c in cards], ranking == "total") == engine


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.sampled_from([3, 4, 5, 6]),
    three=st.sampled_from(["king", "suit"]),
    jump=st.booleans(),
)
def test_R12_shedding_model_plays_exactly_like_the_engine(seed, players, three, jump) -> None:
    rng = random.Random(seed)
    rules = Rules(players=players, three_players=three, three_aces_jump=jump)
    deck = rules.deck()
    rng.shuffle(deck)
    n = len(deck) // players
    hands = [deck[i * n : (i + 1) * n] for i in range(players)]
    first = rng.randrange(players)
    stoppa = Stoppa.from_hands(hands, first, rules)
    openings = []
    while not stoppa.over:
        play = rng.choice(stoppa.legal_plays())
        openings.append(play.cards[0].rank)
        stoppa.act(stoppa.to_act, play)
    chosen = iter(openings)

    def replay(seat, counts, total):
        held = [r for r in range(1, 11) if counts[seat][r]]
        return held[0] if len(held) == 1 else next(chosen)

    model = Shedding(
        [counts_of([c.rank for c in h]) for h in hands], list(rules.rank_counts()), jump
    )
    assert model.play_out(first, replay) == stoppa.winner
    assert model.sizes == [stoppa.card_count(s) for s in range(players)]


def test_knowledge_of_a_view_keeps_hidden_cards_unseen() -> None:
    hand = Hand.start(Rules(players=4), [1000] * 4, 0, seed=9)
    seat = hand.to_act
    know = read_view(hand.seat_view(seat))
    assert sorted(card_code(c) for c in know.mine) == sorted(c.code for c in hand.cards(seat))
    unseen = {card_code(c) for c in know.unseen()}
    assert len(unseen) == 40 - len(know.mine)
    for other in range(4):
        if other != seat:
            assert {c.code for c in hand.cards(other)} <= unseen


def _stoppa_decision(seed: int) -> tuple[SeatView, list[Action]]:
    """A view and legal plays where a hard player must open the stoppa with several ranks."""
    rules = Rules(players=4)
    players = [make_player("easy", i) for i in range(4)]
    for s in range(seed, seed + 50):
        hand = Hand.start(rules, [3000] * 4, s % 4, seed=s)
        while hand.to_act is not None:
            seat = hand.to_act
            if hand.phase == "stoppa" and len(hand.legal_actions()) >= 3:
                return hand.seat_view(seat), hand.legal_actions()
            hand.act(seat, players[seat].choose(
                hand.seat_view(seat), hand.legal_actions(), hand.events_for(seat)
            ))
    raise AssertionError("no stoppa decision found")


def test_hard_stoppa_search_is_bounded_by_samples_and_nodes_not_time() -> None:
    view, legal = _stoppa_decision(1)
    capped = HardPlayer(1)
    capped.style = replace(HARD, stoppa_samples=50, stoppa_nodes=10**9)
    capped.choose(view, legal)
    assert capped.last.stoppa_samples == 50  # the sample cap binds
    assert not capped.last.cut
    budget = 2_000
    runs = []
    for _ in range(2):
        node_bound = HardPlayer(1)
        node_bound.style = replace(HARD, stoppa_samples=10_000, stoppa_nodes=budget)
        action = node_bound.choose(view, legal)
        assert action in legal
        runs.append((str(action), node_bound.last))
    last = runs[0][1]
    samples, nodes = last.stoppa_samples, last.nodes
    assert 1 < samples < 10_000 and not last.cut
    # the search stops at the first sample boundary past the node budget
    per_sample = nodes / samples
    assert budget <= nodes < budget + 2 * per_sample
    # same seed, same view: the same samples, nodes, gains and choice (no clock involved)
    for _, figures in runs:
        figures.seconds = 0.0
    assert runs[0] == runs[1]


def test_hard_safety_net_cuts_the_stoppa_search_and_logs_it(caplog) -> None:
    view, legal = _stoppa_decision(1)
    rushed = HardPlayer(1)
    rushed.style = replace(HARD, safety=0.0, stoppa_samples=10_000, stoppa_nodes=10**9)
    with caplog.at_level(logging.DEBUG, logger="bot.players.strategy"):
        action = rushed.choose(view, legal)
    assert rushed.last.stoppa_samples == 1 and rushed.last.cut  # one sample, then stop
    assert action in legal
    assert "safety net" in caplog.text


def test_hard_betting_estimate_is_bounded_by_its_sample_count() -> None:
    hand = Hand.start(Rules(players=4), [3000] * 4, 0, seed=4)
    view, legal = hand.seat_view(hand.to_act), hand.legal_actions()
    counted = HardPlayer(2)
    counted.style = replace(HARD, samples=64)
    counted.choose(view, legal)
    assert counted.last.samples == 64 and not counted.last.cut
    rushed = HardPlayer(2)
    rushed.style = replace(HARD, safety=0.0, samples=100_000)
    rushed.choose(view, legal)
    assert rushed.last.samples < 100 and rushed.last.cut


def test_players_do_not_import_the_hand_or_the_stoppa_state() -> None:
    """The decision code cannot reach a Hand or the stoppa's state: it may import the engine's
    value types and views (cards, points, actions, views), never `bot.engine.hand`,
    `bot.engine.stoppa` or the `Hand` name. Only `match.py` (the offline driver) imports it."""
    forbidden = ("bot.engine.hand", "bot.engine.stoppa")
    for path in sorted(PLAYERS_DIR.glob("*.py")):
        if path.name == "match.py":
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    assert not alias.name.startswith(forbidden), f"{path.name}: {alias.name}"
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith(forbidden), f"{path.name}: {node.module}"
                assert "tables" not in node.module, f"{path.name}: {node.module}"
                names = {alias.name for alias in node.names}
                assert not names & {"Hand", "Stoppa"}, f"{path.name}: {names}"
            if isinstance(node, ast.Name | ast.Attribute):
                name = node.id if isinstance(node, ast.Name) else node.attr
                assert name not in ("Hand", "Stoppa"), f"{path.name}: {name}"


def _showdown_events(bettor: int, shown: list[str]) -> list[Event]:
    return [
        Dealt(0, ("2c", "3d", "4s"), 0),
        SmallPointBegan(None, 0, 3),
        BetMade(bettor, 50, 50),
        Called(0, 50, 50),
        ShowdownBegan(None, "small", 0, (bettor, 0)),
        Declared(bettor, tuple(shown), 0, 1),
    ]


def test_R8_bet_reading_learns_what_bets_mean_from_showdowns() -> None:
    hand = Hand.start(Rules(players=4), [1000] * 4, 3, seed=1)
    know = read_view(hand.seat_view(0))
    weak, strong = BetReading(), BetReading()
    start = weak.factor
    for i in range(30):
        low = [f"{2 + i % 3}{'cdsb'[i % 4]}"]  # one low card: a very weak point
        high = [f"7{'cdsb'[i % 4]}", f"6{'cdsb'[i % 4]}", f"1{'cdsb'[i % 4]}"]  # 55
        weak.observe(_showdown_events(1 + i % 3, low), know)
        strong.observe(_showdown_events(1 + i % 3, high), know)
    assert weak.factor < start < strong.factor
    assert weak.factor == 0.0
    count = strong.count
    strong.observe(_showdown_events(1, ["7c", "6c", "1c"]), know)  # already seen: not again
    assert strong.count == count
