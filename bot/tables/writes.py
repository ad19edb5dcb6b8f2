"""`Writes`: how a table's change reaches the store, and what memory does when it does not.

A commit (`TableSession.commit`) is one `TableSave` under the table's lease (`change` builds
it: the turn's deadline, the dealer's seat, the meta's JSON). When the write fails, memory is
rebuilt from the last saved row, so memory and database always agree; when the lease went to
another process, the session lets the table go (no timer, no CPU turn, no write).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.engine import Hand
from bot.store import (
    UNSET,
    HandRecord,
    InsufficientFunds,
    LeaseLost,
    Move,
    TableRow,
    TableSave,
    TournamentSave,
    Unset,
    VersionConflict,
)
from bot.tables.errors import TableError
from bot.tables.meta import TableMeta

if TYPE_CHECKING:
    from bot.tables.session import TableSession

log = logging.getLogger("stoppa.tables")


class Writes:
    """The store writes of `session`'s table (see the module docstring)."""

    def __init__(self, session: TableSession) -> None:
        self.session = session

    def change(
        self, meta: TableMeta, hand: Hand | None, *, state: str | Unset | None,
        status: str | None, seats: list[int] | None, moves: Sequence[Move],
        record: HandRecord | None, tournament: TournamentSave | None,
    ) -> TableSave:
        """The save of a commit that leaves the table with `meta` and `hand`: a new turn gets
        a fresh deadline (on a timed table); other changes (a join) keep the running one."""
        session = self.session
        row = session.row
        deadline: float | Unset | None = None
        dealer: int | Unset | None = UNSET
        if hand is not None and hand.phase != "over":
            new_turn = hand is not session.hand or meta.turn != session.meta.turn
            deadline = (
                session.shared.clock.now() + session.timeout
                if new_turn or not row.deadline else UNSET
            ) if session.policy.timed else None
            seats_now = seats if seats is not None else row.seats
            dealer = seats_now.index(meta.dealer) if meta.dealer in seats_now else None
        return TableSave(
            expected_version=row.version,
            status=UNSET if status is None else status,
            seats=UNSET if seats is None else seats,
            dealer=dealer,
            state=state,
            meta=meta.to_dict(),
            deadline=deadline,
            moves=moves,
            hand=record,
            tournament=tournament,
        )

    async def write(self, change: TableSave) -> TableRow:
        """Save `change` in one transaction; on failure memory is rebuilt from the store (a
        lost lease lets the table go) and a refusal becomes a TableError."""
        session = self.session
        try:
            return await session.shared.store.save_table(
                session.id, change, **session.shared.fence()
            )
        except LeaseLost as exc:  # another process drives the table now: let go, no write
            log.warning("table %s: lease lost; no longer driven here", session.id)
            self.let_go()
            raise TableError("busy") from exc
        except Exception as exc:
            log.warning("table %s: commit failed (%r); rebuilding from the store",
                        session.id, exc)
            await self.reload()
            if isinstance(exc, InsufficientFunds):
                raise TableError("not_enough_chips_now") from exc
            if isinstance(exc, VersionConflict):
                raise TableError("busy") from exc
            raise

    def let_go(self) -> None:
        """Stop driving the table (its lease went to another process): no timer, no CPU turn,
        and the service forgets it. The database is left as the new owner has it."""
        session = self.session
        session.closed = True
        session.clock.cancel()
        session.shared.on_close(session.id)

    def rebuild(self) -> None:
        """Memory back to the last saved row (state JSON and meta)."""
        session = self.session
        row = session.row
        session.meta = session.shared.read_meta(row.meta)
        session.hand = Hand.from_json(row.state) if row.state else None
        if session.hand is not None and session.hand.phase == "over" and row.status != "playing":
            session.hand = None

    async def reload(self) -> None:
        """Re-read the row from the store (after a failed commit) and rebuild memory."""
        session = self.session
        try:
            session.row = await session.shared.store.get_table(session.id)
        except Exception:  # keep the row we had
            log.exception("table %s: cannot reload its row", session.id)
        self.rebuild()
        session.refresh()
        session.clock.arm(retry=True)
