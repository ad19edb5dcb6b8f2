"""`python -m bot cluster`: N bot processes that split the shards, kept alive, stopped together.

Each child is an ordinary `python -m bot` with `STOPPA_SHARD_COUNT`/`STOPPA_SHARD_IDS` set to
its block of shards (`split_shards`). The supervisor only watches processes; it holds no game
state (the database does), so a child restarted after a crash resumes its own tables.

- A child that dies is started again after a backoff that doubles while it keeps dying soon
  after its start (`RestartPolicy`); one that dies at once `give_up_after` times in a row, or
  exits with the "bad setting" code 2 (restarting cannot fix a setting), is given up with an
  error line, and the others keep serving their shards.
- SIGTERM or SIGINT is forwarded to every child (they stop as `python -m bot` does, tables
  stay in the database); a child still running `stop_timeout` seconds later is killed.
  Children run in their own session, so a terminal's Ctrl-C reaches them once, through here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from bot.cluster.shards import ShardPlan
from bot.i18n import counted
from bot.metrics.settings import cluster_environment

_log = logging.getLogger("stoppa.cluster")

#: The exit code of `python -m bot` for a missing token or a bad setting.
CONFIG_EXIT = 2
STOP_SIGNALS: tuple[signal.Signals, ...] = (signal.SIGINT, signal.SIGTERM)


def describe_exit(code: int) -> str:
    """`exited with code 1`, or `was ended by SIGKILL` (asyncio gives a signal as -number)."""
    if code < 0:
        try:
            return f"was ended by {signal.Signals(-code).name}"
        except ValueError:
            return f"was ended by signal {-code}"
    return f"exited with code {code}"


@dataclass(frozen=True)
class RestartPolicy:
    """When a dead child is started again, and when the supervisor stops trying."""

    #: seconds before restarting a child that had been running for a while
    first_delay: float = 1.0
    #: the longest wait between two starts
    max_delay: float = 60.0
    #: a child that ends within this many seconds of its start "died at once"
    quick_exit: float = 10.0
    #: give a child up after this many deaths at once in a row
    give_up_after: int = 5
    #: seconds between forwarding the stop signal and killing a child still running
    stop_timeout: float = 30.0

    def delay(self, quick_deaths: int) -> float:
        """The wait before the next start, after `quick_deaths` deaths at once in a row."""
        return min(self.max_delay, self.first_delay * 2 ** quick_deaths)


@dataclass
class Child:
    """One supervised process and what happened to it."""

    index: int
    plan: ShardPlan
    starts: int = 0
    gave_up: bool = False
    pids: list[int] = field(default_factory=list)

    @property
    def name(self) -> str:
        """How the logs call it: `process 2 (shards 4-7 of 8)`."""
        plan = self.plan
        return f"process {self.index} (shards {plan.describe_ids()} of {plan.shard_count})"

    def environment(self, base: Mapping[str, str]) -> dict[str, str]:
        """`base` with this child's shard settings."""
        return {
            **base,
            "STOPPA_SHARD_COUNT": str(self.plan.shard_count),
            "STOPPA_SHARD_IDS": self.plan.describe_ids(),
            **cluster_environment(base, self.index),  # its own metrics port: base + index
        }


class Supervisor:
    """Runs `command` once per plan, restarts the dead, stops all on SIGTERM/SIGINT."""

    def __init__(
        self,
        command: Sequence[str],
        plans: Sequence[ShardPlan],
        *,
        policy: RestartPolicy | None = None,
        env: Mapping[str, str] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.command = tuple(command)
        self.children = [Child(index, plan) for index, plan in enumerate(plans)]
        self.policy = policy or RestartPolicy()
        self.env = dict(os.environ if env is None else env)
        self.clock = clock
        self._stopping = asyncio.Event()
        self._signal = signal.SIGTERM

    def request_stop(self, sig: signal.Signals = signal.SIGTERM) -> None:
        """Stop every child (forwarding `sig`) and end `run`."""
        if not self._stopping.is_set():
            stopping = counted(len(self.children), "process", "processes")
            _log.info("%s received: stopping %s", sig.name, stopping)
            self._signal = sig
            self._stopping.set()

    async def run(self) -> int:
        """Supervise until stopped or every child was given up; 0 after a clean stop, 1 when
        a child was given up."""
        loop = asyncio.get_running_loop()
        handled: list[signal.Signals] = []
        for sig in STOP_SIGNALS:
            try:
                loop.add_signal_handler(sig, self.request_stop, sig)
            except (NotImplementedError, RuntimeError):  # no signal handlers here
                continue
            handled.append(sig)
        try:
            await asyncio.gather(*(self._keep_alive(child) for child in self.children))
        finally:
            for sig in handled:
                loop.remove_signal_handler(sig)
        given_up = [child.name for child in self.children if child.gave_up]
        if given_up:
            _log.error("stopped; given up: %s", ", ".join(given_up))
            return 1
        _log.info("every process stopped")
        return 0

    async def _keep_alive(self, child: Child) -> None:
        quick_deaths = 0
        while not self._stopping.is_set():
            started = self.clock()
            try:
                code = await self._run_once(child)
            except OSError as exc:  # the command cannot be started at all
                _log.error("%s could not start %r: %s; not restarted", child.name,
                           self.command[0], exc.strerror or exc)
                child.gave_up = True
                return
            if code is None or self._stopping.is_set():
                return
            ran = self.clock() - started
            quick_deaths = quick_deaths + 1 if ran < self.policy.quick_exit else 0
            if code == CONFIG_EXIT:
                _log.error("%s exited with code %d (a missing token or a bad setting: see its"
                           " message above); not restarted", child.name, code)
                child.gave_up = True
                return
            if quick_deaths >= self.policy.give_up_after:
                _log.error("%s died %s in a row within %gs of its start (last: %s); not restarted",
                           child.name, counted(quick_deaths, "time", "times"),
                           self.policy.quick_exit, describe_exit(code))
                child.gave_up = True
                return
            delay = self.policy.delay(quick_deaths)
            _log.warning("%s %s after %.1fs; restarting in %gs",
                         child.name, describe_exit(code), ran, delay)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), delay)

    async def _run_once(self, child: Child) -> int | None:
        """Run the child once: its exit code, or None when it was stopped by `request_stop`.
        Cancelled (the supervisor itself is going away), it kills the child first."""
        process = await asyncio.create_subprocess_exec(
            *self.command, env=child.environment(self.env), start_new_session=True
        )
        child.starts += 1
        child.pids.append(process.pid)
        _log.info("%s started (pid %d)", child.name, process.pid)
        exited = asyncio.ensure_future(process.wait())
        stop = asyncio.ensure_future(self._stopping.wait())
        try:
            await asyncio.wait({exited, stop}, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            raise
        finally:
            stop.cancel()
        if not exited.done():
            await self._stop(child, process, exited)
            return None
        return exited.result()

    async def _stop(
        self, child: Child, process: asyncio.subprocess.Process, exited: asyncio.Future[int]
    ) -> None:
        """Forward the stop signal, wait `stop_timeout`, then kill."""
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(self._signal)
        try:
            code = await asyncio.wait_for(asyncio.shield(exited), self.policy.stop_timeout)
        except TimeoutError:
            _log.warning("%s still running %gs after %s: killed", child.name,
                         self.policy.stop_timeout, self._signal.name)
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            code = await exited
        _log.info("%s stopped (exit code %d)", child.name, code)
