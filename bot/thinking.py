"""`Thinker`: where the CPU players think, their moves and the practice table's hints.

A search in a thread holds the interpreter's lock, so on a busy bot people's clicks queued
behind the CPUs' thinking (`bench/bench_tables.py small --cpus expert`: the people's paced
p99 139 ms against 6.4 ms without CPU seats). A `Thinker` with processes thinks in the
worker processes of a `ProcessPoolExecutor` instead; with none (`STOPPA_CPU_PROCESSES=0`,
the tests' and the benchmarks' default) in a thread, as before. With one worker the people's
paced p99 beside expert CPUs came to 8.4 ms against 126.5 ms in a thread (medians of 5
interleaved pairs, `--cpu-processes 1` against 0, 2026-12-04 on the 2-core VM).

A CPU player is stateful (its rng, its reading of the bets, what the expert has seen), so a
worker receives the player with the seat's view and returns the action *and* the player as
it is after choosing (`Decision`); the caller keeps that player, so a sequence of decisions
is the same in a process as in a thread.

The workers never come from forking this process: it runs an event loop and threads (the
store's, discord.py's), and a fork of it may deadlock. They are forked by a fork server, a
fresh single-threaded process that imported this module once (`spawn` where there is none).

A worker that dies (killed, out of memory) breaks its whole pool: the decision it held is
thought again in a thread (the worker had a copy, so the player is as it was) while a new
pool replaces the broken one in the background. A CPU never loses a turn. A bot that closes
shuts its workers down; one killed outright cannot, so each worker ends when the bot's process
does (`end_with`).

This module imports only the players and the engine: a worker loads no more than it needs.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from bot.engine import prepare
from bot.engine.actions import Action
from bot.engine.events import Event
from bot.engine.views import SeatView
from bot.i18n import counted
from bot.players import CpuPlayer

log = logging.getLogger("stoppa.thinking")

T = TypeVar("T")

#: how much lower the workers' scheduling priority is than the bot's (`os.nice`): where the
#: cores are short, a person's click runs before a CPU's search
WORKER_NICENESS = 5
#: the most worker processes `default_processes` gives a live bot (a decision is one search
#: on one core; more processes than tables thinking at once only cost memory)
DEFAULT_MAX_PROCESSES = 4


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it, as a
    container's cpuset does; else every core)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def default_processes() -> int:
    """A live bot's worker processes when `STOPPA_CPU_PROCESSES` is unset: one core left to
    the event loop, at least one worker, at most `DEFAULT_MAX_PROCESSES`."""
    return min(DEFAULT_MAX_PROCESSES, max(1, usable_cores() - 1))


@dataclass(frozen=True, slots=True)
class Decision:
    """A CPU player's `action`, the `player` as it is after choosing it (its new state) and
    the `seconds` its thinking took where it thought."""

    action: Action
    player: CpuPlayer
    seconds: float


def decide(player: CpuPlayer, view: SeatView, legal: Sequence[Action],
           events: Sequence[Event]) -> Decision:
    """`player.choose(view, legal, events)`, with the player after it (runs in a worker)."""
    start = time.perf_counter()
    action = player.choose(view, legal, events)
    return Decision(action, player, time.perf_counter() - start)


def start_worker() -> None:
    """Each worker's start: Ctrl-C reaches the whole terminal's process group, but the bot
    shuts its workers down itself (a worker killed by SIGINT would break the pool); a lower
    priority than the bot's (`WORKER_NICENESS`); an end when the bot ends without shutting
    it down (killed: a worker waiting for work would wait for ever); and the engine's lookup
    tables, built once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(os, "nice"):
        os.nice(WORKER_NICENESS)
    bot = multiprocessing.parent_process()
    if bot is not None:
        threading.Thread(target=end_with, args=(bot,), name="stoppa-end-with-bot",
                         daemon=True).start()
    prepare()


def end_with(bot: BaseProcess) -> None:
    """Wait for the bot's process to end, then end this worker."""
    bot.join()
    os._exit(0)


