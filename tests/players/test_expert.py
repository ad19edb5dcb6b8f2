"""The expert CPU level (issue 37): it decides from its seat's view only (hypothesis: hiding the
other seats' cards differently never changes its move), its moves are legal, the same seed and
view give the same move, and its searches are bounded by counts."""

from __future__ import annotations

import random

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bot.engine import Rules
from bot.engine.cards import Card
from bot.engine.events import Senza
from bot.engine.hand import Hand
from bot.players import make_player
from bot.players.bet_search import Responder, Round, move_values
from bot.players.estimate import Opponent, Sample
from bot.players.evidence import Lacks, deal_hidden, read_lacks
from bot.players.expert import ExpertPlayer
from bot.players.knowledge import rank_of, read_view
from bot.players.match import duel_scores, play_hand
from tests.engine.behaviour_hash import view as json_view


def _played_to(seed: int, players: int, stop: int) -> Hand:
    """A hand of easy players stopped after `stop` decisions (or at its last decision)."""
    rules = Rules(players=players)
    cpus = [make_player("easy", seed + s) for s in range(players)]
    hand = Hand.start(rules, [2000] * players, seed % players, seed=seed)
    for _ in range(stop):
        seat = hand.to_act
        assert seat is not None
        view = hand.seat_view(seat)
        action = cpus[seat].choose(view, view.legal, hand.events_for(seat))
        before = Hand.replay(rules, hand.start_chips, hand.dealer, hand.deck, hand.actions)
        before.act(seat, action)
        if before.to_act is None:
            break
        hand.act(seat, action)
    return hand


def _visible(hand: Hand, seat: int) -> set[Card]:
    """The cards `seat` may see: its own, every point shown, every card played."""
    seen = set(hand.cards(seat)) | {c for p in hand.shown for c in p.cards}
    if hand.stoppa is not None:
        seen |= {c for play in hand.stoppa.table for c in play}
    return seen


def _hidden_moved(hand: Hand, seat: int, rng: random.Random) -> Hand | None:
    """The same hand on a deck where the cards `seat` cannot see lie elsewhere (in the stoppa,
    only between cards of one rank), replayed with the same actions; None if that replay is
    not possible."""
    deck = list(hand.deck)
    seen = _visible(hand, seat)
    hidden = [i for i, c in enumerate(deck) if c not in seen]
    groups: dict[int, list[int]] = {}
    for i in hidden:
        groups.setdefault(deck[i].rank if hand.phase == "stoppa" else 0, []).append(i)
    for positions in groups.values():
        cards = [deck[i] for i in positions]
        rng.shuffle(cards)
        for i, card in zip(positions, cards, strict=True):
            deck[i] = card
    try:
        return Hand.replay(hand.rules, hand.start_chips, hand.dealer, deck, hand.actions)
    except Exception:  # an action the other cards do not allow: not the same situation
        return None


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(3, 6), stop=st.integers(0, 60),
       shuffle=st.integers(0, 10**6))
def test_the_expert_moves_legally_and_only_on_what_its_seat_sees(
    seed: int, players: int, stop: int, shuffle: int
) -> None:
    hand = _played_to(seed, players, stop)
    seat = hand.to_act
    assert seat is not None
    other = _hidden_moved(hand, seat, random.Random(shuffle))
    assume(other is not None and other.to_act == seat)
    assert other is not None
    same_view = json_view(other, seat) == json_view(hand, seat)
    same_events = [e.to_dict() for e in other.events_for(seat)] == [
        e.to_dict() for e in hand.events_for(seat)
    ]
    assume(same_view and same_events)
    moves = []
    for h in (hand, other):
        player = ExpertPlayer(seed=seed, budget=0.2)
        view = h.seat_view(seat)
        know = read_view(view)
        assert {c for c in know.mine} == {c.index for c in h.cards(seat)}
        assert not set(know.unseen()) & {c.index for c in _visible(h, seat)}
        move = player.choose(view, view.legal, h.events_for(seat))
        assert h.can(seat, move), move
        moves.append(str(move))
    assert moves[0] == moves[1]


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(3, 6), stop=st.integers(0, 60))
def test_the_same_seed_and_view_give_the_same_move(seed: int, players: int, stop: int) -> None:
    hand = _played_to(seed, players, stop)
    seat = hand.to_act
    assert seat is not None
    view, events = hand.seat_view(seat), hand.events_for(seat)
    first = ExpertPlayer(seed=seed, budget=0.2)
    second = ExpertPlayer(seed=seed, budget=0.2)
    assert first.choose(view, view.legal, events) == second.choose(view, view.legal, events)
    assert first.last.values == second.last.values and first.last.gains == second.last.gains


