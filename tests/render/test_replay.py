"""Replays: the frames show only what the table saw (checked on the frames' source data), the
private/public split, old records, the animation and its cache."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from bot.engine import Declare, Hand, Rules
from bot.engine.points import best_point
from bot.players import make_player
from bot.render.hand_summary import phase_figures, summarize
from bot.render.replay import ReplayCache, encode_animation, frame_image, render_replay
from bot.render.replay_frames import ReplaySetup, replay_frames
from bot.store.hand_rows import event_log

NAMES = ("Anna", "Bruno", "Carla", "Dario")
OLD_HANDS = json.loads(
    (Path(__file__).parents[1] / "engine" / "data" / "old_hands.json").read_text()
)


def bluff_hand(seed: int = 0) -> tuple[Hand, int, tuple[str, ...], set[str]]:
    """A finished 4-player hand in which a contender declared a LOWER point than their best
    at a small-point showdown: (hand, seat, declared cards, that deal's cards kept hidden)."""
    for s in range(seed, seed + 500):
        rng = random.Random(s)
        cpus = [make_player("easy", rng.randrange(2**31)) for _ in range(4)]
        hand = Hand.start(Rules(players=4), [1000] * 4, 0, seed=s)
        bluff: tuple[int, tuple[str, ...], set[str]] | None = None
        while hand.to_act is not None:
            seat = hand.to_act
            legal = hand.legal_actions()
            if hand.phase == "showdown" and hand.deal_no is not None and bluff is None:
                eligible = hand.eligible(seat)
                best = best_point(eligible, ranking=hand.rules.ranking)
                lower = [a for a in legal if isinstance(a, Declare)
                         and len(a.cards) < best.count]
                if lower:
                    action = lower[0]
                    cards = tuple(c.code for c in action.cards)
                    bluff = (seat, cards, {c.code for c in eligible} - set(cards))
                    hand.act(seat, action)
                    continue
            hand.act(seat, cpus[seat].choose(hand.seat_view(seat), legal, hand.events_for(seat)))
        if bluff is not None and hand.special is None:
            return hand, *bluff
    raise AssertionError("no bluff found")


def played_before(frames, index: int) -> set[str]:  # type: ignore[no-untyped-def]
    table = frames[index].table
    return {c for play in table.stoppa_table for c in play} | set(table.stoppa_before)


def test_R9_bluff_declaration_shows_the_declared_cards_not_the_hidden_ones() -> None:
    hand, seat, declared, hidden = bluff_hand()
    assert hidden, "the lower point leaves cards of the deal hidden"
    for viewer in (None, (seat + 1) % 4):
        frames = replay_frames(ReplaySetup(tuple(hand.events), NAMES, viewer=viewer))
        shown_at = [i for i, f in enumerate(frames) if f.table.seats[seat].shown == declared]
        assert shown_at, "the declaration frame shows the declared cards at the seat"
        for i, frame in enumerate(frames):
            leaked = (frame.visible_cards() & hidden) - played_before(frames, i)
            assert not leaked, (i, frame.caption, leaked)


def test_R9_frames_show_only_public_cards_and_the_viewers_own() -> None:
    hand, _, _, _ = bluff_hand(40)
    events = hand.events
    dealt = {s: {c for e in events if e.kind == "deal" and e.seat == s for c in e.data()["cards"]}
             for s in range(4)}
    for viewer in (None, 0, 2):
        frames = replay_frames(ReplaySetup(tuple(events), NAMES, viewer=viewer, lang="it"))
        public: set[str] = set()
        for frame in frames:
            public |= {c for s in frame.table.seats for c in s.shown}
        public |= {c for e in events if e.kind == "declare" for c in e.data()["cards"]}
        for i, frame in enumerate(frames):
            mine = dealt[viewer] if viewer is not None else set()
            allowed = public | played_before(frames, i) | mine | set(frame.proof)
            assert frame.visible_cards() <= allowed
            assert set(frame.own) <= mine
        if viewer is None:
            assert all(f.own == () for f in frames)
        else:
            assert frames[0].own == tuple(
                next(e.data()["cards"] for e in events if e.kind == "deal" and e.seat == viewer)
            )


def test_replay_ends_with_the_hands_result_and_the_stoppa_turns() -> None:
    hand, _, _, _ = bluff_hand(80)
    frames = replay_frames(ReplaySetup(tuple(hand.events), NAMES, hand_no=7))
    last = frames[-1]
    assert hand.result is not None
    assert [s.chips for s in last.table.seats] == hand.result
    assert "Hand over" in last.caption and last.duration >= 4000
    turns = [f.caption for f in frames if "senza" in f.caption or "stoppa!" in f.caption]
    assert turns and turns[-1].endswith("stoppa!")
    assert all(f.table.hand_no == 7 for f in frames)


def test_old_records_replay() -> None:
    """Hands recorded by earlier versions (engine records kept in tests/engine/data, and an
    event log stored as `hands.events` JSON) still make a replay."""
    for name, item in OLD_HANDS.items():
        hand = Hand.from_json(item["record"])
        stored = json.dumps([e.to_dict() for e in hand.events])
        events = event_log(stored)
        names = tuple(f"P{i}" for i in range(len(json.loads(item["record"])["chips"])))
        frames = replay_frames(ReplaySetup(events, names, viewer=0))
        assert len(frames) > 3, name
        assert frames[0].own  # the viewer's first deal
        if hand.result is not None:
            assert [s.chips for s in frames[-1].table.seats] == hand.result


def test_animation_is_webp_or_gif_with_every_frame() -> None:
    hand, _, _, _ = bluff_hand(120)
    frames = replay_frames(ReplaySetup(tuple(hand.events), NAMES, viewer=1))[:6]
    for fmt, kind in (("webp", "WEBP"), ("gif", "GIF")):
        data = render_replay(frames, fmt)
        image = Image.open(io.BytesIO(data))
        assert image.format == kind and getattr(image, "n_frames", 1) == len(frames)
    one = frame_image(frames[0])
    assert one.size == (800, 704)


def test_encode_refuses_unknown_format() -> None:
    import pytest

    with pytest.raises(ValueError):
        encode_animation([Image.new("RGB", (2, 2))], [100], "png")


def test_cache_is_bounded_and_least_recently_used_goes_first() -> None:
    cache = ReplayCache(max_items=2, max_bytes=10)
    cache.put((1, None, "en"), b"aaaa")
    cache.put((2, 0, "en"), b"bbbb")
    assert cache.get((1, None, "en")) == b"aaaa"  # 1 is now the most recent
    cache.put((3, 1, "it"), b"cccc")
    assert cache.get((2, 0, "en")) is None and len(cache) == 2
    cache.put((4, 1, "it"), b"x" * 9)  # over the byte bound: older ones go
    assert len(cache) == 1 and cache.get((4, 1, "it")) == b"x" * 9
    cache.put((5, None, "en"), b"y" * 11)  # bigger than the whole cache: not kept
    assert cache.get((5, None, "en")) is None


def test_phase_summary_matches_the_hand() -> None:
    hand, _, _, _ = bluff_hand(160)
    assert hand.result is not None
    summaries = [summarize(hand.events, s) for s in range(4)]
    assert [s.net for s in summaries] == hand.result
    assert sum(s.small_won for s in summaries) >= len(Rules(players=4).deals)
    assert sum(s.closed for s in summaries) == 1
    assert sum(s.big == "won" for s in summaries) >= 1
    figures = phase_figures(summaries)
    assert figures.hands == 4 and figures.closes == 1
    assert 0 < figures.small_won_pct <= 100


def random_hand(seed: int, players: int) -> Hand:
    """A finished hand of random legal actions: random bets and any declarable point (so
    lower declarations and concessions happen often)."""
    rng = random.Random(seed)
    hand = Hand.start(Rules(players=players), [1000] * players, seed % players, seed=seed)
    while hand.to_act is not None:
        hand.act(hand.to_act, rng.choice(hand.legal_actions()))
    return hand


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), players=st.integers(3, 6), viewer=st.integers(-1, 5))
def test_R9_R12_a_frame_shows_a_card_only_once_the_table_saw_it(
    seed: int, players: int, viewer: int
) -> None:
    """Invariant: a card is visible in frame i only if it was declared, played or shown as a
    special-hand proof by then, or is the viewer's own (dealt to them)."""
    hand = random_hand(seed, players)
    seat = viewer if 0 <= viewer < players else None
    events = hand.events
    frames = replay_frames(ReplaySetup(tuple(events), tuple(f"P{i}" for i in range(players)),
                                       viewer=seat))
    mine = {c for e in events if e.kind == "deal" and e.seat == seat for c in e.data()["cards"]}
    declared: set[str] = set()
    for frame in frames:
        declared |= {c for s in frame.table.seats for c in s.shown}
    assert declared <= {c for e in events if e.kind == "declare" for c in e.data()["cards"]}
    proofs = {c for e in events if e.kind == "special" for c in e.data()["cards"]}
    for i, frame in enumerate(frames):
        allowed = declared | played_before(frames, i) | mine | proofs
        assert frame.visible_cards() <= allowed
        if seat is None:
            assert frame.own == ()
    assert hand.result is not None
    assert [s.chips for s in frames[-1].table.seats] == hand.result


def test_chart_marks_the_hands_and_is_a_png() -> None:
    from bot.render.chart import CLOSE_COLOUR, SPECIAL_COLOUR, ChartPoint, ChipChart, chart_image
    from bot.render.chart import render_chart as chart_png
    from bot.render.theme import GOLD

    def colours(points: tuple[ChartPoint, ...]) -> set[object]:
        image = chart_image(ChipChart(points, "Anna", "it"))
        plot = image.crop((78, 64, 776, 322))  # the plot area (the legend is below it)
        return {c for _, c in plot.getcolors(maxcolors=1 << 20) or []}

    plain = colours((ChartPoint(-60), ChartPoint(120), ChartPoint(40)))
    assert GOLD not in plain and CLOSE_COLOUR not in plain and SPECIAL_COLOUR not in plain
    marked = colours((ChartPoint(-60, big_won=True), ChartPoint(120, closed=True),
                      ChartPoint(40, special=True)))
    assert {GOLD, CLOSE_COLOUR, SPECIAL_COLOUR} <= marked
    png = chart_png(ChipChart((ChartPoint(10),), "Anna"))
    with Image.open(io.BytesIO(png)) as image:
        assert image.format == "PNG" and image.size == (800, 380)
