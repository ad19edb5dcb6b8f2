"""``shuffle(rng, x)``: exactly ``rng.shuffle(x)`` (same order, same random draws), faster.

``random.Random.shuffle`` spends most of its time in Python-level bookkeeping around each
``getrandbits`` draw. ``fast_shuffle`` makes the same draws (Fisher-Yates from the end, one
``getrandbits(k)`` per index with rejection, as CPython's ``_randbelow_with_getrandbits``) with
a precomputed plan per list size, so a seeded deal stays ``random.Random(seed).shuffle``.
Whether it matches this Python's ``Random.shuffle`` is checked once at import; if it ever does
not, ``shuffle`` is the standard method. Used for the deck (``Hand.start``) and by the CPU
players' sampling, which must stay deterministic from their seeds.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

Plan = tuple[tuple[int, int, int], ...]
_PLANS: dict[int, Plan] = {}


def _plan(size: int) -> Plan:
    """(index, index + 1, bits) for each step of a shuffle of ``size`` items (cached)."""
    plan = _PLANS.get(size)
    if plan is None:
        plan = _PLANS[size] = tuple(
            (i, i + 1, (i + 1).bit_length()) for i in reversed(range(1, size))
        )
    return plan


def fast_shuffle(rng: random.Random, x: list[Any]) -> None:
    """Shuffle ``x`` in place exactly as ``rng.shuffle(x)`` does (see the module docstring)."""
    plan = _PLANS.get(len(x)) or _plan(len(x))
    getrandbits = rng.getrandbits
    for i, n, k in plan:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def _is_exact() -> bool:
    """Whether ``fast_shuffle`` reproduces this Python's ``Random.shuffle``."""
    for seed in (0, 1, 12345, 2**40 + 3):
        for size in (7, 40, 300):
            a, b = list(range(size)), list(range(size))
            random.Random(seed).shuffle(a)
            fast_shuffle(random.Random(seed), b)
            if a != b:
                return False
    return True


#: the shuffle to use: ``fast_shuffle`` when it is exact here, else ``random.Random.shuffle``
shuffle: Callable[[random.Random, list[Any]], None] = (
    fast_shuffle if _is_exact() else random.Random.shuffle
)
