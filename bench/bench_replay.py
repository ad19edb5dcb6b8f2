"""Replay speed and size: 4-player hands played by CPU players, drawn and encoded as animated
lossless WebP and as GIF, plus the /stats chart and a cache hit.

``run(size)`` returns, over the hands: the median and largest frame count, the median and
largest CPU time (``process_time``: steadier than the wall clock when other processes share
the cores) and wall time of a whole replay (frames built, drawn, encoded), the median and
largest file size, for WebP and for GIF; the chart's render time; a cache hit's time.
Targets (issue 19): a 4-player replay under 1.5 s of CPU and under 8 MiB.
Run: ``.venv/bin/python bench/bench_replay.py [small|full]``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from bot.engine import Hand, Rules
from bot.players import make_player
from bot.render.chart import ChartPoint, ChipChart, render_chart
from bot.render.replay import ReplayCache, render_replay
from bot.render.replay_frames import ReplaySetup, replay_frames

SIZES = {"small": 2, "full": 20}  # hands
NAMES = ("Giulia", "Marco", "Sofia", "Luca")


def hands(count: int, seed: int = 11) -> list[Hand]:
    """`count` finished 4-player hands (hard, easy, hard, easy)."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        cpus = [make_player(("hard", "easy")[i % 2], rng.randrange(2**31)) for i in range(4)]
        hand = Hand.start(Rules(players=4), [1000] * 4, rng.randrange(4),
                          seed=rng.randrange(2**31))
        while hand.to_act is not None:
            seat = hand.to_act
            hand.act(seat, cpus[seat].choose(
                hand.seat_view(seat), hand.legal_actions(), hand.events_for(seat)
            ))
        out.append(hand)
    return out


def replay(hand: Hand, fmt: str) -> tuple[int, int, float, float]:
    """(frames, bytes, CPU ms, wall ms) of one private replay, frames built to bytes."""
    cpu, wall = time.process_time(), time.perf_counter()
    frames = replay_frames(ReplaySetup(tuple(hand.events), NAMES, hand_no=1, viewer=0, lang="it"))
    data = render_replay(frames, fmt)
    return (len(frames), len(data), (time.process_time() - cpu) * 1e3,
            (time.perf_counter() - wall) * 1e3)


def run(size: str = "full") -> dict[str, float]:
    """The figures of the module docstring."""
    played = hands(SIZES[size])
    replay(played[0], "webp")  # warm-up: sprites and fonts
    out: dict[str, float] = {}
    for fmt in ("webp", "gif"):
        rows = [replay(h, fmt) for h in played]
        frames = [r[0] for r in rows]
        kib = [r[1] / 1024 for r in rows]
        cpu = [r[2] for r in rows]
        wall = [r[3] for r in rows]
        out[f"{fmt}_frames_median"] = statistics.median(frames)
        out[f"{fmt}_frames_max"] = max(frames)
        out[f"{fmt}_kib_median"] = statistics.median(kib)
        out[f"{fmt}_kib_max"] = max(kib)
        out[f"{fmt}_cpu_ms_median"] = statistics.median(cpu)
        out[f"{fmt}_cpu_ms_max"] = max(cpu)
        out[f"{fmt}_wall_ms_median"] = statistics.median(wall)
    rng = random.Random(5)
    total, points = 0, []
    for _ in range(30):
        total += rng.randint(-300, 400)
        points.append(ChartPoint(total, rng.random() < 0.3, rng.random() < 0.25))
    chart = ChipChart(tuple(points), "Giulia", "it")
    render_chart(chart)
    start = time.process_time()
    for _ in range(5):
        render_chart(chart)
    out["chart_cpu_ms"] = (time.process_time() - start) * 1e3 / 5
    cache = ReplayCache()
    cache.put((1, 0, "it", "webp"), b"x" * 400_000)
    start = time.perf_counter()
    for _ in range(1000):
        cache.get((1, 0, "it", "webp"))
    out["cache_hit_us"] = (time.perf_counter() - start) * 1e3
    return out


if __name__ == "__main__":
    for name, value in run(sys.argv[1] if len(sys.argv) > 1 else "full").items():
        print(f"{name:24} {value:12.2f}")