def test_whole_hands_of_experts_are_legal_and_replay_identically() -> None:
    """`play_hand` applies every move through the engine (an illegal one raises)."""
    played = []
    for players in (3, 4, 6):
        def run(players: int = players) -> list[tuple[int, str]]:
            cpus = [ExpertPlayer(seed=10 + s, budget=0.3) for s in range(players)]
            return play_hand(Rules(players=players), cpus, 1, seed=players).actions

        first = run()
        assert first == run()
        played += [text for _, text in first if text.startswith("play")]
    assert played, "no stoppa opening was searched"


def test_the_budget_is_a_count_of_samples() -> None:
    hand = Hand.start(Rules(players=4), [2000] * 4, 0, seed=3)
    seat = hand.to_act
    assert seat is not None
    view = hand.seat_view(seat)
    for budget, samples in ((0.1, 40), (1.0, 400)):
        player = ExpertPlayer(seed=1, budget=budget)
        player.choose(view, view.legal, hand.events_for(seat))
        assert player.last.samples == samples and not player.last.cut


def test_R12_a_senza_means_the_seat_holds_none_of_that_rank() -> None:
    """Dealing the hidden cards keeps what the stoppa told: no X to a seat that said senza X."""
    for seed in range(40):
        hand = Hand.start(Rules(players=4), [2000] * 4, 0, seed=seed)
        cpus = [make_player("easy", s) for s in range(4)]
        while hand.to_act is not None and not any(
            isinstance(e, Senza) for e in hand.public_events()
        ):
            seat = hand.to_act
            view = hand.seat_view(seat)
            hand.act(seat, cpus[seat].choose(view, view.legal, hand.events_for(seat)))
        if hand.to_act is None:
            continue
        seat = hand.to_act
        lacks = read_lacks(hand.events_for(seat), seat)
        assert lacks.ranks
        for s, ranks in lacks.ranks.items():  # true of the real hands
            assert not {c.rank for c in hand.cards(s)} & ranks
        know = read_view(hand.seat_view(seat))
        rng = random.Random(seed)
        for _ in range(20):
            hands = deal_hidden(know, lacks, rng)
            assert [sum(h) for h in hands] == know.counts
            for s, ranks in lacks.ranks.items():
                assert not any(hands[s][r] for r in ranks)
        return
    raise AssertionError("no senza in 40 hands")


def test_deal_hidden_fills_each_hand_to_its_count() -> None:
    """Before the stoppa some cards are not dealt yet: each hand gets its count, no more."""
    hand = Hand.start(Rules(players=5), [2000] * 5, 2, seed=8)
    know = read_view(hand.seat_view(hand.to_act or 0))
    hands = deal_hidden(know, Lacks(), random.Random(1))
    assert [sum(h) for h in hands] == know.counts
    held = [rank_of(c) for c in know.deck]
    assert all(sum(h[r] for h in hands) <= held.count(r) for r in range(11))


def test_R8_bet_search_values() -> None:
    """Passing is worth 0; a bet nobody can call wins the pot; a sure loser loses its cost."""
    opponent = Opponent(seat=1, size=3, bet=0, committed=False)
    spot = Round(pot=40, my_bet=0, my_chips=500, level=0, cip=10, max_bet=200,
                 opponents=[opponent])
    weak = [Sample(1.0, [True], [0.1], [(1, 10)])]
    strong = [Sample(1.0, [False], [0.99], [(3, 55)])]
    assert move_values(spot, weak, [10], Responder())[10] == 40.0  # it folds: the pot
    # it raises; the seat folds to the raise (the better answer): it loses its bet
    assert move_values(spot, strong, [10], Responder())[10] == -10.0


def test_a_short_expert_duel_runs_at_six_players() -> None:
    scores = duel_scores("expert", "easy", 1, seed=4, players=6)
    assert len(scores) == 1


