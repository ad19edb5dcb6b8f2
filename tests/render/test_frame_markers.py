"""No stale marker or caption (issue 25): once the stoppa is closed or a special hand shown,
or the hand is over, no seat is marked to act and the centre says who won, never "Open: any
card"; statuses, bets and shown points do not outlive their round."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import Hand, Rules
from bot.render import table as table_module
from bot.render.from_view import table_snapshot
from bot.render.replay_frames import ReplayFrame, ReplaySetup, replay_frames
from bot.tables.snapshot import public_hand_events


def random_hand(seed: int, players: int) -> Hand:
    rng = random.Random(seed)
    hand = Hand.start(Rules(players=players), [1000] * players, seed % players, seed=seed)
    while hand.to_act is not None:
        hand.act(hand.to_act, rng.choice(hand.legal_actions()))
    return hand


def decided(frames: tuple[ReplayFrame, ...]) -> list[ReplayFrame]:
    """The frames from the close of the stoppa or the special hand on."""
    start = next(i for i, f in enumerate(frames)
                 if f.table.winner or f.table.phase == "over")
    return list(frames[start:])


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), players=st.integers(3, 6), lang=st.sampled_from(
    ("en", "it")))
def test_once_the_hand_is_decided_no_frame_marks_a_seat(seed: int, players: int,
                                                        lang: str) -> None:
    hand = random_hand(seed, players)
    names = tuple(f"P{i}" for i in range(players))
    frames = replay_frames(ReplaySetup(tuple(public_hand_events(hand)), names, lang=lang))
    after = decided(frames)
    assert after[0].table.winner, "the closing (or special) frame names who won"
    for frame in after:
        snap = frame.table
        assert not any(s.to_act for s in snap.seats), frame.caption
        assert snap.needed is None
        assert not any(s.bet or s.status == "passed" for s in snap.seats if
                       snap.phase == "over"), frame.caption
    payments = [e for e in hand.events if e.kind == "payment" and e.data().get("amount")]
    assert len(after[-1].table.payments) == len(payments)


def test_the_close_frame_says_who_closed_not_open_any_card(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The frame of "stoppa!" drew "Open: any card" and a turn marker on the closer."""
    for seed in range(50):
        hand = random_hand(seed, 6)
        if hand.special is None:
            break
    frames = replay_frames(ReplaySetup(tuple(public_hand_events(hand)),
                                       tuple(f"P{i}" for i in range(6))))
    close = next(f for f in frames if f.table.winner)
    assert close.table.stoppa_table, "the closing cards stay on the table"
    said: list[str] = []  # every text the table image draws
    original = table_module.draw_text

    def spy(draw, xy, text, *args, **kwargs):  # type: ignore[no-untyped-def]
        said.append(text)
        return original(draw, xy, text, *args, **kwargs)

    monkeypatch.setattr(table_module, "draw_text", spy)
    table_module.table_image(close.table)
    assert "Open: any card" not in said
    assert f"{close.table.winner} closed the stoppa" in said


def test_the_live_table_marks_nobody_once_the_hand_is_over() -> None:
    """At "hand over" the turn marker stayed on the seat that closed the stoppa."""
    for seed in range(20):
        hand = random_hand(seed, 4)
        snap = table_snapshot(hand.seat_view(None), ["A", "B", "C", "D"], lang="en",
                              events=hand.events)
        assert snap.phase == "over"
        assert not any(s.to_act for s in snap.seats)
