"""`HandPolicy`: what differs between kinds of table, answered as decisions the session
carries out.

A `TableSession` runs every table the same way (its lock, the engine, one transaction per
change, the turn clock, the CPU seats) and is the only writer of its table. What a kind of
table decides is its policy's, chosen when the session is built (`TableService(policy_for=...)`,
from the table's meta). A policy reads what it is given (`TableFacts`: the stored row, the
meta as committed, the store for its kind's own rows) and answers with a value; it never
holds the session nor writes the table:

- who may sit, add a CPU or call the round (`check_seating`) and what leaving means (`leave`:
  a `Change` or a `Close`);
- who is dealt into the next hand, with which stacks and stakes, or whether the table waits
  in the lobby or closes (`next_hand`: `Deal | Wait | Close`);
- which chips move while a hand plays (`moves`: server chips through the ledger, or none);
- what settles a finished hand (`settle`: `Settled`, written in the hand's transaction);
- what the seats show between hands (`chips`) and what the snapshot adds (`snapshot`);
- what happens when the table closes (`before_close`) and when it is resumed (`on_resume`);
- whether it is a channel's table (`channel_table`) and plays to time (`timed`).

python-chess's variants answer what the `Board` asks and never drive it; pokerkit's `State`
alone writes its fields: the same split here.

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

from bot.store import HandRecord, Move, StoreContract, TableRow, TournamentSave
from bot.tables.errors import UnknownKind

if TYPE_CHECKING:
    from bot.engine import Event, Hand, Rules
    from bot.tables.meta import TableMeta
    from bot.tables.updates import Notice, TableState


@dataclass(frozen=True, slots=True)
class TableFacts:
    """What a policy reads of its table: the stored row, the meta as committed, whether a
    hand is being played, the store (for its kind's own rows and the balances) and the
    service's draw of a new CPU seat's seed."""

    row: TableRow
    meta: TableMeta
    in_hand: bool
    store: StoreContract
    cpu_seed: Callable[[], int]

    @property
    def id(self) -> int:
        """The table id."""
        return self.row.id


@dataclass
class Deal:
    """Deal the next hand: `players` (seat order) with these `stacks` and `rules`, dealt by
    `dealer`, the table's seats then `seats`, `meta` the draft to deal on."""

    meta: TableMeta
    rules: Rules
    players: list[int]
    stacks: list[int]
    dealer: int
    seats: list[int]
    notices: list[Notice]
    carry: int = 0


@dataclass
class Wait:
    """Deal nobody: with a `meta`, the table waits in the lobby with `seats` (written); with
    none, it stays as it is (a practice table waits for its member's Next hand)."""

    meta: TableMeta | None = None
    seats: list[int] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)


@dataclass
class Close:
    """Close the table (the escrow refunded to `seats`, default its seats): `meta` the draft
    to close with (None: the meta as committed then); `announce`, the notices of a
    "tournament_over" update published first."""

    meta: TableMeta | None = None
    notices: list[Notice] = field(default_factory=list)
    seats: Sequence[int] | None = None
    announce: list[Notice] | None = None


@dataclass
class NextHand:
    """Ask the policy for the next hand (`meta` None: the meta as committed then)."""

    meta: TableMeta | None = None
    notices: list[Notice] = field(default_factory=list)
    strict: bool = False


@dataclass
class Change:
    """Write `meta` (and `seats`, when given) as an update of `kind`; `play_on`: during a
    hand, through the turns of leavers and sat-out players; `then`, what follows once it is
    written."""

    meta: TableMeta
    kind: str
    notices: list[Notice]
    seats: list[int] | None = None
    play_on: bool = False
    then: NextHand | Close | None = None


#: What a policy answers between hands, and what a seating change leads to.
Decision = Deal | Wait | Close | NextHand | Change


@dataclass
class Settled:
    """How a policy settles a finished hand: the seats after it, the hand's record as saved,
    and the kind's own state written in the same transaction."""

    seats: list[int]
    #: None: no hand record is saved (a practice hand: no history, stats or ratings)
    record: HandRecord | None
    tournament: TournamentSave | None = None


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

    def leave(self, table: TableFacts, user: int, kind: str, notice: Notice) -> Change | Close:
        """`user` leaves (or is kicked): what that means at this kind of table."""
        ...

    async def next_hand(
        self, table: TableFacts, meta: TableMeta, notices: list[Notice], chips: dict[int, int],
        *, strict: bool, after_hand: bool,
    ) -> Deal | Wait | Close:
        """Between hands (`chips`: what each seat shows now): deal, wait or close."""
        ...

    def moves(self, players: Sequence[int], before: Sequence[int], after: Sequence[int],
              events: Sequence[Event], hand_no: int, paying: str = "") -> list[Move]:
        """The chip movements of a step of the hand (none when the chips are the kind's)."""
        ...

    def settle(self, table: TableFacts, meta: TableMeta, hand: Hand,
               record: HandRecord, notices: list[Notice]) -> Settled:
        """The hand is over (`meta` already holds its ending): who stays, what is saved."""
        ...

    async def chips(self, table: TableFacts) -> dict[int, int]:
        """What each seat shows between hands."""
        ...

    def snapshot(self, table: TableFacts, state: TableState) -> TableState:
        """The public snapshot with what this kind adds."""
        ...

    async def before_close(self, table: TableFacts, meta: TableMeta) -> list[Notice]:
        """The table closes now: what the kind does first (and says)."""
        ...

    async def on_resume(self, table: TableFacts) -> Close | None:
        """At a resume, before anything else: whether the table has to close."""
        ...


class NoExtras:
    """The part of a policy for a kind that adds nothing to the snapshot, does nothing of its
    own when the table closes and resumes where it was (cash and practice tables)."""

    def snapshot(self, table: TableFacts, state: TableState) -> TableState:
        """Nothing to add."""
        return state

    async def before_close(self, table: TableFacts, meta: TableMeta) -> list[Notice]:
        """Nothing of the kind's own (the session refunds what the escrow holds)."""
        return []

    async def on_resume(self, table: TableFacts) -> Close | None:
        """Nothing: the table goes on where it was."""
        return None


#: Chooses the policy of a table from its meta (`TableService(policy_for=...)`).
PolicyChooser = Callable[["TableMeta"], HandPolicy]

__all__ = [
    "Change", "Close", "Deal", "Decision", "HandPolicy", "NextHand", "NoExtras", "PolicyChooser",
    "Settled", "TableFacts", "UnknownKind", "Wait",
]
