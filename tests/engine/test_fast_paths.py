"""The engine's speed work keeps its behaviour: shuffles, events, points, records (R-3, R-7, R-9).

These tests compare the fast paths with plain reference code (the standard library shuffle,
brute-force points) and load hand records saved by the engine before the speed work.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from itertools import combinations, pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import (
    ALL_CARDS,
    Bet,
    Call,
    Card,
    Concede,
    Declare,
    Event,
    Hand,
    IllegalAction,
    Raise,
    Rules,
    Stoppa,
    best_point,
    declarable_points,
    parse_cards,
)
from bot.engine.cards import PRIMIERA, SUITS
from bot.engine.events import Dealt, Played, Senza
from bot.engine.points import Point
from bot.shuffle import fast_shuffle as _fast_shuffle

from .util import start

OLD_HANDS = json.loads((Path(__file__).parent / "data" / "old_hands.json").read_text())


@pytest.mark.parametrize("size", [30, 36, 39, 40, 7])
def test_R3_fast_shuffle_is_the_standard_shuffle(size: int) -> None:
    for seed in range(300):
        a, b = list(range(size)), list(range(size))
        random.Random(seed).shuffle(a)
        _fast_shuffle(random.Random(seed), b)
        assert a == b, seed


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_R3_seeded_deck_is_random_Random_seed_shuffle(players: int) -> None:
    rules = Rules(players=players)
    for seed in (0, 1, 99, 2**33 + 5):
        expected = rules.deck()
        random.Random(seed).shuffle(expected)
        assert Hand.start(rules, [1000] * players, 0, seed=seed).deck == expected


def test_event_fields_equality_and_round_trips() -> None:
    e = Played(2, ("5c",), True)
    assert (e.kind, e.seat, e.cards, e.forced) == ("play", 2, ("5c",), True)
    assert e.to_dict() == {"kind": "play", "seat": 2, "data": {"cards": ["5c"], "forced": True}}
    assert Event.from_dict(e.to_dict()) == e
    assert Event.from_dict(json.loads(json.dumps(e.to_dict()))) == e
    assert e != Played(1, ("5c",), True) and e != Played(2, ("5c",), False)
    assert e != Senza(2, 5) and Senza(2, 5) == Senza(2, 5)
    assert pickle.loads(pickle.dumps(e)) == e
    assert copy.deepcopy(e) == e
    assert repr(e) == "Played(seat=2, cards=('5c',), forced=True)"
    with pytest.raises(TypeError):
        hash(e)  # compared by value, like the dicts they were
    deal = Dealt(1, ("7d",), 0)
    assert deal.private and deal.visible_to(1)
    assert not deal.visible_to(0) and not deal.visible_to(None)
    assert not e.private and e.visible_to(None)
    with pytest.raises(ValueError):
        Event.from_dict({"kind": "shuffle", "seat": None, "data": {}})


def test_events_of_a_hand_survive_to_dict() -> None:
    h = Hand.start(Rules(), [1000] * 4, 0, seed=4)
    while h.to_act is not None:
        h.act(h.to_act, h.legal_actions()[-1])
    evs = h.events
    assert [Event.from_dict(e.to_dict()) for e in evs] == evs
    assert all(type(e) is not Event and isinstance(e, Event) for e in evs)


def _reference_best(cards: list[Card], limit: int, ranking: str) -> Point | None:
    """Brute force: every 1..limit same-suit combination, best by R-7, ties as documented."""
    best, best_key = None, None
    for s_i, s in enumerate(SUITS):
        group = sorted({c for c in cards if c.suit == s}, key=lambda c: (-c.primiera, -c.rank))
        for n in range(1, limit + 1):
            for combo in combinations(group, n):
                total = sum(PRIMIERA[c.rank] for c in combo)
                k = (total, n) if ranking == "total" else (n, total)
                key = (k, -s_i, [-c.primiera for c in combo], [c.rank for c in combo])
                if best_key is None or key > best_key:
                    best, best_key = Point(n, total, s, combo), key
    return best


@settings(max_examples=400, deadline=None)
@given(
    idx=st.lists(st.integers(0, 39), min_size=1, max_size=14),
    limit=st.sampled_from([1, 2, 3]),
    ranking=st.sampled_from(["count", "total"]),
    as_tuple=st.booleans(),
)
def test_R7_best_point_matches_brute_force(
    idx: list[int], limit: int, ranking: str, as_tuple: bool
) -> None:
    cards = [ALL_CARDS[i] for i in idx]  # repeated cards allowed: they count once
    ref = _reference_best(cards, limit, ranking)
    assert ref is not None
    for given_cards in (tuple(cards) if as_tuple else cards, iter(cards)):
        p = best_point(given_cards, limit, ranking)
        assert (p.count, p.total, p.suit) == (ref.count, ref.total, ref.suit)
        assert sorted(p.cards) == sorted(ref.cards)


@settings(max_examples=300, deadline=None)
@given(
    idx=st.sets(st.integers(0, 39), min_size=1, max_size=13),
    ranking=st.sampled_from(["count", "total"]),
)
def test_R9_declarable_points_are_every_point_best_first(idx: set[int], ranking: str) -> None:
    cards = [ALL_CARDS[i] for i in idx]
    got = declarable_points(cards, ranking)
    expected = {
        frozenset(combo)
        for s in SUITS
        for n in (1, 2, 3)
        for combo in combinations([c for c in cards if c.suit == s], n)
    }
    assert {frozenset(p.cards) for p in got} == expected
    assert len(got) == len(expected)
    keys = [p.key(ranking) for p in got]
    assert keys == sorted(keys, reverse=True)
    for a, b in pairwise(got):
        if a.key(ranking) == b.key(ranking):  # equal points: suit order c d s b
            assert SUITS.index(a.suit) <= SUITS.index(b.suit)


def test_legal_actions_are_fresh_lists() -> None:
    """Callers may mutate what legal_actions() returns; the hand's own choices stay intact."""
    seen = set()
    for seed in range(20):
        h = Hand.start(Rules(), [1000] * 4, seed % 4, seed=seed)
        while h.to_act is not None:
            acts = h.legal_actions()
            again = list(acts)
            acts.clear()
            assert h.legal_actions() == again
            seen.add(h.phase)
            a = again[0] if h.phase != "small_point" else again[-1]
            if isinstance(a, Bet | Raise):
                lo, _ = h.bet_range(h.to_act)  # type: ignore[misc]
                a = Bet(lo) if isinstance(a, Bet) else Raise(lo)
            h.act(h.to_act, a)
    assert {"small_point", "big_point", "showdown", "stoppa"} <= seen


