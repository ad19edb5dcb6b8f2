"""Render speed: a 13-card hand and a 6-seat table, render + PNG encode, median milliseconds.

``run(size)`` returns the medians (of several timed batches) of: hand render+encode, table
render+encode, a bare ``Image.save(PNG)`` of a blank canvas of each size (same compress level)
and the ratios; the same renders and ratios in CPU time (``process_time``: steadier when other
processes share the cores); the PNG sizes; Pillow's own PNG encoder on the drawn table (what
`png.py` replaces); and the one-off cost of drawing all 40 card sprites from scratch.
Sprites are cached, so the timed renders measure the steady state of a running bot.
Run: ``.venv/bin/python bench/bench_render.py [small|full]``.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from io import BytesIO

from PIL import Image

from bot.render import (
    HandSnapshot,
    PointInfo,
    SeatInfo,
    TableSnapshot,
    render_hand,
    render_table,
    sprites,
)
from bot.render.hand import hand_image
from bot.render.png import encode_png_pillow
from bot.render.table import table_image
from bot.render.theme import PNG_COMPRESS_LEVEL

SIZES = {"small": (3, 4), "full": (9, 40)}  # (batches, renders per batch)

HAND = HandSnapshot(
    cards=("7d", "6d", "1c", "5b", "10b", "2s", "3c", "9d", "8s", "4d", "1b", "1d", "7s"),
    new_cards=("1b", "1d", "7s"),
    phase="small_point",
    best=PointInfo(("7s",), 21, "s"),
    player="Giulia",
    your_turn=True,
    lang="it",
)
TABLE = TableSnapshot(
    seats=tuple(
        SeatInfo(
            f"Player {i}",
            1000 + 37 * i,
            6 - i,
            dealer=i == 2,
            to_act=i == 4,
            status=("in", "passed", "allin", "in", "in", "out")[i],
            bet=20 * (i % 3),
            shown=("7d", "6d", "1d") if i == 0 else (),
            cpu=i % 2 == 1,
        )
        for i in range(6)
    ),
    phase="stoppa",
    stoppa_table=(("5c",), ("6d",), ("7s",), ("8b",), ("1c", "1d", "1s"), ("2b",), ("3d",)),
    needed=4,
    big_pot=200,
    carry=60,
    hand_no=40,
    lang="en",
)


def _median_ms(work: Callable[[], object], batches: int, per_batch: int,
               clock: Callable[[], float] = time.perf_counter) -> float:
    """Median over `batches` of the mean time of one call, in ms, by `clock`."""
    times = []
    for _ in range(batches):
        t0 = clock()
        for _ in range(per_batch):
            work()
        times.append((clock() - t0) * 1000 / per_batch)
    return statistics.median(times)


def _bare_save(size: tuple[int, int]) -> Callable[[], bytes]:
    canvas = Image.new("RGB", size, (24, 86, 56))

    def save() -> bytes:
        buffer = BytesIO()
        canvas.save(buffer, "PNG", optimize=False, compress_level=PNG_COMPRESS_LEVEL)
        return buffer.getvalue()

    return save


def sprite_cold_ms() -> float:
    """Milliseconds to draw all 40 faces and the back from scratch (cache cleared first)."""
    for cached in (sprites.card_face, sprites.card_back, sprites.mini_card, sprites.mini_back,
                   sprites.flat):
        cached.cache_clear()
    t0 = time.perf_counter()
    for code in sprites.all_codes():
        sprites.card_face(code, 100)
    sprites.card_back(100)
    return (time.perf_counter() - t0) * 1000


def run(size: str = "full") -> dict[str, float]:
    """Median render+encode times (ms) and ratios to a bare PNG save of the same canvas size."""
    batches, per_batch = SIZES[size]
    cold = sprite_cold_ms()
    render_hand(HAND)  # warm the caches
    render_table(TABLE)
    hand_size = hand_image(HAND).size
    table_size = table_image(TABLE).size
    hand_ms = _median_ms(lambda: render_hand(HAND), batches, per_batch)
    table_ms = _median_ms(lambda: render_table(TABLE), batches, per_batch)
    bare_hand = _median_ms(_bare_save(hand_size), batches, per_batch)
    bare_table = _median_ms(_bare_save(table_size), batches, per_batch)
    cpu = time.process_time
    hand_cpu = _median_ms(lambda: render_hand(HAND), batches, per_batch, cpu)
    table_cpu = _median_ms(lambda: render_table(TABLE), batches, per_batch, cpu)
    bare_hand_cpu = _median_ms(_bare_save(hand_size), batches, per_batch, cpu)
    bare_table_cpu = _median_ms(_bare_save(table_size), batches, per_batch, cpu)
    drawn = table_image(TABLE)
    pillow_table_cpu = _median_ms(lambda: encode_png_pillow(drawn), batches, per_batch, cpu)
    return {
        "hand13_ms": hand_ms,
        "table6_ms": table_ms,
        "bare_save_hand_ms": bare_hand,
        "bare_save_table_ms": bare_table,
        "hand_vs_bare_ratio": hand_ms / bare_hand,
        "table_vs_bare_ratio": table_ms / bare_table,
        "hand13_cpu_ms": hand_cpu,
        "table6_cpu_ms": table_cpu,
        "hand_vs_bare_cpu_ratio": hand_cpu / bare_hand_cpu,
        "table_vs_bare_cpu_ratio": table_cpu / bare_table_cpu,
        "hand13_png_kb": len(render_hand(HAND)) / 1024,
        "table6_png_kb": len(render_table(TABLE)) / 1024,
        "pillow_encode_table_cpu_ms": pillow_table_cpu,
        "sprites_cold_ms": cold,
    }


if __name__ == "__main__":
    for name, value in run(sys.argv[1] if len(sys.argv) > 1 else "full").items():
        print(f"{name:22s} {value:10.3f}")
