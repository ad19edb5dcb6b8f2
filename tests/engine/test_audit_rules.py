"""Rules the independent audit found diverging from docs/rules-spec.md (issue 15), and the
variants it added: R-7 ranking=total ties, R-8 empty stacks, R-15 amounts, R-9 show_first, R-2
six_players, R-11 stoppa_povera and the stoppa di assi with a suit removed."""

from __future__ import annotations

import json

import pytest

from bot.engine import (
    Bet,
    Call,
    Card,
    Declare,
    Hand,
    IllegalAction,
    Pass,
    Raise,
    Rules,
    build_deck,
    parse_cards,
)
from tests.engine.behaviour_hash import view as json_view

from .util import pass_all_betting, start


def decl(text: str) -> Declare:
    return Declare(tuple(parse_cards(text)))


def first_win(h: Hand) -> tuple[int, int]:
    win = next(e for e in h.events if e.kind == "win")
    return win.seat, win.data()["amount"]


# --- R-7 -----------------------------------------------------------------------------------


def test_R7_ranking_total_tie_two_cards_of_the_eldest_beat_three_cards() -> None:
    """The spec's example (R-7): eldest's 1c 6c (34) beats 10d 9d 4d (34) under ranking=total."""
    h = start(
        Rules(ranking="total"),
        {0: "1c 6c 2s 3s 4s 5s 7b 8b 9b 2b", 1: "10d 9d 4d 2c 3c 4c 5c 7c 8c 2d"},
    )
    h.act(0, Bet(10))
    h.act(1, Call())
    h.act(2, Pass())
    h.act(3, Pass())
    assert h.phase == "showdown" and json_view(h, None)["showdown"]["order"] == [0, 1]
    h.act(0, decl("1c 6c"))
    h.act(1, decl("10d 9d 4d"))
    assert first_win(h)[0] == 0


def test_R7_ranking_total_tie_with_the_eldest_holding_three_cards() -> None:
    """The tie still goes to priority when the three cards are the eldest's."""
    h = start(
        Rules(ranking="total"),
        {0: "10d 9d 4d 2s 3s 4s 5s 7b 8b 9b", 1: "1c 6c 2b 2c 3c 4c 5c 7c 8c 2d"},
    )
    h.act(0, Bet(10))
    h.act(1, Call())
    h.act(2, Pass())
    h.act(3, Pass())
    h.act(0, decl("10d 9d 4d"))
    h.act(1, decl("1c 6c"))
    assert first_win(h)[0] == 0


def test_R7_ranking_count_still_prefers_three_cards() -> None:
    h = start(
        Rules(),
        {0: "1c 6c 2s 3s 4s 5s 7b 8b 9b 2b", 1: "10d 9d 4d 2c 3c 4c 5c 7c 8c 2d"},
    )
    h.act(0, Bet(10))
    h.act(1, Call())
    h.act(2, Pass())
    h.act(3, Pass())
    h.act(0, decl("1c 6c"))
    h.act(1, decl("10d 9d 4d"))
    assert first_win(h)[0] == 1


# --- R-15 ----------------------------------------------------------------------------------


@pytest.mark.parametrize("amount", [True, False])
def test_R15_a_bool_bet_is_refused_even_when_the_cip_is_one(amount: bool) -> None:
    h = Hand.start(Rules(cip=1), [1000] * 4, 3, seed=1)
    before = h.to_json()
    with pytest.raises(IllegalAction) as err:
        h.act(0, Bet(amount))
    assert err.value.code == "bet_too_small"
    assert h.to_json() == before
    assert not h.can(0, Bet(amount))


def test_R15_a_bool_raise_is_refused_even_when_the_cip_is_one() -> None:
    h = Hand.start(Rules(cip=1), [1000] * 4, 3, seed=1)
    h.act(0, Bet(1))
    before = h.to_json()
    # level 1 + cip 1 = 2, so only a bool equal to 1 could sneak in as a call-like raise
    with pytest.raises(IllegalAction):
        h.act(1, Raise(True))
    assert h.to_json() == before
    h.act(1, Raise(2))
    assert Hand.from_json(h.to_json()).to_json() == h.to_json()


