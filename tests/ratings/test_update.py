"""Rating updates after a hand: skill rises with results, CPUs never move a human."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.ratings import Rating, Seat, ranks_of, rate_hand

ratings = st.builds(
    Rating,
    mu=st.floats(min_value=0, max_value=50, allow_nan=False),
    sigma=st.floats(min_value=0.5, max_value=9, allow_nan=False),
    hands=st.integers(min_value=0, max_value=500),
)
nets = st.integers(min_value=-5_000, max_value=5_000)


def test_ranks_of_shares_ranks_between_equal_nets() -> None:
    assert ranks_of([100, -40, -40, -20]) == [1, 3, 3, 2]
    assert ranks_of([0, 0, 0]) == [1, 1, 1]


def test_winners_rise_above_losers_over_100_scripted_hands() -> None:
    """Two players who always win and two who always lose, at 4-player tables mixed with two
    others whose results are random: after 100 hands every winner is rated above every loser."""
    keys = ["win1", "win2", "lose1", "lose2", "mid1", "mid2"]
    table: dict[str, Rating] = {k: Rating() for k in keys}
    rng = random.Random(21)
    tables = list(itertools.combinations(keys, 4))
    for hand in range(100):
        seated = tables[hand % len(tables)]
        seats = []
        for key in seated:
            if key.startswith("win"):
                net = 300 + rng.randrange(100)
            elif key.startswith("lose"):
                net = -300 - rng.randrange(100)
            else:
                net = rng.randrange(-200, 200)
            seats.append(Seat(key, True, table[key], net))
        table.update(rate_hand(seats))
    lowest_winner = min(table["win1"].points, table["win2"].points)
    highest_loser = max(table["lose1"].points, table["lose2"].points)
    assert lowest_winner > highest_loser
    assert min(table["win1"].mu, table["win2"].mu) > max(table["lose1"].mu, table["lose2"].mu)
    assert all(not table[k].provisional for k in ("win1", "win2", "lose1", "lose2"))


def test_a_hand_counts_and_moves_ratings_by_rank() -> None:
    seats = [Seat(k, True, Rating(), n) for k, n in zip("abcd", [120, 0, -40, -80], strict=True)]
    new = rate_hand(seats)
    assert new["a"].mu > new["b"].mu > new["c"].mu > new["d"].mu
    assert all(r.hands == 1 for r in new.values())
    assert all(r.sigma < Rating().sigma for r in new.values())


def test_equal_nets_tie() -> None:
    seats = [Seat(k, True, Rating(), n) for k, n in zip("abc", [50, -25, -25], strict=True)]
    new = rate_hand(seats)
    assert new["b"] == new["c"]
    assert new["a"].mu > new["b"].mu


def test_a_player_below_tied_winners_gains_less_than_they_do() -> None:
    """Two tied winners, then a third, then a fourth (openskill 6.2's Plackett-Luce gives the
    third the winners' update: the reason its Bradley-Terry model is used)."""
    seats = [Seat(k, True, Rating(), n) for k, n in zip("abcd", [0, 90, 90, -180], strict=True)]
    new = rate_hand(seats)
    assert new["b"].mu == pytest.approx(new["c"].mu)
    assert new["b"].mu > new["a"].mu > new["d"].mu


@given(
    humans=st.lists(st.tuples(ratings, nets), min_size=0, max_size=4),
    cpus_a=st.lists(st.tuples(ratings, nets), min_size=0, max_size=6),
    cpus_b=st.lists(st.tuples(ratings, nets), min_size=0, max_size=6),
)
def test_cpu_results_never_move_a_human_rating(
    humans: list[tuple[Rating, int]],
    cpus_a: list[tuple[Rating, int]],
    cpus_b: list[tuple[Rating, int]],
) -> None:
    """The same humans with the same nets get the same ratings whatever the CPUs at the
    table did, whatever their ratings, and however many they were."""
    human_seats = [Seat(f"h{i}", True, r, n) for i, (r, n) in enumerate(humans)]

    def table(cpus: list[tuple[Rating, int]]) -> list[Seat]:
        cpu_seats = [Seat(f"cpu{i % 2}", False, r, n) for i, (r, n) in enumerate(cpus)]
        seats = human_seats + cpu_seats
        while len(seats) < 3:  # a hand has 3 to 6 players
            seats.append(Seat("cpu_fill", False, Rating(), 0))
        return seats[:6]  # the humans come first: only CPU seats are cut

    def human_part(new: dict[str, Rating]) -> dict[str, Rating]:
        return {k: v for k, v in new.items() if k.startswith("h")}

    assert human_part(rate_hand(table(cpus_a))) == human_part(rate_hand(table(cpus_b)))


def test_cpus_are_rated_against_everyone_and_humans_held_fixed() -> None:
    seats = [
        Seat("alice", True, Rating(), -100),
        Seat("bob", True, Rating(), -50),
        Seat("cpu:hard", False, Rating(), 150),
        Seat("cpu:easy", False, Rating(), 0),
    ]
    new = rate_hand(seats)
    assert new["cpu:hard"].mu > Rating().mu
    assert new["cpu:hard"].hands == 1
    # the humans' update is the one of a two-player hand between them alone
    alone = rate_hand([Seat("alice", True, Rating(), -100), Seat("bob", True, Rating(), -50),
                       Seat("cpu:x", False, Rating(), 0)])
    assert (new["alice"], new["bob"]) == (alone["alice"], alone["bob"])


def test_two_seats_of_one_cpu_pool_make_one_rated_hand() -> None:
    seats = [
        Seat("alice", True, Rating(), 100),
        Seat("cpu:easy", False, Rating(), -40),
        Seat("cpu:easy", False, Rating(), -60),
    ]
    new = rate_hand(seats)
    assert new["cpu:easy"].hands == 1
    assert new["cpu:easy"].mu < Rating().mu
    assert "alice" not in new  # one human alone is compared with nobody: unrated


@pytest.mark.parametrize(
    "seats",
    [
        [Seat("a", True, Rating(), 0), Seat("b", True, Rating(), 0)],
        [Seat(k, True, Rating(), 0) for k in "abcdefg"],
        [Seat("a", True, Rating(), 0), Seat("a", True, Rating(), 0), Seat("b", True, Rating(), 0)],
        [Seat("a", True, Rating(), 0), Seat("a", False, Rating(), 0), Seat("b", True, Rating(), 0)],
    ],
    ids=["too_few", "too_many", "human_twice", "human_and_cpu_key"],
)
def test_bad_hands_are_refused(seats: list[Seat]) -> None:
    with pytest.raises(ValueError):
        rate_hand(seats)


@given(
    prior=ratings,
    results=st.lists(nets, min_size=3, max_size=6),
)
def test_with_equal_priors_a_better_net_never_ends_lower(prior: Rating, results: list[int]) -> None:
    """Players who start equal end ordered as their nets (ties equal), each one hand more."""
    seats = [Seat(f"h{i}", True, prior, net) for i, net in enumerate(results)]
    new = rate_hand(seats)
    assert set(new) == {s.key for s in seats}
    for a in seats:
        assert new[a.key].hands == prior.hands + 1
        for b in seats:
            if a.net > b.net:
                assert new[a.key].mu > new[b.key].mu
            elif a.net == b.net:
                assert new[a.key].mu == pytest.approx(new[b.key].mu, abs=1e-9)
                assert new[a.key].sigma == pytest.approx(new[b.key].sigma, abs=1e-9)
