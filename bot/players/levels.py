"""The CPU levels and the factory that builds a player of one.

It sits above `base`, `easy`, `hard` and `expert` (which import only `base`, `strategy` and
their search modules), so the package's imports run one way: base <- strategy <- easy/hard/expert
<- levels.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.players.base import CpuPlayer, RandomPlayer
from bot.players.easy import EasyPlayer
from bot.players.expert import ExpertPlayer
from bot.players.hard import HardPlayer

#: Every level, weakest first; the keys of `FACTORIES`.
LEVELS: tuple[str, ...] = ("random", "easy", "hard", "expert")

FACTORIES: dict[str, Callable[[int | None], CpuPlayer]] = {
    "random": RandomPlayer,
    "easy": EasyPlayer,
    "hard": HardPlayer,
    "expert": ExpertPlayer,
}


def make_player(level: str, seed: int | None = None) -> CpuPlayer:
    """A CPU player of `level` ("random", "easy", "hard" or "expert"), deterministic given
    `seed`.

    Given the same seed and the same sequence of views and legal actions, a player makes the
    same decisions: the easy, hard and expert levels budget their searches in samples and
    simulated card plays, not in time.
    """
    factory = FACTORIES.get(level)
    if factory is None:
        raise ValueError(f"unknown CPU level {level!r}: choose one of {', '.join(LEVELS)}")
    return factory(seed)
