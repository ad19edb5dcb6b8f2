"""`CpuTurns`: the CPU seats of one table choose their moves (in a thread) and play them.

When a CPU seat is to act after a commit, a task thinks off the event loop (after the
service's `cpu_delay`, on its clock) and applies the move under the session's lock if the
turn is still the one it thought about; a CPU that fails (or chooses an illegal action) plays
the engine's default action.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from bot.engine import Action
from bot.players import CpuPlayer
from bot.tables.cpus import is_cpu

if TYPE_CHECKING:
    from bot.tables.session import TableSession

log = logging.getLogger("stoppa.tables")


class CpuTurns:
    """The CPU players of `session`'s seats and their turns (see the module docstring)."""

    def __init__(self, session: TableSession) -> None:
        self.session = session
        self.players: dict[int, CpuPlayer] = {}
        #: the CPU turn scheduled last (`played` waits for the chain of them)
        self.task: asyncio.Task[None] | None = None

    @property
    def delay(self) -> float:
        """The pause before a CPU move: the service's, none at an untimed (practice) table."""
        return self.session.shared.cpu_delay if self.session.policy.timed else 0.0

    async def played(self) -> None:
        """Wait until no CPU seat is to act (each move schedules the next one's task)."""
        while self.task is not None and not self.task.done():
            await asyncio.wait({self.task})

    def player(self, user: int) -> CpuPlayer:
        """The CPU player of seat `user` (built once, with the seat's own seed drawn when it
        sat: never from the table's secret or seed, so it cannot know a future deck)."""
        player = self.players.get(user)
        if player is None:
            meta = self.session.meta
            seed = meta.cpu_seeds.get(user)
            if seed is None:  # a row saved before every kind drew the seed at seating
                seed = meta.cpu_seeds.setdefault(user, self.session.shared.cpu_seed())
            player = self.session.shared.player_factory(meta.cpus[user], seed)
            self.players[user] = player
        return player

    def to_play(self) -> int | None:
        """The CPU seat to act now (not leaving, not sat out), or None."""
        session = self.session
        hand, meta = session.hand, session.meta
        if session.shared.stopped or session.closed or hand is None or not session.in_hand:
            return None
        if hand.to_act is None:
            return None
        user = meta.players[hand.to_act]
        if not is_cpu(user) or user not in meta.cpus or user in meta.leaving:
            return None
        return None if user in meta.away else user

    def schedule(self) -> None:
        """If a CPU seat is to act, let it choose and play."""
        user = self.to_play()
        if user is None:
            return
        shared, meta = self.session.shared, self.session.meta
        wake = shared.clock.now() + self.delay
        task = asyncio.get_running_loop().create_task(
            self.turn(user, meta.hand_no, meta.turn, wake)
        )
        self.task = task
        shared.track_cpu(task)
        if self.delay <= 0:
            shared.mark_busy(task)

    async def turn(self, user: int, hand_no: int, turn: int, wake: float) -> None:
        """One CPU move: think in a thread, then apply it under the lock if still current."""
        session, shared = self.session, self.session.shared
        try:
            if self.delay > 0:
                await shared.clock.sleep_until(wake)
                task = asyncio.current_task()
                if task is not None:
                    shared.mark_busy(task)
            hand = session.hand
            seat = session.meta.seat_of(user)
            if session.closed or hand is None or session.meta.turn != turn:
                return
            if seat is None or hand.to_act != seat:
                return
            action = await self.choose(user, seat)
            async with session.lock:
                if session.meta.turn != turn or session.meta.hand_no != hand_no:
                    return
                if session.closed or session.hand is None:
                    return
                if action is None or not session.hand.can(seat, action):
                    action = session.hand.default_action(seat)
                updates = await session.apply(user, action, hand_no, turn, source="cpu")
            await shared.publish(updates)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: CPU move failed", session.id)

    async def choose(self, user: int, seat: int) -> Action | None:
        """The CPU's choice, thought in a thread (None when it failed)."""
        hand = self.session.hand
        assert hand is not None
        view, legal, events = hand.seat_view(seat), hand.legal_actions(), hand.events_for(seat)
        try:
            return await asyncio.to_thread(self.player(user).choose, view, legal, events)
        except Exception:
            log.exception("table %s: CPU %s failed to choose; defaulting", self.session.id, user)
            return None
