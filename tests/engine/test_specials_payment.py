"""R-11 special hands before the stoppa, R-12 inside a hand, R-13 closing payments."""

from __future__ import annotations

import pytest

from bot.engine import Hand, IllegalAction, Pass, Play, Rules, parse_cards
from tests.engine.behaviour_hash import view as json_view

from .util import pass_all_betting, start

# seat 0 runs 1..10 of Coppe in one turn; the others hold Denari, Spade, Bastoni in order
RUN = {0: "1c 2c 3c 4c 5c 6c 7c 8c 9c 10c"}


def finish(h: Hand) -> Hand:
    while h.to_act is not None:
        h.act(h.to_act, h.default_action(h.to_act))
    return h


@pytest.mark.parametrize(("cpp", "each"), [(1, 100), (2, 50), (3, 30)])
def test_R13_payment_per_card_pair_or_triple(cpp: int, each: int) -> None:
    h = start(Rules(cards_per_payment=cpp), RUN)
    pass_all_betting(h)
    assert h.phase == "stoppa" and h.to_act == 0
    assert h.default_action(0) == Play(tuple(parse_cards("1c")))
    h.act(0, Play(tuple(parse_cards("1c"))))  # 1-2-...-10: empties the hand at once
    assert h.phase == "over"
    close = [e for e in h.events if e.kind == "close"]
    assert close[0].seat == 0
    pays = [e for e in h.events if e.kind == "payment"]
    assert [(e.seat, e.data()["to"], e.data()["amount"], e.data()["cards"]) for e in pays] == [
        (s, 0, each, 10) for s in (1, 2, 3)
    ]
    assert h.result is not None
    assert h.result[0] == 3 * each - 60 + 0  # ante lost, small/big pots went to the dealer
    assert sum(h.result) == 0


def test_R13_payment_capped_by_chips() -> None:
    h = start(Rules(), RUN, chips=[1000, 100, 60, 1000])
    pass_all_betting(h)
    h.act(0, Play(tuple(parse_cards("1c"))))
    pays = {e.seat: e.data()["amount"] for e in h.events if e.kind == "payment"}
    assert pays == {1: 40, 2: 0, 3: 100}
    assert h.chips[1] == 0 and h.chips[2] == 0
    assert h.result is not None and sum(h.result) == 0


# seat 0 holds all four kings; seat 1 holds no figure; seat 2 all four aces
KINGS = "10c 10d 10s 10b 2c 3c 4c 5c 6c 7c"
MISERA = "2d 3d 4d 5d 6d 7d 2s 3s 4s 5s"
ACES = "1c 1d 1s 1b 8c 8d 8s 9c 9d 9s"


def special_of(h: Hand) -> tuple[str, int, list[dict]]:
    ev = next(e for e in h.events if e.kind == "special")
    return ev.data()["kind"], ev.seat, ev.data()["payments"]  # type: ignore[return-value]


def test_R11_ricchezza_beats_misera_and_pays_cards() -> None:
    h = start(Rules(), {1: KINGS, 0: MISERA})
    pass_all_betting(h)
    assert h.phase == "over" and h.special == "ricchezza"
    kind, holder, pays = special_of(h)
    assert (kind, holder) == ("ricchezza", 1)
    assert [p["amount"] for p in pays] == [100, 100, 100]
    assert h.stoppa is None


def test_R11_misera_pays_ante_variant() -> None:
    h = start(Rules(special_payout="ante"), {2: MISERA, 0: ACES})
    pass_all_betting(h)
    kind, holder, pays = special_of(h)
    assert (kind, holder) == ("misera", 2)  # misera comes before stoppa di assi
    assert [p["amount"] for p in pays] == [60, 60, 60]


def test_R11_misera_highest_priority_claimant() -> None:
    h = start(Rules(), {1: MISERA, 3: "2c 3c 4c 5c 6c 7c 2b 3b 4b 5b"})
    pass_all_betting(h)
    assert special_of(h)[:2] == ("misera", 1)
    h2 = start(Rules(), {1: MISERA, 3: "2c 3c 4c 5c 6c 7c 2b 3b 4b 5b"}, dealer=2)
    pass_all_betting(h2)
    assert special_of(h2)[:2] == ("misera", 3)  # seat 3 is now the eldest hand


def test_R11_ricchezza_with_three_kings_for_three_players() -> None:
    rules = Rules(players=3)
    h = start(rules, {2: "10c 10d 10s 2c 3c 4c 5c 6c 7c 8c 9c 1c 2d"})
    pass_all_betting(h)
    assert special_of(h)[:2] == ("ricchezza", 2)


@pytest.mark.parametrize(
    ("variant", "hand", "blocked"),
    [
        ("four_aces", ACES, True),
        ("four_aces", "1c 1d 1s 8b 8c 8d 8s 9c 9d 9s", False),
        ("three_aces", "1c 1d 1s 8b 8c 8d 8s 9c 9d 9s", True),
        ("three_aces_no_king", "1c 1d 1s 8b 8c 8d 8s 9c 9d 9s", True),
        ("three_aces_no_king", "1c 1d 1s 8b 8c 8d 8s 9c 9d 10s", False),
        ("four_aces_no_king", ACES, True),
        ("four_aces_no_king", "1c 1d 1s 1b 8c 8d 8s 9c 9d 10s", False),
        ("three_twos_no_king", "2c 2d 2s 8b 8c 8d 8s 9c 9d 9s", True),
        ("three_twos_no_king", "2c 2d 2s 8b 8c 8d 8s 9c 9d 10s", False),
        ("none", ACES, False),
    ],
)
def test_R11_blocked_stoppa_variants(variant: str, hand: str, blocked: bool) -> None:
    h = start(Rules(blocked_stoppa=variant), {2: hand})
    pass_all_betting(h)
    if blocked:
        assert h.special == "assi" and h.phase == "over"
        _kind, holder, pays = special_of(h)
        assert holder == 2 and pays == []
        assert not any(e.kind == "payment" for e in h.events)
    else:
        assert h.special is None
        assert h.stoppa is not None


def test_R11_four_aces_means_every_ace_of_a_30_card_deck() -> None:
    rules = Rules(players=3, three_players="suit")
    h = start(rules, {0: "1c 1d 1s 8c 8d 8s 9c 9d 9s 10c", 1: "2c 3c 4c 5c 6c 7c 10d 2d 3d 4d"})
    pass_all_betting(h)
    assert h.special == "assi"


def test_R12_stoppa_in_a_hand_starts_with_eldest_and_refuses_bad_plays() -> None:
    h = start(Rules(), RUN, dealer=2)  # seat 3 eldest
    pass_all_betting(h)
    assert h.phase == "stoppa"
    assert h.to_act == 3
    with pytest.raises(IllegalAction) as err:
        h.act(0, Play(tuple(parse_cards("1c"))))
    assert err.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as err:
        h.act(3, Pass())
    assert err.value.code == "wrong_phase"
    finish(h)
    assert h.phase == "over" and sum(h.result or [1]) == 0
    with pytest.raises(IllegalAction) as err:
        h.act(0, Pass())
    assert err.value.code == "hand_over" and str(err.value) == "The hand is over."
    v = json_view(h, 1)
    assert v["stoppa"]["table"] and v["legal"] == [] and v["to_act"] is None
