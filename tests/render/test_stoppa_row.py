"""The stoppa's cards on the table image (issue 25): every card keeps its rank readable.

Before, fifteen cards were squeezed into one overlapping row, 20 px of each showing, so a 10
read as an ace. Now no card overlaps another, the open sequence is large and the sequences
closed before it small; the sequences are split as the engine splits them.
"""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import Hand, Rules
from bot.players import make_player
from bot.render.from_view import table_snapshot
from bot.render.replay_frames import ReplaySetup, replay_frames
from bot.render.sprites import all_codes
from bot.render.stoppa_row import LARGE, SMALL, PlacedCard, split_sequences, stoppa_layout
from bot.render.table import CONTENT, STOPPA_FOOT, stoppa_cards
from bot.tables.snapshot import public_hand_events

NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio")


def _overlap(a: PlacedCard, b: PlacedCard) -> bool:
    ax0, ay0, ax1, ay1 = a.box
    bx0, by0, bx1, by1 = b.box
    return ax0 < bx1 and bx0 < ax1 and ay0 < by1 and by0 < ay1


def assert_readable(placed: list[PlacedCard], sequence: list[str]) -> None:
    """No card covers another, every card is at least SMALL[1] px wide, the open sequence's
    at least LARGE[1], and every card lies inside the table's centre."""
    left, _, right, _ = CONTENT
    for i, card in enumerate(placed):
        assert card.width >= SMALL[1], card
        assert left <= card.x and card.x + card.width <= right, card
        for other in placed[i + 1:]:
            assert not _overlap(card, other), (card, other)
    large = [p for p in placed if p.width >= LARGE[1]]
    assert [p.code for p in placed[len(placed) - len(sequence):]] == sequence
    assert len(large) >= len(sequence)


@settings(max_examples=60, deadline=None)
@given(st.permutations(all_codes()), st.integers(0, 36), st.integers(1, 13))
def test_stoppa_cards_never_overlap_and_stay_readable(deck: list[str], before: int,
                                                      open_count: int) -> None:
    cards = deck[:before + open_count]
    left, top, right, bottom = CONTENT
    placed, end = stoppa_layout(cards[:before], cards[before:], left=left, right=right,
                                top=top + 72, bottom=bottom - STOPPA_FOOT)
    assert_readable(placed, cards[before:])
    assert end <= bottom - STOPPA_FOOT + 8
    assert len(placed) >= min(len(cards), 24)  # at worst the oldest closed cards give way


def _hand(seed: int, players: int = 6) -> tuple[Hand, list[tuple[str, ...]]]:
    """A finished hand of easy CPUs, and at each choice in its stoppa the engine's open
    sequence beside every play so far."""
    rng = random.Random(seed)
    cpus = [make_player("easy", rng.randrange(2**31)) for _ in range(players)]
    hand = Hand.start(Rules(players=players), [1000] * players, 0, seed=seed)
    checks = []
    while hand.to_act is not None:
        seat = hand.to_act
        view = hand.seat_view(seat)
        if view.stoppa is not None and view.stoppa.table:
            plays = [tuple(c.code for c in play) for play in view.stoppa.table]
            opened = [tuple(c.code for c in play) for play in view.stoppa.sequence]
            assert split_sequences(plays)[-1] == opened or (
                opened == [] and view.stoppa.needed is None)
            checks.append(tuple(c for play in opened for c in play))
        hand.act(seat, cpus[seat].choose(view, hand.legal_actions(), hand.events_for(seat)))
    return hand, checks


def test_sequences_are_split_as_the_engine_splits_them() -> None:
    checked = 0
    for seed in range(40):
        checked += len(_hand(seed, 3 + seed % 4)[1])
    assert checked > 40


def test_a_6_player_stoppa_keeps_every_rank_readable() -> None:
    """Seed 31: a 6-player stoppa of 29 plays (the replay showed 15 crushed cards)."""
    hand, _ = _hand(31)
    events = tuple(public_hand_events(hand))
    frames = replay_frames(ReplaySetup(events, NAMES, lang="it"))
    most = 0
    for frame in frames:
        snap = frame.table
        if not (snap.stoppa_table or snap.stoppa_before):
            continue
        sequence = [c for play in snap.stoppa_table for c in play]
        placed, _ = stoppa_cards(snap, CONTENT[1] + 72)
        assert_readable(placed, sequence)
        assert {p.code for p in placed} == set(sequence) | set(snap.stoppa_before)
        most = max(most, len(placed))
    assert most >= 15
    # the live table draws the same way
    live = table_snapshot(hand.seat_view(None), NAMES, lang="en")
    placed, _ = stoppa_cards(replace(live, phase="stoppa"), CONTENT[1] + 72)
    assert_readable(placed, [c for play in live.stoppa_table for c in play])
