"""The CPU levels and the factory that builds a player of one.

It sits above `base`, `easy` and `hard` (which import only `base` and `strategy`), so the
package's imports run one way: base <- strategy <- easy/hard <- levels.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.players.base import CpuPlayer, RandomPlayer
from bot.players.easy import EasyPlayer
from bot.players.hard import HardPlayer

#: Every level, weakest first; the keys of `FACTORIES`.
LEVELS: tuple[str, ...] = ("random", "easy", "hard")

FACTORIES: dict[str, Callable[[int | None], CpuPlayer]] = {
    "random": RandomPlayer,
    "easy": EasyPlayer,
    "hard": HardPlayer,
}


def make_player(level: str, seed: int | None = None) -> CpuPlayer:
    """A CPU player of `level` ("random", "easy" or "hard"), deterministic given `seed`.

    Given the same seed and the same sequence of views and legal actions, a player makes the
    same decisions: the easy and hard levels budget their searches in samples and simulated
    card plays, not in time.
    """
    factory = FACTORIES.get(level)
    if factory is None:
        raise ValueError(f"unknown CPU level {level!r}: choose one of {', '.join(LEVELS)}")
    return factory(seed)
