"""`TurnClock`: the turn timer of one table (a task asleep until the deadline of the turn).

The session arms it with the turn's deadline after every commit (a new deadline, hand or turn
re-arms the timer); when the deadline passes, the clock calls what it was given (the
session's timeout, which plays the default action of whoever is to act under the session's
lock). While nobody can see the table (its message cannot be posted) the clock is paused.
`after_timeout` is the rule of absent players, as a value.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.engine import Action
from bot.tables.hands import note, timeout_notice
from bot.tables.meta import TableMeta
from bot.tables.shared import Shared
from bot.tables.updates import Notice

log = logging.getLogger("stoppa.tables")


@dataclass(frozen=True, slots=True)
class TimerKey:
    """Which turn a running timer is for (a new deadline, hand or turn re-arms it)."""

    deadline: float
    hand_no: int
    turn: int


class TurnClock:
    """The turn timer of table `table_id` (see the module docstring); `fire` is called with
    the key of a timer whose deadline passed."""

    def __init__(self, shared: Shared, table_id: int,
                 fire: Callable[[TimerKey], Awaitable[None]]) -> None:
        self.shared = shared
        self.table_id = table_id
        self.fire = fire
        self.task: asyncio.Task[None] | None = None
        self.key: TimerKey | None = None
        #: paused while nobody can see the table (`TableService.table_unseen`)
        self.paused = False

    def cancel(self) -> None:
        """Stop the timer, if any."""
        if self.task is not None:
            self.task.cancel()
        self.task = None
        self.key = None

    def arm(self, deadline: float | None, hand_no: int, turn: int, timeout: float, *,
            retry: bool = False) -> None:
        """Run the timer for `deadline` (None: no turn runs, the timer stops); a retry never
        fires in the past (a full turn of `timeout` from now instead)."""
        if self.paused:
            return
        if deadline is None:
            self.cancel()
            return
        now = self.shared.clock.now()
        if retry and deadline <= now:
            deadline = now + timeout
        key = TimerKey(float(deadline), hand_no, turn)
        if self.task is not None and self.key == key and not self.task.done():
            return
        self.cancel()
        self.key = key
        self.task = asyncio.get_running_loop().create_task(self.run(key))

    async def run(self, key: TimerKey) -> None:
        """Sleep until the deadline, then `fire` (its failure is logged)."""
        await self.shared.clock.sleep_until(key.deadline)
        task = asyncio.current_task()
        if self.task is task:
            self.task = None
            self.key = None
        if task is not None:
            self.shared.mark_busy(task)
        try:
            await self.fire(key)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: turn timeout failed", self.table_id)


def after_timeout(meta: TableMeta, user: int, action: Action) -> list[Notice]:
    """`user`'s turn ran out and `action` was played for them: count it in `meta` and say
    so. After `absence.after` in a row the player is sat out (their turns are passed for
    them until they are back; after a whole hand sat out they leave at its end), or leaves at
    the hand's end (`absence.mode` "leave")."""
    absence = meta.absence = meta.absence.timed_out(user)
    notices = [timeout_notice(user, action)]
    count = absence.count(user)
    if count >= absence.after and user not in meta.in_play.leaving and not absence.is_away(user):
        if absence.mode == "leave":
            meta.in_play = meta.in_play.leaves(user)
            notices.append(note("tables.timeouts_removed", player=user, count=count))
        else:
            meta.absence = absence.sat_out(user, meta.in_play.hand_no)
            notices.append(note("living.sat_out", player=user, count=count))
    return notices
