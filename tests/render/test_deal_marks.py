"""The hand image marks the cards of the current deal, checked on real hands of the engine.

Each seat's view is turned into a HandSnapshot (bot/render/from_view.py) at every step of whole
hands for 3 to 6 players, with random (seeded) choices so that small-point showdowns happen too.
"""

from __future__ import annotations

import random
from io import BytesIO

from PIL import Image

from bot.engine import Hand, Rules
from bot.render import render_hand
from bot.render.from_view import hand_snapshot
from bot.render.theme import NEW


def _dealt(hand: Hand, seat: int, deal: int) -> tuple[str, ...]:
    """The cards `seat` got in deal `deal`, read from its own deal events."""
    for event in hand.events_for(seat):
        mine = event.kind == "deal" and event.seat == seat
        if mine and event.data().get("deal") == deal:
            return tuple(event.data()["cards"])
    raise AssertionError(f"no deal event {deal} for seat {seat}")


def _new_tag_pixels(data: bytes) -> int:
    image = Image.open(BytesIO(data)).convert("RGB")
    return sum(count for count, colour in image.getcolors(1 << 20) or () if colour == NEW)


def _play(players: int, seed: int, rendered: dict[tuple[str, bool], int]) -> set[tuple]:
    rng = random.Random(seed)
    rules = Rules(players=players)
    hand = Hand.start(rules, [2000] * players, dealer=seed % players, seed=seed)
    seen: set[tuple] = set()
    for _ in range(400):
        for seat in range(players):
            view = hand.seat_view(seat)
            snap = hand_snapshot(view, lang="en")
            phase, deal = view.phase, view.deal_no
            if deal is not None:  # a small point: its betting round or its showdown
                assert phase in ("small_point", "showdown")
                assert sorted(snap.new_cards) == sorted(_dealt(hand, seat, deal))
                assert len(snap.new_cards) == rules.deals[deal]
                assert set(snap.new_cards) <= set(snap.cards)
                assert snap.best is not None and set(snap.best.cards) <= set(snap.new_cards)
            else:  # big point, its showdown, the stoppa, the end: no deal is current
                assert snap.new_cards == ()
            seen.add((phase, deal))
            key = (phase, deal is not None)
            if key not in rendered:  # look at one image of each kind: tags iff a deal is current
                rendered[key] = _new_tag_pixels(render_hand(snap))
        if hand.to_act is None:
            break
        hand.act(hand.to_act, rng.choice(hand.legal_actions()))
    assert hand.phase == "over"
    return seen


def test_R3_every_deal_of_every_phase_marks_exactly_the_cards_just_dealt() -> None:
    rendered: dict[tuple[str, bool], int] = {}
    seen: set[tuple] = set()
    for players in range(3, 7):
        for seed in range(4):
            seen |= _play(players, seed, rendered)
    deals = {deal for phase, deal in seen if phase == "small_point"}
    assert deals >= {0, 1, 2}  # every small point of the hand was checked
    assert {phase for phase, _ in seen} >= {"small_point", "showdown", "big_point", "stoppa"}
    assert ("showdown", True) in rendered and ("showdown", False) in rendered
    for (_phase, current), pixels in rendered.items():
        assert (pixels > 100) == current
