"""Start-up's objects out of the garbage collector's way (`gc.freeze`).

What the bot builds before it serves (modules, discord.py's command tree, the engine's lookup
tables, the tables it resumed) lives as long as the process, yet every full collection walks
it again and stalls the event loop meanwhile: 37-51 ms in `bench/bench_tables.py small --cpus
hard`, long enough to be a person's slowest click. Frozen after one collection of start-up's
own garbage, it is never walked again (the same run: 1.1-1.4 ms). Reference counting still
frees a frozen object; only a cycle among them would wait for the process to end.
"""

from __future__ import annotations

import gc


def freeze_startup_heap() -> int:
    """Collect start-up's garbage, then freeze every object left; returns how many are frozen
    (`gc.get_freeze_count`)."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


__all__ = ["freeze_startup_heap"]
