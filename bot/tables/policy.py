"""`HandPolicy`: what differs between kinds of table, asked by the session that drives it.

A `TableSession` runs every table the same way (its lock, the engine, one transaction per
change, the turn clock, the CPU seats). What a kind of table decides is its policy's, chosen
when the session is built (`TableService(policy_for=...)`, from the table's meta):

- who may sit, add a CPU or call the round (`check_seating`) and what leaving means (`leave`);
- who is dealt into the next hand, with which stacks and stakes, or whether the table waits
  in the lobby or closes (`next_hand`, which ends in `session.dealing.deal`);
- which chips move while a hand plays (`moves`: server chips through the ledger, or none);
- what settles a finished hand (`settle`, in the transaction of the hand's end);
- what the seats show between hands (`chips`) and what the snapshot adds (`snapshot`);
- what happens when the table closes (`before_close`) and when it is resumed (`on_resume`);
- whether it is a channel's table (`channel_table`) and plays to time (`timed`).

`bot.tables` defines this Protocol and the cash policy (`bot.tables.policies.cash`); the
tournament policy lives beside the tournament code (`bot.tournaments.table_policy`) and
imports `bot.tables`, never the other way (at run time): the tournament code gives the
service its chooser and the reader of its part of a stored meta (`TableService(policy_for=...,
read_tournament=...)`). A new kind of table is a new class with these methods: the practice
table (`bot.tables.policies.practice`) is one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from bot.store import HandRecord, Move, TournamentSave

if TYPE_CHECKING:
    from bot.engine import Event, Hand
    from bot.tables.meta import TableMeta
    from bot.tables.session import TableSession
    from bot.tables.updates import Notice, TableState, Update


@dataclass
class Settled:
    """How a policy settles a finished hand: the seats after it, the notices to add, the
    hand's record as saved, and the kind's own state written in the same transaction."""

    seats: list[int]
    #: None: no hand record is saved (a practice hand: no history, stats or ratings)
    record: HandRecord | None
    notices: list[Notice] = field(default_factory=list)
    tournament: TournamentSave | None = None
    #: the next hand is not dealt (e.g. the kind's state was refused: the table closes)
    close: bool = False


class HandPolicy(Protocol):
    """What a kind of table decides (see the module docstring)."""

    #: whether people may sit, add CPU seats and call the round
    seats_open: bool
    #: a table between hands is dealt again at a resume even if it waits in the lobby
    deals_at_resume: bool
    #: the table is its channel's (found by channel; a seat at it is the member's seat in the
    #: server; its changes reach the listeners); False: a member's own (practice) table
    channel_table: bool
    #: turns run on the turn clock and CPU seats take the service's pause; False: the member
    #: alone waits for themselves (no clock) and the CPU seats play at once
    timed: bool

    def check_seating(self) -> None:
        """Raise TableError when nobody may sit, add a CPU or call the round here."""
        ...

    async def leave(self, session: TableSession, user: int, kind: str,
                    notice: Notice) -> list[Update]:
        """`user` leaves (or is kicked): what that means at this kind of table."""
        ...

    async def next_hand(
        self, session: TableSession, meta: TableMeta, notices: list[Notice], *,
        strict: bool, after_hand: bool,
    ) -> list[Update]:
        """Between hands: deal (`session.dealing.deal`), wait in the lobby or close."""
        ...

    def moves(self, players: Sequence[int], before: Sequence[int], after: Sequence[int],
              events: Sequence[Event], hand_no: int, paying: str = "") -> list[Move]:
        """The chip movements of a step of the hand (none when the chips are the kind's)."""
        ...

    async def settle(self, session: TableSession, meta: TableMeta, hand: Hand,
                     record: HandRecord, notices: list[Notice]) -> Settled:
        """The hand is over (`meta` already holds its ending): who stays, what is saved."""
        ...

    async def chips(self, session: TableSession) -> dict[int, int]:
        """What each seat shows between hands."""
        ...

    def snapshot(self, session: TableSession, state: TableState) -> TableState:
        """The public snapshot with what this kind adds."""
        ...

    async def before_close(self, session: TableSession, meta: TableMeta) -> list[Notice]:
        """The table closes now: what the kind does first (and says)."""
        ...

    async def on_resume(self, session: TableSession) -> list[Update]:
        """At a resume, before anything else: updates when the table had to close."""
        ...


class NoExtras:
    """The part of a policy for a kind that adds nothing to the snapshot, does nothing of its
    own when the table closes and resumes where it was (cash and practice tables)."""

    def snapshot(self, session: TableSession, state: TableState) -> TableState:
        """Nothing to add."""
        return state

    async def before_close(self, session: TableSession, meta: TableMeta) -> list[Notice]:
        """Nothing of the kind's own (the session refunds what the escrow holds)."""
        return []

    async def on_resume(self, session: TableSession) -> list[Update]:
        """Nothing: the table goes on where it was."""
        return []


#: Chooses the policy of a table from its meta (`TableService(policy_for=...)`).
PolicyChooser = Callable[["TableMeta"], HandPolicy]


class UnknownKind(Exception):
    """A stored table of a kind this service was not given a policy for."""
