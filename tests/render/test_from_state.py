"""Snapshots from the table service's public dict (bot/render/from_state.py): public info only."""

from __future__ import annotations

from dataclasses import asdict

from bot.render.from_state import current_sequence, hand_snapshot, table_snapshot


def _view(**changes: object) -> dict:
    view: dict = {
        "seat": 1, "players": 4, "dealer": 0, "eldest": 1, "phase": "small_point",
        "deal_no": 1, "to_act": 1,
        "hand": ["7d", "6d", "1c", "5b", "10b", "2s"], "new_cards": ["5b", "10b", "2s"],
        "chips": [500, 480, 300, 0], "card_counts": [6, 6, 6, 6],
        "pots": {"small": [10, 10, 10, 10], "big": 200, "bets": [20, 0, 0, 40], "carry": 30},
        "betting": {"level": 40, "to_call": 40, "min_raise": 50, "max": 200,
                    "active": [True, True, False, True], "allin": [False, False, False, True]},
        "declared": [], "stoppa": None, "legal": ["call", "raise 50", "pass"],
        "rules": {"ranking": "count", "deals": [3, 3, 3, 1]},
    }
    view.update(changes)
    return view


def test_R8_table_snapshot_reads_seats_pots_and_statuses() -> None:
    snap = table_snapshot(_view(), ["Ann", "Ben", "Cat", "Dan"], lang="it", hand_no=3,
                          cpu=[False, False, True, True])
    assert [s.status for s in snap.seats] == ["in", "in", "passed", "allin"]
    assert [s.dealer for s in snap.seats] == [True, False, False, False]
    assert [s.to_act for s in snap.seats] == [False, True, False, False]
    assert [s.bet for s in snap.seats] == [20, 0, 0, 40]
    assert [s.cpu for s in snap.seats] == [False, False, True, True]
    assert (snap.deal_no, snap.deals, snap.small_pots) == (1, 4, (10, 10, 10, 10))
    assert (snap.big_pot, snap.carry, snap.level, snap.hand_no) == (200, 30, 40, 3)
    assert snap.lang == "it" and snap.phase == "small_point"


def test_table_snapshot_never_holds_the_viewers_cards() -> None:
    view = _view()
    snap = table_snapshot(view, ["Ann", "Ben", "Cat", "Dan"], lang="en")
    text = repr(asdict(snap))
    for code in view["hand"]:
        assert f"'{code}'" not in text


def test_R9_declared_cards_are_shown() -> None:
    view = _view(phase="showdown", declared=[{"seat": 2, "cards": ["7c", "5c"], "value": 36}])
    snap = table_snapshot(view, ["A", "B", "C", "D"], lang="en")
    assert snap.seats[2].shown == ("7c", "5c") and snap.seats[0].shown == ()


def test_R12_stoppa_sequence_and_needed_rank() -> None:
    stoppa = {"table": [["5c"], ["6d"], ["7s"], ["8b"], ["9b"], ["10c"], ["3d"], ["4c"]],
              "needed": 5, "closer": 10, "last": ["4c"]}
    view = _view(phase="stoppa", betting=None, stoppa=stoppa, to_act=2, deal_no=None)
    snap = table_snapshot(view, ["A", "B", "C", "D"], lang="en")
    assert snap.stoppa_table == (("3d",), ("4c",))
    assert snap.needed == 5 and snap.seats[2].to_act
    assert all(s.status == "in" for s in snap.seats)


def test_R12_current_sequence_keeps_aces_together() -> None:
    plays = [["9c"], ["10d"], ["1c"], ["1d", "1s"], ["2b"]]
    assert current_sequence(plays) == (("1c",), ("1d", "1s"), ("2b",))
    assert current_sequence([["6c"], ["6d"]]) == (("6d",),)
    assert current_sequence([]) == ()


def test_missing_keys_give_empty_values() -> None:
    snap = table_snapshot({"phase": "lobby"}, ["A", "B", "C"], lang="en")
    assert len(snap.seats) == 3 and snap.big_pot == 0 and snap.deal_no is None
    assert all(s.cards == 0 and s.status == "in" for s in snap.seats)
    hand = hand_snapshot({}, lang="en")
    assert hand.cards == () and hand.best is None and not hand.your_turn


def test_out_and_sitting_out_lists() -> None:
    snap = table_snapshot(_view(out=[3], sitting_out=[False, False, True, False]),
                          ["A", "B", "C", "D"], lang="en")
    assert [s.status for s in snap.seats] == ["in", "in", "sitting_out", "out"]


def test_R6_small_point_best_is_of_the_new_cards() -> None:
    hand = hand_snapshot(_view(), lang="en", player="Ben")
    assert hand.best is not None and hand.best.value == 25 and hand.best.suit == "b"
    assert hand.your_turn and hand.player == "Ben" and hand.new_cards == ("5b", "10b", "2s")


def test_R10_big_point_best_is_of_the_whole_hand() -> None:
    hand = hand_snapshot(_view(phase="big_point", deal_no=None), lang="en")
    assert hand.best is not None and (hand.best.value, hand.best.suit) == (39, "d")
    shown = hand_snapshot(_view(phase="showdown", deal_no=None), lang="en")
    assert shown.best == hand.best


def test_R7_ranking_total_from_the_rules() -> None:
    cards = ["10c", "8c", "3c", "7d", "6d"]
    view = _view(phase="big_point", deal_no=None, hand=cards)
    assert hand_snapshot(view, lang="en").best.suit == "c"  # type: ignore[union-attr]
    view["rules"] = {"ranking": "total"}
    assert hand_snapshot(view, lang="en").best.suit == "d"  # type: ignore[union-attr]


def test_R12_no_point_in_the_stoppa() -> None:
    hand = hand_snapshot(_view(phase="stoppa", to_act=0), lang="it")
    assert hand.best is None and not hand.your_turn