def test_R15_bool_chips_or_carry_are_refused_at_start() -> None:
    with pytest.raises(ValueError, match="whole number"):
        Hand.start(Rules(ante=1, small_point=1, cip=1, players=5), [True, 5, 5, 5, 5], 3, seed=1)
    with pytest.raises(ValueError, match="whole number"):
        Hand.start(Rules(), [1000] * 4, 3, seed=1, carry=True)


def test_R15_json_round_trip_after_a_cip_one_bet() -> None:
    h = Hand.start(Rules(cip=1), [1000] * 4, 3, seed=1)
    h.act(0, Bet(1))
    record = json.loads(h.to_json())
    assert record["actions"] == [[0, "bet 1"]]
    assert Hand.from_json(h.to_json()).to_json() == h.to_json()


# --- R-8 -----------------------------------------------------------------------------------

HANDS = {
    0: "7d 6d 1d 2c 3c 4c 5s 4s 3s 8b",
    1: "8c 9c 2s 6c 7c 1c 2b 3b 4b 9b",
}


def test_R8_a_player_without_chips_is_passed_when_the_round_begins_and_cannot_call() -> None:
    h = start(Rules(), HANDS, chips=[1000, 60, 1000, 1000])  # seat 1: all-in for the ante
    forced = [e for e in h.events if e.kind == "pass"]
    assert [(e.seat, e.data()["forced"]) for e in forced] == [(1, True)]
    h.act(0, Bet(30))
    assert h.to_act == 2  # seat 1 takes no part
    with pytest.raises(IllegalAction) as err:
        h.act(1, Call())
    assert err.value.code == "not_your_turn"


@pytest.mark.parametrize("broke", [0, 1, 2])
def test_R8_a_player_without_chips_wins_no_pot_whatever_their_seat(broke: int) -> None:
    """Everyone bets and calls; the broke seat holds the best point but wins nothing."""
    chips = [1000] * 4
    chips[broke] = 60
    hands = {broke: "7d 6d 1d 2c 3c 4c 5s 4s 3s 8b"}
    h = start(Rules(), hands, chips=chips)
    while h.phase != "stoppa" and h.phase != "over":
        seat = h.to_act
        assert seat is not None and seat != broke
        acts = h.legal_actions()
        if Bet(10) in acts:
            h.act(seat, Bet(10))
        elif Call() in acts:
            h.act(seat, Call())
        else:
            h.act(seat, h.default_action(seat))
    assert not any(e.kind == "win" and e.seat == broke for e in h.events)
    assert not any(e.kind in ("call", "allin", "declare") and e.seat == broke for e in h.events)


def test_R8_a_dealer_without_chips_does_not_take_the_unbet_pot() -> None:
    """No bet: the last seat taking part (the one before the broke dealer) takes the pot."""
    h = start(Rules(), HANDS, chips=[1000, 1000, 1000, 60])  # seat 3 deals
    h.act(0, Pass())
    h.act(1, Pass())
    assert h.deal_no == 1  # seat 2 need not act: it takes the pot as the dealer would
    assert first_win(h) == (2, 10)


def test_R8_all_in_means_the_last_chips_at_least_one() -> None:
    h = start(Rules(), HANDS, chips=[1000, 65, 1000, 1000])
    h.act(0, Bet(30))
    assert h.to_act == 1
    assert h.default_action(1) == Pass()
    h.act(1, Call())
    allin = h.events[-1] if h.events[-1].kind == "allin" else None
    assert allin is not None and allin.data()["amount"] == 5


# --- R-9 show_first --------------------------------------------------------------------------


def test_R9_show_first_last_caller_variant() -> None:
    h = start(Rules(show_first="last_caller"), {})
    h.act(0, Bet(10))
    h.act(1, Call())
    h.act(2, Raise(20))
    h.act(3, Call())
    h.act(0, Call())
    h.act(1, Call())
    assert json_view(h, None)["showdown"]["order"] == [1, 2, 3, 0]
    assert h.to_act == 1


def test_R9_show_first_last_caller_counts_a_raise() -> None:
    h = start(Rules(show_first="last_caller"), {})
    h.act(0, Bet(10))
    h.act(1, Call())
    h.act(2, Pass())
    h.act(3, Pass())
    assert json_view(h, None)["showdown"]["order"] == [1, 0]
    h2 = start(Rules(show_first="last_caller"), {})
    h2.act(0, Bet(10))
    h2.act(1, Pass())
    h2.act(2, Pass())
    h2.act(3, Raise(30))
    h2.act(0, Call())
    assert json_view(h2, None)["showdown"]["order"] == [0, 3]