def worker_context() -> BaseContext:
    """How workers start: from a fork server that preloaded this module, else `spawn`."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([__name__])  # used when the server starts
        return context
    return multiprocessing.get_context("spawn")


class Thinker:
    """Runs CPU decisions and hints off the event loop: in `processes` worker processes, or
    in a thread when there are none. Build it with `await Thinker.start(processes)`, end it
    with `await close()` (see the module docstring)."""

    def __init__(self, processes: int = 0) -> None:
        self.processes = processes
        #: the running pool (None: think in a thread; also while a broken pool is replaced)
        self.pool: ProcessPoolExecutor | None = None
        #: how many calls were thought in a worker, and in a thread (the tests and bench read)
        self.in_processes = 0
        self.in_threads = 0
        self._renewal: asyncio.Task[None] | None = None
        self._closed = False

    @classmethod
    async def start(cls, processes: int = 0) -> Thinker:
        """A thinker whose `processes` workers have started (0: threads only). Workers that
        cannot start (a system without the semaphores they need) leave it thinking in threads,
        with a warning."""
        thinker = cls(processes)
        if processes > 0:
            try:
                thinker.pool = await asyncio.to_thread(thinker._new_pool)
            except Exception:
                log.warning("CPU thinking processes could not start; thinking in threads",
                            exc_info=True)
        return thinker

    def _new_pool(self) -> ProcessPoolExecutor:
        """A pool with every worker started (blocking; call it in a thread), logged with the
        workers' process ids. Each submit with no idle worker starts one, so `processes`
        calls at once start them all."""
        pool = ProcessPoolExecutor(self.processes, mp_context=worker_context(),
                                   initializer=start_worker)
        try:
            pids = {f.result() for f in [pool.submit(os.getpid) for _ in range(self.processes)]}
        except BaseException:
            pool.shutdown(wait=True, cancel_futures=True)
            raise
        log.info("CPU players think in %s (pids %s)",
                 counted(self.processes, "worker process", "worker processes"),
                 " ".join(map(str, sorted(pids))))
        return pool

    async def decide(self, player: CpuPlayer, view: SeatView, legal: Sequence[Action],
                     events: Sequence[Event]) -> Decision:
        """`player`'s choice in `view` among `legal` and the player after it (`decide`)."""
        return await self.run(decide, player, view, legal, events)

    async def run(self, work: Callable[..., T], *args: Any) -> T:
        """`work(*args)` in a worker, or in a thread when there is no pool or its worker
        died. `work` and its arguments must pickle, and `work` must not depend on anything
        the worker's copy of the arguments changes (the caller gets only the result)."""
        pool = self.pool
        if pool is not None:
            try:
                result = await asyncio.get_running_loop().run_in_executor(pool, work, *args)
            except BrokenProcessPool:
                log.warning("a CPU thinking process died; thinking in a thread while a new"
                            " pool starts")
                self._renew(pool)
            else:
                self.in_processes += 1
                return result
        result = await asyncio.to_thread(work, *args)
        self.in_threads += 1
        return result

    def _renew(self, broken: ProcessPoolExecutor) -> None:
        """Replace the broken pool in the background (once, whoever saw it broken first)."""
        if self.pool is not broken or self._closed:
            return
        self.pool = None
        broken.shutdown(wait=False)
        self._renewal = asyncio.get_running_loop().create_task(self._replace())

    async def _replace(self) -> None:
        """A new pool in place of a broken one; none if it cannot start (then threads, as
        logged), or if the thinker closed meanwhile."""
        try:
            pool = await asyncio.to_thread(self._new_pool)
        except Exception:
            log.exception("CPU thinking processes could not restart; thinking in threads")
            return
        if self._closed:
            await asyncio.to_thread(pool.shutdown, True, cancel_futures=True)
        else:
            self.pool = pool

    async def close(self) -> None:
        """Shut the workers down and wait for them to exit (a call still running finishes;
        any later call thinks in a thread)."""
        self._closed = True
        if self._renewal is not None:
            await self._renewal
        pool, self.pool = self.pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, True, cancel_futures=True)
