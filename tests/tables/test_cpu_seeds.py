"""CPU seats draw their own seeds as they sit, the same way at every kind of table (cash,
practice, tournament): every saved meta names a seed for each CPU seat, and a CPU plays with
the seed saved when it sat."""

from __future__ import annotations

from typing import Any

from bot.players import RandomPlayer
from bot.store import TableSave
from tests.tables.helpers import GUILD, Harness

MEMBER = 77


def recording_saves(h: Harness) -> list[dict[str, Any]]:
    """The metas of every table save from now on, in order."""
    saved: list[dict[str, Any]] = []
    save_table = h.store.save_table

    async def save(table: int, change: TableSave, **fence: Any) -> Any:
        if isinstance(change.meta, dict):
            saved.append(dict(change.meta))
        return await save_table(table, change, **fence)

    h.store.save_table = save
    return saved


async def test_practice_cpus_draw_their_seeds_when_they_sit(h: Harness) -> None:
    built: dict[int, int] = {}  # seed -> times a CPU player was built with it

    def factory(level: str, seed: int) -> RandomPlayer:
        built[seed] = built.get(seed, 0) + 1
        return RandomPlayer(seed)

    h.svc.shared.player_factory = factory
    saved = recording_saves(h)
    state = await h.svc.open_practice(GUILD, MEMBER, 3, "easy")
    assert saved, "the opening deal saves the table"
    seated = saved[0]  # the first deal: the CPU seats have just sat
    assert len(seated["cpus"]) == 3
    assert set(seated["cpu_seeds"]) == set(seated["cpus"])
    for meta in saved:
        assert meta["cpu_seeds"] == seated["cpu_seeds"]  # drawn once, never again
    assert set(built) <= set(seated["cpu_seeds"].values())
    row = await h.store.get_table(state.table_id)
    assert {int(u): s for u, s in row.meta["cpu_seeds"].items()} == seated["cpu_seeds"]
