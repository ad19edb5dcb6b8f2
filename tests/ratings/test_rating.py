"""The rating value type, its shown points, trends and seasons."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.i18n import SUPPORTED, t
from bot.ratings import (
    PROVISIONAL_HANDS,
    RankedError,
    Rating,
    SeasonRecord,
    new_season,
    points_of,
    standings,
    trend,
)


def test_a_newcomer_shows_1000_provisional_points() -> None:
    fresh = Rating()
    assert fresh.ordinal == pytest.approx(0)
    assert fresh.points == 1000
    assert fresh.provisional
    assert not Rating(hands=PROVISIONAL_HANDS).provisional
    assert Rating(hands=PROVISIONAL_HANDS - 1).provisional


def test_points_scale_one_beta_to_200_and_never_below_zero() -> None:
    assert points_of(25 + 25 / 6, 25 / 3) - points_of(25, 25 / 3) == 200
    assert points_of(30, 1.5) == round(1000 + 48 * 25.5)
    assert points_of(0, 8) == 0


@given(
    st.floats(min_value=-100, max_value=100, allow_nan=False),
    st.floats(min_value=0.01, max_value=20, allow_nan=False),
    st.integers(min_value=0, max_value=10**6),
)
def test_rating_round_trips_through_json(mu: float, sigma: float, hands: int) -> None:
    r = Rating(mu, sigma, hands)
    assert Rating.from_dict(json.loads(json.dumps(r.to_dict()))) == r


@pytest.mark.parametrize("bad", [{"sigma": 0}, {"sigma": -1}, {"hands": -1}, {"hands": True}])
def test_bad_ratings_are_refused(bad: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        Rating(**bad)  # type: ignore[arg-type]


def test_trend_over_the_last_hands() -> None:
    history = [1000, 1010, 1030, 1025, 1100]
    assert trend(history, 2) == 1100 - 1030
    assert trend(history, 10) == 100  # fewer hands than asked: from the oldest
    assert trend([1000]) == 0
    assert trend([]) == 0
    with pytest.raises(ValueError):
        trend(history, 0)


def test_standings_share_places_between_equal_points() -> None:
    strong = Rating(35, 2, 40)
    table = {"a": Rating(30, 2, 40), "b": strong, "c": strong, "d": Rating(20, 3, 5),
             "e": Rating()}
    won = {"b": 10, "c": 500, "d": -20}
    rows = standings(table, won)
    assert [(s.place, s.key) for s in rows] == [(1, "c"), (1, "b"), (3, "a"), (4, "d")]
    assert rows[3].provisional and not rows[0].provisional
    assert rows[0].winnings == 500
    assert [s.key for s in standings(table, won, min_hands=0)][-1] == "e"


def test_new_season_freezes_standings_and_starts_afresh() -> None:
    table = {"a": Rating(30, 2, 40), "b": Rating(20, 2, 40)}
    change = new_season("Autumn", "  Winter   2026 ", table, {"a": 300, "b": -300},
                        taken=["Summer"])
    assert change.name == "Winter 2026"
    assert change.record.name == "Autumn"
    assert [s.key for s in change.record.standings] == ["a", "b"]
    assert change.ratings == {"a": Rating(), "b": Rating()}
    assert change.winnings == {"a": 0, "b": 0}
    record = json.loads(json.dumps(change.record.to_dict()))
    assert SeasonRecord.from_dict(record) == change.record


@pytest.mark.parametrize(
    ("name", "key"),
    [("   ", "ranked.season_name_empty"), ("x" * 33, "ranked.season_name_long"),
     ("summer", "ranked.season_name_taken"), ("autumn", "ranked.season_name_taken")],
)
def test_bad_season_names_are_refused_politely(name: str, key: str) -> None:
    with pytest.raises(RankedError) as err:
        new_season("Autumn", name, {}, {}, taken=["Summer"])
    assert err.value.key == key
    for lang in SUPPORTED:
        text = t(err.value.key, lang, **err.value.params)
        assert text != err.value.key and "{" not in text
