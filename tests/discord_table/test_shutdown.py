"""`StoppaBot.close()` stops everything it started: the table service's timers, the publisher's
workers, the cogs, the store's connection (its worker thread too)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from tests.discord_table.conftest import publisher
from tests.discord_table.test_game import open_table
from tests.harness import Harness


def sqlite_threads() -> set[threading.Thread]:
    """The live worker threads of SQLite store connections."""
    return {th for th in threading.enumerate() if "_connection_worker_thread" in th.name}


async def test_close_leaves_no_task_no_thread_and_no_open_database(tmp_path: Path) -> None:
    threads_before = sqlite_threads()
    async with Harness.create(tmp_path, seed=2, turn_timeout=60.0, publish_interval=30.0) as h:
        members = [h.member(name) for name in ("Anna", "Bruno", "Carla")]
        await open_table(h, members)
        bot, service, store = h.bot, h.bot.tables, h.bot.store
        cog = bot.get_cog("TableCog")
        assert cog is not None
        # running now: the turn clock of the table, the publisher's worker (throttled)
        assert any(s.task is not None and not s.task.done()
                   for s in publisher(h)._slots.values())
        assert len(sqlite_threads() - threads_before) == 1
        started = {t for t in asyncio.all_tasks() if t not in h._baseline and not t.done()}
        started.discard(asyncio.current_task())  # type: ignore[arg-type]
        assert started

        await bot.close()

        left = [t for t in started if not t.done()]
        assert left == []
        assert bot.tables is None and bot.store is None and bot.cogs == {}
        assert service.stopped and publisher_closed(cog)
        with pytest.raises(ValueError):  # the store refuses a closed connection
            await store.balance(h.guild_id, members[0].id)
        for _ in range(100):  # the worker thread ends right after the close
            if not sqlite_threads() - threads_before:
                break
            await asyncio.sleep(0.01)
        assert sqlite_threads() - threads_before == set()


def publisher_closed(cog: object) -> bool:
    """The cog's publisher accepts no more work and holds no worker."""
    pub = cog.publisher  # type: ignore[attr-defined]
    return bool(pub._closing) and pub._slots == {}
