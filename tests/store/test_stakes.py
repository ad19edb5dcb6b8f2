"""Stakes and variants per server (R-4, R-2 small points, the named variants)."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.rules import LATER_VARIANTS, Rules
from bot.store import DEFAULT_STAKES, STAKES_CHOICES, InvalidStakes, Stakes, Store, small_points
from bot.store.accounts import stakes_of

from .conftest import GUILD, OTHER_GUILD


def test_R4_defaults_are_those_of_the_rules() -> None:
    assert {k: getattr(DEFAULT_STAKES, k) for k in ("ante", "small_point", "cip", "max_bet")} == {
        "ante": 60,
        "small_point": 10,
        "cip": 10,
        "max_bet": 200,
    }
    assert (DEFAULT_STAKES.card_rate, DEFAULT_STAKES.cards_per_payment) == (10, 1)
    # the engine's Rules field names minus players, with the same defaults
    engine = Rules().to_dict()
    del engine["players"]
    assert engine == DEFAULT_STAKES.to_dict()


def test_R2_small_points_per_player_count() -> None:
    assert [small_points(p) for p in (3, 4, 5, 6)] == [5, 4, 3, 2]
    assert small_points(3, "suit") == 4
    for p in (3, 4, 5, 6):
        for variant in ("king", "suit"):
            assert small_points(p, variant) == len(Rules(players=p, three_players=variant).deals)


async def test_get_and_set_stakes_with_history(store: Store) -> None:
    assert await store.get_stakes(GUILD) == DEFAULT_STAKES
    new = await store.set_stakes(GUILD, {"ante": 100, "unclaimed_big_pot": "carry"}, by=7)
    assert new.to_dict() == {**DEFAULT_STAKES.to_dict(), "ante": 100, "unclaimed_big_pot": "carry"}
    assert await store.get_stakes(GUILD) == new
    assert await store.get_stakes(OTHER_GUILD) == DEFAULT_STAKES
    await store.set_stakes(GUILD, {"ante": 90}, by=8)
    history = await store.stakes_history(GUILD)
    assert [(h.by, h.changes) for h in history] == [
        (8, {"ante": (100, 90)}),
        (7, {"ante": (60, 100), "unclaimed_big_pot": ("dealer", "carry")}),
    ]
    assert history[0].at >= history[1].at > 0
    assert len(await store.stakes_history(GUILD, limit=1)) == 1
    # the returned stakes cannot be changed, so nothing stored changes through them
    with pytest.raises(dataclasses.FrozenInstanceError):
        new.ante = 1  # type: ignore[misc]
    assert (await store.get_stakes(GUILD)).ante == 90


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"antes": 10}, "stakes_unknown_key"),
        ({"players": 4}, "stakes_unknown_key"),
        ({"ante": 0}, "stakes_not_positive"),
        ({"card_rate": -5}, "stakes_not_positive"),
        ({"cip": 2.5}, "stakes_not_integer"),
        ({"cip": "10"}, "stakes_not_integer"),
        ({"max_bet": True}, "stakes_not_integer"),
        ({"ante": 10**12}, "stakes_too_large"),
        ({"max_bet": 5}, "stakes_max_bet_below_cip"),
        ({"cards_per_payment": 4}, "stakes_bad_choice"),
        ({"ranking": "suits"}, "stakes_bad_choice"),
        ({"three_players": "queen"}, "stakes_bad_choice"),
        ({"blocked_stoppa": "five_aces"}, "stakes_bad_choice"),
        ({"removed_suit": "x"}, "stakes_bad_choice"),
        ({"three_aces_jump": 1}, "stakes_bad_choice"),
        # 3 x ante must exceed 5 x small_point (the strictest case, 3 players, 5 deals)
        ({"ante": 50, "small_point": 30}, "stakes_ante_too_small"),
        ({"ante": 16, "small_point": 10}, "stakes_ante_too_small"),
    ],
)
async def test_R4_invalid_stakes_are_refused(store: Store, changes: dict, code: str) -> None:
    with pytest.raises(InvalidStakes) as info:
        await store.set_stakes(GUILD, changes, by=1)
    assert info.value.code == code
    assert str(info.value) == info.value.message("en") != info.value.message("it")
    assert await store.get_stakes(GUILD) == DEFAULT_STAKES
    assert await store.stakes_history(GUILD) == []


def test_R4_ante_boundary_depends_on_three_player_variant() -> None:
    # 3 players, default: 5 small points, so 3 x 17 > 50 passes and 3 x 16 = 48 < 50 fails
    DEFAULT_STAKES.changed({"ante": 17, "small_point": 10})
    with pytest.raises(InvalidStakes) as info:
        DEFAULT_STAKES.changed({"ante": 16, "small_point": 10})
    assert info.value.params == {"players": 3, "ante": 16, "small_points": 5, "small_point": 10}
    # with three_players=suit only 4 small points: 3 x 14 = 42 > 40 passes, 3 x 13 fails
    Stakes(ante=14, three_players="suit")
    with pytest.raises(InvalidStakes):
        Stakes(ante=13, three_players="suit")


def _engine_accepts(stakes: dict) -> bool:
    try:
        for players in (3, 4, 5, 6):
            Rules(players=players, **stakes)
    except ValueError:
        return False
    return True


@settings(max_examples=300, deadline=None)
@given(
    ante=st.integers(-5, 120),
    small_point=st.integers(-5, 60),
    cip=st.integers(-2, 40),
    max_bet=st.integers(-2, 60),
    card_rate=st.integers(-2, 5),
    cards_per_payment=st.integers(0, 4),
    three_players=st.sampled_from(STAKES_CHOICES["three_players"]),
    ranking=st.sampled_from((*STAKES_CHOICES["ranking"], "best")),
)
def test_R4_store_validation_agrees_with_the_engine(**values: object) -> None:
    stakes = {**DEFAULT_STAKES.to_dict(), **values}
    try:
        Stakes.from_dict(stakes)
        accepted = True
    except InvalidStakes:
        accepted = False
    assert accepted == _engine_accepts(stakes)


def test_stakes_are_the_engine_rules_without_players() -> None:
    # one fact written once: the same names, types and defaults as the engine's Rules
    engine = {f.name: (f.type, f.default) for f in dataclasses.fields(Rules)}
    del engine["players"]
    ours = {f.name: (f.type, f.default) for f in dataclasses.fields(Stakes)}
    assert ours == engine
    assert list(ours) == list(engine)


@settings(max_examples=60, deadline=None)
@given(
    ante=st.integers(40, 500),
    small_point=st.integers(1, 20),
    max_bet=st.integers(10, 1000),
    cards_per_payment=st.sampled_from(STAKES_CHOICES["cards_per_payment"]),
    ranking=st.sampled_from(STAKES_CHOICES["ranking"]),
    three_aces_jump=st.booleans(),
    removed_suit=st.sampled_from(STAKES_CHOICES["removed_suit"]),
)
def test_stakes_round_trip_through_json_and_make_the_engine_rules(**values: object) -> None:
    stakes = Stakes.from_dict({**DEFAULT_STAKES.to_dict(), **values})
    assert Stakes.from_dict(json.loads(json.dumps(stakes.to_dict()))) == stakes
    for players in (3, 4, 5, 6):
        assert stakes.rules(players) == Rules(players=players, **stakes.to_dict())


def test_stakes_from_dict_refuses_unknown_and_missing_keys() -> None:
    whole = DEFAULT_STAKES.to_dict()
    with pytest.raises(InvalidStakes) as info:
        Stakes.from_dict({**whole, "players": 4})
    assert (info.value.code, info.value.params) == ("stakes_unknown_key", {"key": "players"})
    del whole["stoppa_povera"]
    with pytest.raises(InvalidStakes) as info:
        Stakes.from_dict(whole)
    assert (info.value.code, info.value.params) == ("stakes_missing_key", {"key": "stoppa_povera"})
    # a Stakes is checked when built, whichever way it is built
    with pytest.raises(InvalidStakes) as info:
        dataclasses.replace(DEFAULT_STAKES, max_bet=5)
    assert info.value.code == "stakes_max_bet_below_cip"


def test_a_stored_row_lacking_later_variants_reads_their_defaults() -> None:
    # a row written before show_first / six_players / stoppa_povera existed, and with a key
    # since dropped: read with the defaults, the unknown key ignored
    old = {k: v for k, v in DEFAULT_STAKES.to_dict().items() if k not in LATER_VARIANTS}
    row = [(json.dumps({**old, "ante": 80, "retired_key": 1}),)]
    assert stakes_of(row) == Stakes(ante=80)
    assert stakes_of([]) == stakes_of([(None,)]) == DEFAULT_STAKES
