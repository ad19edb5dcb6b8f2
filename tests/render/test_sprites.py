"""Card sprites: 40 distinct faces, figures told apart, legible corners, a back, caching."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.i18n.cards import RANKS, SUITS
from bot.render import render_card
from bot.render.sprites import card_face, mini_card
from bot.render.text import font
from bot.render.theme import SUIT_INK

CODES = [f"{rank}{suit}" for suit in SUITS for rank in RANKS]


def _difference(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference of two same-size images, 0-255."""
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    return sum(ImageStat.Stat(diff).mean) / 3


def test_bundled_scalable_font_works() -> None:
    assert font(20).getbbox("Asso")[2] > font(10).getbbox("Asso")[2] > 0


def test_R1_forty_distinct_faces_and_a_back() -> None:
    images = [render_card(code) for code in CODES] + [render_card("back")]
    assert {im.size for im in images} == {(100, 160)}
    assert {im.mode for im in images} == {"RGBA"}
    assert len({im.tobytes() for im in images}) == 41


def test_sprites_are_cached() -> None:
    assert render_card("7d") is render_card("7d")
    assert render_card("7d", 60) is not render_card("7d")
    assert render_card("7d", 60).size == (60, 96)


@pytest.mark.parametrize("suit", SUITS)
def test_R1_figures_are_told_apart_at_100px(suit: str) -> None:
    fante, cavallo, re = (card_face(f"{rank}{suit}", 100) for rank in (8, 9, 10))
    centre = (22, 12, 78, 104)  # the emblem, away from the corner indexes
    for a, b in ((fante, cavallo), (cavallo, re), (fante, re)):
        assert _difference(a.crop(centre), b.crop(centre)) > 20


@pytest.mark.parametrize("code", ["1c", "7d", "10s", "4b"])
def test_corner_index_is_in_the_suit_colour(code: str) -> None:
    suit = code[-1]
    ink = SUIT_INK[suit]
    corner = card_face(code, 100).convert("RGB").crop((2, 2, 20, 24))
    data = corner.tobytes()
    pixels = zip(data[0::3], data[1::3], data[2::3], strict=True)
    close = sum(1 for px in pixels if sum(abs(p - q) for p, q in zip(px, ink, strict=True)) < 60)
    assert close >= 12, close


def test_mini_cards_differ_by_rank_and_suit() -> None:
    minis = {mini_card(code, 40).tobytes() for code in CODES}
    assert len(minis) == 40
    assert mini_card("7d", 40).size == (40, 56)


def test_bad_code_raises() -> None:
    with pytest.raises(ValueError):
        render_card("11d")
