"""Metas written before the meta was typed (real rows from a test run of that code, in
`old_metas/`) load into the typed values and are written back as the same JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.store import Move
from bot.tables.absence import Absence
from bot.tables.cpus import CpuSeats
from bot.tables.meta import HandInPlay, SpokenWord, TableMeta
from bot.tables.policy import UnknownKind
from bot.tables.practice_meta import PracticeMeta
from bot.tables.updates import HandOver
from bot.tournaments.record import TableTournament
from bot.tournaments.state import Phase

OLD = Path(__file__).parent / "old_metas"


def old(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((OLD / f"{name}.json").read_text())
    return data


@pytest.mark.parametrize("name", sorted(p.stem for p in OLD.glob("*.json")))
def test_an_old_meta_is_written_back_as_the_same_json(name: str) -> None:
    stored = old(name)
    meta = read(stored)
    assert json.loads(json.dumps(meta.to_dict())) == stored
    again = read(json.loads(json.dumps(meta.copy().to_dict())))
    assert again == meta


def read(data: dict[str, Any]) -> TableMeta:
    """A stored meta as a service that plays tournament tables reads it."""
    return TableMeta.from_dict(data, TableTournament.from_dict)


def test_a_tournament_meta_needs_the_tournament_codes_reader() -> None:
    with pytest.raises(UnknownKind):
        TableMeta.from_dict(old("tournament_running"))
    assert TableMeta.from_dict(old("cash_hand2")).tournament is None


def test_a_cash_tables_last_hand_and_words_are_typed() -> None:
    meta = read(old("cash_hand2"))
    assert isinstance(meta.last_hand, HandOver)
    assert meta.last_hand.hand_no == 1 and meta.last_hand.closer == 13
    assert [p.payer for p in meta.last_hand.payments] == [14, 11, 12]
    assert meta.in_play.words == (SpokenWord(12, "stella"),)
    assert (meta.tournament, meta.practice) == (None, None)


#: the keys in the order the meta wrote them before its typed values (JSON objects keep it)
KEY_ORDER = ["seed", "started", "hand_no", "turn", "hand_seed", "players", "dealer",
             "dealer_pos", "paid", "carry", "deals", "round_called_by", "cpus", "cpu_seeds",
             "next_cpu", "words", "leaving", "sitting_out", "last_events", "timeouts", "away",
             "left", "away_after", "away_mode", "own_thread", "last_hand", "tournament",
             "practice"]


@pytest.mark.parametrize("name", sorted(p.stem for p in OLD.glob("*.json")))
def test_an_old_meta_is_written_back_with_its_keys_in_the_same_order(name: str) -> None:
    assert list(read(old(name)).to_dict()) == KEY_ORDER


def test_an_old_rows_hand_in_play_is_one_typed_value() -> None:
    """The flat keys of the hand of a row stored before `HandInPlay` (hand 2, mid-hand)."""
    in_play = read(old("cash_hand2")).in_play
    assert in_play == HandInPlay(hand_no=2, turn=37, hand_seed=None, players=(11, 12, 13, 14),
                                 dealer=11, dealer_pos=0, paid={11: 60, 12: 60, 13: 60, 14: 60},
                                 carry=0, words=(SpokenWord(12, "stella"),))
    assert (in_play.eldest(), in_play.seat_of(13), in_play.seat_of(99)) == (12, 2, None)
    # who goes at the hand's end and who sits it out are the hand's too, under their old keys
    stored = {**old("cash_hand2"), "leaving": [13], "sitting_out": [14]}
    meta = read(stored)
    assert (meta.in_play.leaving, meta.in_play.sitting_out) == ((13,), (14,))
    assert json.loads(json.dumps(meta.to_dict())) == stored


def test_the_hand_in_play_changes_as_a_value() -> None:
    """Dealt, stepped, settled, carried: each returns a new value, the old one unchanged."""
    first = HandInPlay(hand_no=1, turn=9, players=(1, 2, 3), dealer=1, carry=40)
    antes = [Move(u, 10, "ante", 2) for u in (2, 3, 1)]
    dealt = first.dealt(77, [2, 3, 1], 2, 1, [SpokenWord(3, "luna")], antes)
    assert dealt == HandInPlay(hand_no=2, turn=10, hand_seed=77, players=(2, 3, 1), dealer=2,
                               dealer_pos=1, paid={2: 10, 3: 10, 1: 10}, carry=40,
                               words=(SpokenWord(3, "luna"),))
    bet = dealt.stepped([Move(3, 25, "bet", 2), Move(2, -5, "refund", 2)])
    assert (bet.turn, dict(bet.paid)) == (11, {2: 5, 3: 35, 1: 10})
    over = bet.settled().carrying(0)
    assert (dict(over.paid), over.carry, over.turn, over.players) == ({}, 0, 11, (2, 3, 1))
    assert over.undealt().players == () and first.hand_no == 1 and dict(dealt.paid)[3] == 10
    going = over.leaves(3).leaves(1).leaves(3)
    assert (going.leaving, going.stays(3).leaving, going.gone().leaving) == ((3, 1), (1,), ())
    assert over.sat_out([2]).sitting_out == (2,) and over.leaving == ()


def test_a_practice_tables_part_is_typed() -> None:
    meta = read(old("practice_open"))
    assert meta.practice == PracticeMeta(
        77, 3, "easy", 6000, {77: 6000, -21: 6000, -22: 6000, -23: 6000}
    )


def test_a_tournament_tables_part_is_typed_and_knows_it_was_cancelled() -> None:
    running = read(old("tournament_running")).tournament
    cancelled = read(old("tournament_cancelled")).tournament
    assert isinstance(running, TableTournament) and isinstance(cancelled, TableTournament)
    assert running.id == cancelled.id == 1
    assert not running.cancelled and cancelled.cancelled
    assert running.record.state.phase is Phase.RUNNING
    assert len(running.record.state.players) == 3
    assert list(running.record.cpus.values()) == ["easy"]


def test_a_round_call_is_read_from_the_flat_json_and_counts_deals() -> None:
    meta = read(old("cash_hand2"))
    assert dict(meta.round.deals) == {12: 0, 13: 0, 14: 1} and meta.round.called_by is None
    assert not meta.round.over([12, 13, 14], meta.in_play.hand_no)  # nobody called it
    before = meta.copy()
    meta.round = meta.round.called(12).sat(99, [12, 13, 14]).dealt(12)
    assert before.round == read(old("cash_hand2")).round  # a value: the copy is untouched
    assert dict(meta.round.deals) == {12: 1, 13: 0, 14: 1, 99: 0}
    assert meta.to_dict()["round_called_by"] == 12
    hand_no = meta.in_play.hand_no
    assert meta.round.over([12, 14], hand_no) and not meta.round.over([12, 13], hand_no)
    assert meta.round.over([13], 0)  # called before any hand: over at once
    meta.forget(13)
    assert 13 not in meta.round.deals and 13 in before.round.deals


def test_the_absence_group_reads_and_writes_the_flat_keys_of_before() -> None:
    stored = old("cash_hand2")
    stored.update(timeouts={"11": 1, "12": 2}, away={"12": 1}, left=[12], away_after=3,
                  away_mode="leave")
    meta = read(stored)
    assert meta.absence == Absence({11: 1, 12: 2}, {12: 1}, (12,), 3, "leave")
    assert json.loads(json.dumps(meta.to_dict())) == stored  # the same keys, flat


def test_absence_changes_are_values() -> None:
    rule = Absence(after=2)
    out = rule.timed_out(11).timed_out(11).sat_out(11, 4)
    assert rule == Absence(after=2)  # unchanged: each change is a new value
    assert out.count(11) == 2 and out.is_away(11) and out.away_before(5) == [11]
    assert out.sat_out(11, 6).away == {11: 4}  # sat out since the first time
    gone = out.gone(12, 5)
    assert gone.left == (12,) and gone.gone(12, 6) == gone
    back = gone.back(12)
    assert not back.is_away(12) and back.left == () and back.count(12) == 0
    assert back.without(11) == Absence({12: 0}, {}, (), 2)


def test_the_cpu_seats_read_and_write_the_flat_keys_of_before() -> None:
    stored = old("practice_open")
    meta = read(stored)
    assert meta.cpus == CpuSeats({-21: "easy", -22: "easy", -23: "easy"},
                                 {u: int(s) for u, s in _int(stored["cpu_seeds"]).items()},
                                 int(stored["next_cpu"]))
    assert -21 in meta.cpus and 77 not in meta.cpus and meta.cpus.level(-22) == "easy"
    assert json.loads(json.dumps(meta.to_dict())) == stored
    meta.forget(-21)
    assert -21 not in meta.cpus and -21 not in meta.cpus.seeds


def _int(data: dict[str, Any]) -> dict[int, Any]:
    return {int(k): v for k, v in data.items()}