@pytest.mark.parametrize("name", sorted(OLD_HANDS))
def test_records_saved_before_the_speed_work_still_load(name: str) -> None:
    """Records written by the engine of session 1 load, match and play on (R-15)."""
    old = OLD_HANDS[name]
    h = Hand.from_json(old["record"])
    assert h.to_json() == old["record"]
    assert [str(a) for a in h.legal_actions()] == old["legal"]
    assert [e.kind for e in h.events] == old["kinds"]
    while h.to_act is not None:
        h.act(h.to_act, h.default_action(h.to_act))
    assert h.phase == "over" and h.result is not None
    assert sum(h.result) == h.carry_in - h.carry_out


# --- the fast paths of act(): the same refusals as check() ----------------------------------


def _at_first_showdown(first_deal: dict[int, str]) -> Hand:
    """A 4-player hand at the showdown of the first small point: seat 0 bet, all called."""
    h = start(Rules(), first_deal)
    h.act(0, Bet(10))
    while h.phase != "showdown":
        h.act(h.to_act, Call())  # type: ignore[arg-type]
    return h


def test_R9_a_listed_declaration_is_refused_to_a_seat_without_those_cards() -> None:
    h = _at_first_showdown({0: "7d 6d 1d 2c 3c 4c 5s 4s 3s 8b", 1: "7c 6c 1c 2d 3d 4d 5b 4b 3b 8s"})
    assert h.to_act == 0
    listed = [a for a in h.legal_actions() if isinstance(a, Declare)]
    mine = listed[0]  # shared object: the fast path knows its cards by its identity
    assert [str(c) for c in mine.cards] == ["7d", "6d", "1d"]
    h.act(0, Declare(parse_cards("6d")))  # seat 0 shows a lower point; seat 1 is next
    assert h.to_act == 1
    before = h.to_json()
    with pytest.raises(IllegalAction) as err:
        h.act(1, mine)
    assert err.value.code == "card_not_held"
    assert h.to_json() == before
    assert not h.can(1, mine)


def test_R9_a_listed_declaration_of_an_earlier_deal_is_not_eligible() -> None:
    h = _at_first_showdown({0: "7d 6d 1d 2c 3c 4c 5s 4s 3s 8b"})
    best = next(a for a in h.legal_actions() if isinstance(a, Declare))
    assert [str(c) for c in best.cards] == ["7d", "6d", "1d"]
    h.act(0, best)
    while h.phase == "showdown":
        h.act(h.to_act, Concede())  # type: ignore[arg-type]
    assert h.deal_no == 1  # 2c 3c 4c dealt now; 7d 6d 1d are held but belong to deal 0
    h.act(0, Bet(10))
    while h.phase != "showdown":
        h.act(h.to_act, Call())  # type: ignore[arg-type]
    before = h.to_json()
    with pytest.raises(IllegalAction) as err:
        h.act(0, best)
    assert err.value.code == "card_not_eligible"
    assert h.to_json() == before


@pytest.mark.parametrize("amount", [9, 10.0, 201, True])
def test_R8_bet_amounts_out_of_range_or_not_whole_are_refused(amount: object) -> None:
    h = Hand.start(Rules(), [1000] * 4, 3, seed=1)
    before = h.to_json()
    with pytest.raises(IllegalAction) as err:
        h.act(0, Bet(amount))  # type: ignore[arg-type]
    assert err.value.code in ("bet_too_small", "bet_too_large")
    assert h.to_json() == before


def test_R8_a_subclass_of_an_action_acts_as_its_base() -> None:
    class MyRaise(Raise):
        pass

    h = Hand.start(Rules(), [1000] * 4, 3, seed=1)
    h.act(0, Bet(10))
    events = h.act(1, MyRaise(30))
    assert [(e.kind, e.seat, e.data()["level"]) for e in events][:1] == [("raise", 1, 30)]
    assert h.to_act == 2


def test_R12_from_hands_refuses_a_card_held_twice() -> None:
    with pytest.raises(ValueError, match="held twice"):
        Stoppa.from_hands([parse_cards("1c 2c"), parse_cards("2c 3d"), parse_cards("4d")], 0)


def test_prepare_builds_every_small_point_declaration_ahead() -> None:
    from bot.engine import prepare
    from bot.engine.showdown import _SMALL_DECLARES
    from bot.engine.showdown import compute_declarations as _declares_of

    prepare()
    for ranking in ("count", "total"):
        table = _SMALL_DECLARES[ranking]
        assert len(table) == 1 + 40 + 780 + 9880  # every set of at most 3 of the 40 cards
        rng = random.Random(ranking)
        for mask in rng.sample(sorted(table), 200):
            assert list(table[mask]) == _declares_of(mask, ranking)