# --- R-2 six_players -------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "removed"), [("kings", 10), ("knights", 9), ("jacks", 8)])
def test_R2_six_players_remove_kings_knights_or_jacks(variant: str, removed: int) -> None:
    rules = Rules(players=6, six_players=variant)
    deck = rules.deck()
    assert len(deck) == 36 and all(c.rank != removed for c in deck)
    assert rules.rank_counts()[removed] == 0
    assert deck == build_deck(6, six_players=variant)
    h = Hand.start(rules, [1000] * 6, 0, seed=3)
    assert sorted(h.deck) == sorted(deck)


def test_R2_R11_six_players_without_knights_may_have_a_ricchezza() -> None:
    rules = Rules(players=6, six_players="knights")
    h = start(rules, {0: "10c 10d 10s 10b 2c 3c"})
    pass_all_betting(h)
    assert h.special == "ricchezza"


def test_R2_six_players_variant_is_ignored_by_other_tables() -> None:
    assert Rules(players=4, six_players="jacks").deck() == Rules(players=4).deck()


# --- R-11 ------------------------------------------------------------------------------------


def test_R11_stoppa_povera_off_plays_the_stoppa() -> None:
    misera = "2d 3d 4d 5d 6d 7d 2s 3s 4s 5s"
    on = start(Rules(), {1: misera})
    pass_all_betting(on)
    assert on.special == "misera"
    off = start(Rules(stoppa_povera="off"), {1: misera})
    pass_all_betting(off)
    assert off.special is None and off.phase in ("stoppa", "over")


def test_R11_stoppa_povera_off_still_lets_a_later_kind_apply() -> None:
    h = start(
        Rules(stoppa_povera="off"),
        {1: "2d 3d 4d 5d 6d 7d 2s 3s 4s 5s", 2: "1c 1d 1s 1b 8c 8d 8s 9c 9d 9s"},
    )
    pass_all_betting(h)
    assert h.special == "assi"


SUITLESS = Rules(players=3, three_players="suit", removed_suit="b")
THREE_ACES = "1c 1d 1s 8c 8d 8s 9c 9d 9s 10c"
OTHER = "2c 3c 4c 5c 6c 7c 10d 2d 3d 4d"


@pytest.mark.parametrize(
    ("variant", "blocked"),
    [
        ("four_aces", True),
        ("four_aces_no_king", False),  # holds 10c
        ("three_aces", True),
        ("three_aces_no_king", False),
        ("three_twos_no_king", False),
        ("none", False),
    ],
)
def test_R11_every_blocked_stoppa_with_a_suit_removed(variant: str, blocked: bool) -> None:
    """With a suit removed the stoppa di assi is the three aces of the used deck."""
    h = start(SUITLESS.replace(blocked_stoppa=variant), {0: THREE_ACES, 1: OTHER})
    pass_all_betting(h)
    assert (h.special == "assi") is blocked


@pytest.mark.parametrize("variant", ["four_aces_no_king", "three_aces_no_king"])
def test_R11_no_king_variants_with_a_suit_removed_and_no_king(variant: str) -> None:
    hand = "1c 1d 1s 8c 8d 8s 9c 9d 9s 7c"
    h = start(
        SUITLESS.replace(blocked_stoppa=variant), {0: hand, 1: "2c 3c 4c 5c 6c 10c 10d 2d 3d 4d"}
    )
    pass_all_betting(h)
    assert h.special == "assi"


def test_R11_three_twos_with_a_suit_removed() -> None:
    hand = "2c 2d 2s 8c 8d 8s 9c 9d 9s 7c"
    h = start(
        SUITLESS.replace(blocked_stoppa="three_twos_no_king"),
        {0: hand, 1: "1c 3c 4c 5c 6c 10c 10d 1d 3d 4d"},
    )
    pass_all_betting(h)
    assert h.special == "assi"


def test_old_rules_records_without_the_new_variants_load_with_todays_behaviour() -> None:
    d = Rules().to_dict()
    for key in ("show_first", "six_players", "stoppa_povera"):
        del d[key]
    assert Rules.from_dict(d) == Rules()
    assert Card.parse("10c") not in Rules.from_dict({**d, "players": 6}).deck()
