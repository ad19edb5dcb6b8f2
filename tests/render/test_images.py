"""Hand, table and leaderboard images: PNG, size, layout, determinism, safe text, threads."""

from __future__ import annotations

import asyncio
import hashlib
from dataclasses import replace
from io import BytesIO

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

from bot.render import (
    HandSnapshot,
    LeaderboardSnapshot,
    LeaderRowInfo,
    PointInfo,
    SeatInfo,
    TableSnapshot,
    hand_alt_text,
    render_hand,
    render_leaderboard,
    render_table,
)
from bot.render.hand import rows_of, sort_hand
from bot.render.theme import GOLD, NEW
from tests.render.samples import (
    HAND_3,
    HAND_13,
    HAND_STOPPA,
    LEADERBOARD,
    TABLE_BETTING,
    TABLE_SHOWDOWN,
    TABLE_STOPPA,
)

#: sha256 of the reference images, made with Pillow 13.0 (FreeType), the DejaVu Sans 2.37 file in
#: bot/render/fonts/ and this zlib; a Pillow, FreeType or zlib upgrade may change the bytes: look
#: at the images, then update these. (Session 2: Aileron + DejaVu fallback, box-filtered sprites;
#: issue 15: seats counter-clockwise, R-3.)
REFERENCE = {
    "hand_3": "e861318178c0185a918cffd9760583969ee9caa0c14d65e5c7990a707f34ac73",
    "hand_13": "90ad340434ca025cfa07cea9d9ef8b169f485a50c4579d532e725fd174be456f",
    "table_stoppa": "bfb144f10abc9ef4ca8b45f66352f11c4b740e79358b0127902507d13935a454",
    "leaderboard": "3a4917a4765de8cbdad37980ddab3e1680168a022a72f4b4d2bc182dd29e6295",
}


def _open(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(BytesIO(data))
    image.load()
    return image


def _count(image: Image.Image, colour: tuple[int, int, int], tolerance: int = 12) -> int:
    """How many pixels are within `tolerance` of `colour` on every channel."""
    image = image.convert("RGB")
    diff = ImageChops.difference(image, Image.new("RGB", image.size, colour))
    red, green, blue = diff.split()
    worst = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    return sum(worst.histogram()[: tolerance + 1])


def test_reference_images_are_stable() -> None:
    made = {
        "hand_3": render_hand(HAND_3),
        "hand_13": render_hand(HAND_13),
        "table_stoppa": render_table(TABLE_STOPPA),
        "leaderboard": render_leaderboard(LEADERBOARD),
    }
    assert {k: hashlib.sha256(v).hexdigest() for k, v in made.items()} == REFERENCE


def test_same_snapshot_same_bytes() -> None:
    for render, snap in ((render_hand, HAND_13), (render_table, TABLE_SHOWDOWN),
                         (render_leaderboard, LEADERBOARD)):
        assert render(snap) == render(snap)  # type: ignore[operator]


def test_hand_sizes_and_rows() -> None:
    small, large = _open(render_hand(HAND_3)), _open(render_hand(HAND_13))
    assert small.mode == large.mode == "RGB"
    assert large.width <= 800 and small.width <= 800
    assert rows_of(13) == [7, 6] and rows_of(10) == [5, 5] and rows_of(3) == [3]
    assert large.height > small.height + 150  # 13 cards wrap to a second row


def test_hand_sorted_by_suit_for_points_and_by_rank_for_the_stoppa() -> None:
    cards = ("10b", "1d", "7c", "5d", "2b")
    assert sort_hand(cards, "small_point") == ("7c", "1d", "5d", "2b", "10b")
    assert sort_hand(cards, "stoppa") == ("1d", "2b", "5d", "7c", "10b")


def test_hand_marks_new_cards_and_the_best_point() -> None:
    plain = _open(render_hand(replace(HAND_13, new_cards=(), best=None)))
    marked = _open(render_hand(HAND_13))
    assert _count(marked, NEW) > _count(plain, NEW) + 100
    assert _count(marked, GOLD) > _count(plain, GOLD) + 500


def test_empty_hand_renders() -> None:
    image = _open(render_hand(HandSnapshot((), phase="over", lang="it")))
    assert image.width >= 400


def test_tables_of_three_to_six_players() -> None:
    for count in range(3, 7):
        snap = replace(TABLE_STOPPA, seats=TABLE_STOPPA.seats[:count])
        image = _open(render_table(snap))
        assert image.size == (800, 600) and image.mode == "RGB"
    for snap in (TABLE_BETTING, TABLE_SHOWDOWN):
        assert _open(render_table(snap)).size == (800, 600)


def test_table_changes_with_whose_turn_it_is() -> None:
    moved = replace(TABLE_BETTING, seats=tuple(
        replace(s, to_act=i == 0) for i, s in enumerate(TABLE_BETTING.seats)))
    assert render_table(moved) != render_table(TABLE_BETTING)


def test_leaderboard_grows_with_rows() -> None:
    one = _open(render_leaderboard(replace(LEADERBOARD, rows=LEADERBOARD.rows[:1])))
    four = _open(render_leaderboard(LEADERBOARD))
    empty = _open(render_leaderboard(LeaderboardSnapshot((), lang="it")))
    assert four.height > one.height >= empty.height and four.width == 600


@settings(deadline=None, max_examples=25)
@given(st.text(max_size=60), st.integers(-10**9, 10**12))
def test_any_name_or_number_renders(name: str, value: int) -> None:
    seat = SeatInfo(name, abs(value), 13, dealer=True, to_act=True, bet=abs(value) % 1000,
                    cpu=True, shown=("7d",))
    table = TableSnapshot((seat, seat, seat), "small_point", deal_no=0, deals=5,
                          small_pots=(10,) * 5, big_pot=abs(value), title=name)
    assert _open(render_table(table)).size == (800, 600)
    board = LeaderboardSnapshot((LeaderRowInfo(1, name, value),), server=name)
    assert _open(render_leaderboard(board)).width == 600
    assert _open(render_hand(HandSnapshot(("1c",), player=name))).width <= 800


async def test_rendering_from_threads_matches_sequential() -> None:
    snaps = [TABLE_BETTING, TABLE_SHOWDOWN, TABLE_STOPPA] * 2
    expected = [render_table(s) for s in snaps]
    got = await asyncio.gather(*(asyncio.to_thread(render_table, s) for s in snaps))
    assert list(got) == expected


def test_R12_stoppa_hand_in_rank_order_without_a_point() -> None:
    text = hand_alt_text(HAND_STOPPA)
    order = [text.index(f"({code})") for code in ("1d", "1b", "5s", "9b", "10c")]
    assert order == sorted(order)
    with_point = replace(HAND_STOPPA, phase="big_point", best=PointInfo(("10c",), 10, "c"))
    assert _open(render_hand(HAND_STOPPA)).height < _open(render_hand(with_point)).height
