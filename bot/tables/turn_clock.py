"""`TurnClock`: the turn timer of one table (a task asleep until the deadline of the turn).

When the deadline passes, the session plays the default action of whoever is to act
(`TurnClock.on_timeout`, under the session's lock). A new deadline, hand or turn re-arms the timer;
while nobody can see the table (its message cannot be posted) the clock is paused.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.tables.hands import note, timeout_notice
from bot.tables.updates import Update

if TYPE_CHECKING:
    from bot.tables.session import TableSession

log = logging.getLogger("stoppa.tables")


@dataclass(frozen=True, slots=True)
class TimerKey:
    """Which turn a running timer is for (a new deadline, hand or turn re-arms it)."""

    deadline: float
    hand_no: int
    turn: int


class TurnClock:
    """The turn timer of `session` (see the module docstring)."""

    def __init__(self, session: TableSession) -> None:
        self.session = session
        self.task: asyncio.Task[None] | None = None
        self.key: TimerKey | None = None
        #: paused while nobody can see the table (`TableService.pause_clock`)
        self.paused = False

    def cancel(self) -> None:
        """Stop the timer, if any."""
        if self.task is not None:
            self.task.cancel()
        self.task = None
        self.key = None

    def arm(self, *, retry: bool = False) -> None:
        """Run the timer for the current deadline (a retry never fires in the past)."""
        if self.paused:
            return
        session = self.session
        clock = session.shared.clock
        deadline = session.row.deadline
        if session.shared.stopped or session.closed or deadline is None or not session.in_hand:
            self.cancel()
            return
        if retry and deadline <= clock.now():
            deadline = clock.now() + session.timeout
        key = TimerKey(float(deadline), session.meta.hand_no, session.meta.turn)
        if self.task is not None and self.key == key and not self.task.done():
            return
        self.cancel()
        self.key = key
        self.task = asyncio.get_running_loop().create_task(self.run(key))

    async def run(self, key: TimerKey) -> None:
        """Sleep until the deadline, then play the default action of whoever is to act."""
        session = self.session
        await session.shared.clock.sleep_until(key.deadline)
        task = asyncio.current_task()
        if self.task is task:
            self.task = None
            self.key = None
        if task is not None:
            session.shared.mark_busy(task)
        try:
            async with session.lock:
                updates = await self.on_timeout(key.hand_no, key.turn)
            await session.shared.publish(updates)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: turn timeout failed", session.id)

    async def on_timeout(self, hand_no: int, turn: int) -> list[Update]:
        """The turn's time is up: its default action. After `meta.away_after` in a row the
        player is sat out (their turns are passed for them until they are back; after a whole
        hand sat out they leave at its end), or leaves at the hand's end (`away_mode`
        "leave")."""
        session = self.session
        meta = session.meta.copy()
        hand = session.hand
        if self.paused or session.closed or hand is None or not session.in_hand:
            return []
        if hand.to_act is None or meta.hand_no != hand_no or meta.turn != turn:
            return []  # somebody acted meanwhile
        seat = hand.to_act
        user = meta.players[seat]
        action = hand.default_action(seat)
        moves, events = session.step(meta, seat, action)
        meta.timeouts[user] = meta.timeouts.get(user, 0) + 1
        notices = [timeout_notice(user, action)]
        count = meta.timeouts[user]
        if count >= meta.away_after and user not in meta.leaving and user not in meta.away:
            if meta.away_mode == "leave":
                meta.leaving.append(user)
                notices.append(note("tables.timeouts_removed", player=user, count=count))
            else:
                meta.away[user] = meta.hand_no
                notices.append(note("living.sat_out", player=user, count=count))
        return await session.play_on(meta, moves, events, notices, "timeout")
