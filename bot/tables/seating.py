"""`Seating`: who sits at a table, joins, leaves or comes back (under the session's lock).

Leaving is the policy's (a cash table's leaver goes at the end of the hand; a tournament's
stays in, sat out); who may sit at all too (`HandPolicy.check_seating`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.tables.cpus import free_cpu_id
from bot.tables.errors import TableError
from bot.tables.hands import note
from bot.tables.limits import MAX_PLAYERS, MIN_BALANCE_ANTES
from bot.tables.shared import Shared
from bot.tables.updates import Notice, Update

if TYPE_CHECKING:
    from bot.tables.session import TableSession


async def check_balance(shared: Shared, guild: int, user: int, ante: int) -> None:
    """Raise TableError("not_enough_chips") unless `user` has 10 antes (of `ante`) to sit."""
    need = MIN_BALANCE_ANTES * ante
    have = await shared.store.balance(guild, user)
    if have < need:
        raise TableError("not_enough_chips", need=need, have=have)


class Seating:
    """The seats of `session` (see the module docstring)."""

    def __init__(self, session: TableSession) -> None:
        self.session = session

    async def seat(self, user: int, cpu: str | None) -> list[Update]:
        """Sit `user` (a human, or a CPU of level `cpu`); deal if the game waits for players."""
        session = self.session
        meta = session.meta.copy()
        seats = [*session.row.seats, user]
        counts = [meta.deals.get(u, 0) for u in session.row.seats]
        meta.deals[user] = min(counts) if counts else 0
        meta.timeouts.pop(user, None)
        if cpu is not None:
            meta.seat_cpu(user, cpu, session.shared.cpu_seed())
            notice = note("tables.cpu_joined", player=user, level=cpu)
        else:
            notice = note("tables.joined", player=user)
        kind = "cpu_added" if cpu else "joined"
        updates = [await session.commit(meta, kind, notices=[notice], seats=seats)]
        if meta.started and not session.in_hand and session.row.status == "lobby":
            updates += await session.next_hand(session.meta.copy())
        return updates

    async def join(self, user: int) -> list[Update]:
        """`user` sits (or stays, if they were leaving at the end of this hand)."""
        session = self.session
        session.check_open()
        session.policy.check_seating()
        if user in session.meta.leaving:  # changed their mind before the hand ended
            meta = session.meta.copy()
            meta.leaving.remove(user)
            meta.timeouts.pop(user, None)
            notice = note("tables.stays", player=user)
            return [await session.commit(meta, "joined", notices=[notice])]
        if user in session.row.seats:
            raise TableError("already_seated")
        self.check_room()
        await check_balance(session.shared, session.row.guild_id, user, session.row.ante)
        return await self.seat(user, None)

    def check_room(self) -> None:
        """Raise TableError("table_full") when every seat is taken."""
        session = self.session
        if len(session.row.seats) >= MAX_PLAYERS:
            raise TableError("table_full", max=MAX_PLAYERS)

    async def add_cpu(self, by: int, level: str) -> list[Update]:
        """Seat a CPU player of `level`; `by` must be seated."""
        session = self.session
        session.check_open()
        session.policy.check_seating()
        session.check_seated(by)
        self.check_room()
        cpu = free_cpu_id(session.id, set(session.row.seats) | set(session.meta.leaving))
        if cpu is None:
            raise TableError("table_full", max=MAX_PLAYERS)
        await check_balance(session.shared, session.row.guild_id, cpu, session.row.ante)
        return await self.seat(cpu, level)

    async def remove(self, user: int, kind: str, notice: Notice) -> list[Update]:
        """`user` leaves (or is kicked): what that means is the policy's."""
        session = self.session
        session.check_open()
        session.check_seated(user)
        return await session.policy.leave(session, user, kind, notice)

    async def start_game(self, user: int) -> list[Update]:
        """Start play: deal the first hand if 3 players can pay the ante."""
        session = self.session
        session.check_open()
        session.check_seated(user)
        if session.in_hand:
            raise TableError("already_started")
        meta = session.meta.copy()
        meta.started = True
        return await session.next_hand(meta, strict=True)

    async def call_round(self, user: int) -> list[Update]:
        """R-14: the table closes once every player has dealt the same number of times."""
        session = self.session
        session.check_open()
        session.check_seated(user)
        session.policy.check_seating()
        meta = session.meta.copy()
        meta.round_called_by = user
        notice = note("tables.round_called", player=user)
        if session.in_hand:
            return [await session.commit(meta, "round_called", notices=[notice])]
        return await session.next_hand(meta, notices=[notice])

    async def back(self, user: int) -> list[Update]:
        """A sat-out `user` is back: their turns are theirs again (nothing if not away)."""
        session = self.session
        session.check_open()
        if user not in session.meta.away:
            return []
        meta = session.meta.copy()
        del meta.away[user]
        if user in meta.left:
            meta.left.remove(user)
        meta.timeouts[user] = 0
        notice = note("living.back", player=user)
        return [await session.commit(meta, "back", notices=[notice])]
