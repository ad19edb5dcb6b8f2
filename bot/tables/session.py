"""`TableSession`: one open table, its lock, its hand, and the policy of its kind.

The session drives a hand. Every change of the table follows one path: take the session's
`asyncio.Lock`, check who acts and the stale-button tokens (`can_act`), ask the engine, write
the new state, the meta and every chip movement in **one** store transaction (`commit`), then
publish the `Update`s (outside the lock). What differs between kinds of table (cash,
tournament, practice) is asked of the table's `HandPolicy` (`bot.tables.policy`). Beside the
session, each in a class of its own that holds it: the deal and its fair deck (`Dealing`), the
store writes under the lease and memory rebuilt when one fails (`Writes`), the seats
(`Seating`), the turn clock (`TurnClock`) and the CPU seats (`CpuTurns`); closing a table is
`bot.tables.closing`. The service (`TableService`) only finds sessions and does what spans
tables (one seat per server, opening, resuming).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Sequence

import bot.metrics as metrics
from bot.engine import Action, Event, Hand
from bot.store import (
    UNSET,
    HandRecord,
    Move,
    TableRow,
    TableSave,
    TournamentError,
    TournamentSave,
    Unset,
)
from bot.tables.closing import close_table
from bot.tables.cpu_turns import CpuTurns
from bot.tables.dealing import Dealing
from bot.tables.errors import TableError
from bot.tables.hands import add_paid, hand_record, note, remember
from bot.tables.journal import log_change
from bot.tables.meta import TableMeta
from bot.tables.player_hand import PlayerHand
from bot.tables.policy import HandPolicy
from bot.tables.ratings import rate_record
from bot.tables.seating import Seating
from bot.tables.shared import Shared
from bot.tables.snapshot import build_state, hand_over, public_events
from bot.tables.turn_clock import TurnClock
from bot.tables.updates import Notice, TableEvent, TableState, Update
from bot.tables.writes import Writes

log = logging.getLogger("stoppa.tables")

_KEEP = object()  # `commit`: leave the hand / state as it is


class TableSession:
    """One open table: its stored row and meta, the engine hand, the lock, clock and CPUs."""

    def __init__(
        self, shared: Shared, row: TableRow, meta: TableMeta, hand: Hand | None, timeout: float,
        policy: HandPolicy,
    ) -> None:
        self.shared = shared
        self.row = row
        self.meta = meta
        self.hand = hand
        self.policy = policy
        self.lock = asyncio.Lock()
        self.timeout = timeout
        self.balances: dict[int, int] = {}
        self.clock = TurnClock(self)
        self.cpus = CpuTurns(self)
        self.seating = Seating(self)
        self.dealing = Dealing(self)
        self.writes = Writes(self)
        self.snapshot: TableState = build_state(row, meta, hand, {})
        self.closed = False

    @property
    def id(self) -> int:
        """The table id."""
        return self.row.id

    @property
    def in_hand(self) -> bool:
        """Whether a hand is being played (not over)."""
        return self.hand is not None and self.hand.phase != "over"

    def check_open(self) -> None:
        """Raise TableError("table_closed") once the table is closed."""
        if self.closed:
            raise TableError("table_closed")

    def check_seated(self, user: int) -> None:
        """Raise TableError("not_seated") unless `user` sits here."""
        if user not in self.row.seats:
            raise TableError("not_seated")

    # ------------------------------------------------------------------ reading

    def hand_for(self, user: int) -> PlayerHand:
        """What `user` may see of the hand in progress (private: send it ephemeral).
        Raises TableError("not_in_hand")."""
        seat = self.meta.seat_of(user)
        if self.hand is None or seat is None:
            raise TableError("not_in_hand")
        return PlayerHand.of(self.hand, seat, self.id, self.meta.hand_no, self.meta.turn)

    def can_act(self, user: int, expected_hand: int | None = None,
                expected_turn: int | None = None) -> int:
        """`user`'s engine seat when they may act now with a button of this hand and turn;
        else the TableError the table answers (the one check, for the cog and `apply`)."""
        if user not in self.row.seats:
            raise TableError("not_seated")
        if expected_hand is not None and expected_hand != self.meta.hand_no:
            raise TableError("stale_button")
        if expected_turn is not None and expected_turn != self.meta.turn:
            raise TableError("stale_button")
        hand = self.hand
        if hand is None or not self.in_hand:
            raise TableError("no_hand")
        seat = self.meta.seat_of(user)
        if seat is None:
            raise TableError("not_in_hand")
        if hand.to_act != seat:
            raise TableError("not_your_turn", player=self.meta.players[hand.to_act or 0])
        return seat

    # ------------------------------------------------------------------ changes (lock held)

    async def set_message(self, message_id: int | None) -> None:
        """Record the public message of the table (the cog's)."""
        self.check_open()
        change = TableSave(expected_version=self.row.version, message_id=message_id)
        self.row = await self.shared.store.save_table(self.id, change, **self.shared.fence())
        self.refresh()

    async def apply(
        self,
        user: int,
        action: Action,
        expected_hand: int | None,
        expected_turn: int | None,
        *,
        source: str = "player",
    ) -> list[Update]:
        """Apply one action of `user` if they may act (`can_act`) with these tokens."""
        self.check_open()
        seat = self.can_act(user, expected_hand, expected_turn)
        meta = self.meta.copy()
        moves, events = self.step(meta, seat, action)
        if source == "player":
            meta.timeouts[user] = 0
        kind = "action" if source == "player" else source
        return await self.play_on(meta, moves, events, [], kind)

    # ------------------------------------------------------------------ hands (lock held)

    async def next_hand(
        self, meta: TableMeta, *, strict: bool = False, notices: list[Notice] | None = None,
        after_hand: bool = False,
    ) -> list[Update]:
        """Between hands: the policy deals (`deal`), waits in the lobby or closes."""
        return await self.policy.next_hand(self, meta, list(notices or []), strict=strict,
                                           after_hand=after_hand)

    async def read_balances(self, users: Sequence[int]) -> dict[int, int]:
        """The store balances of `users` (kept as what the seats show)."""
        guild = self.row.guild_id
        self.balances = dict(await self.shared.store.balances(guild, list(users))) if users else {}
        return self.balances

    def step(self, meta: TableMeta, seat: int, action: Action) -> tuple[list[Move], list[Event]]:
        """One engine action (raises IllegalAction with the hand unchanged)."""
        hand = self.hand
        assert hand is not None
        before = list(hand.chips)
        events = hand.act(seat, action)
        metrics.action_applied(action)
        moves = self.policy.moves(meta.players, before, hand.chips, events, meta.hand_no)
        add_paid(meta, moves)
        meta.turn += 1
        return moves, list(events)

    async def play_on(
        self,
        meta: TableMeta,
        moves: list[Move],
        events: list[Event],
        notices: list[Notice],
        kind: str,
    ) -> list[Update]:
        """After a change in a hand: default the leavers' turns, then commit (and settle the
        hand and go on to the next one if it is over). On failure the hand is rebuilt."""
        hand = self.hand
        assert hand is not None
        try:
            while hand.phase != "over" and hand.to_act is not None:
                user = meta.players[hand.to_act]
                if user not in meta.leaving and user not in meta.away:
                    break
                more_moves, more_events = self.step(
                    meta, hand.to_act, hand.default_action(hand.to_act)
                )
                moves += more_moves
                events += more_events
        except Exception:
            self.writes.rebuild()
            raise
        public = public_events(events, meta.players)
        remember(meta, public)
        if hand.phase == "over":
            return await self.end_hand(meta, hand, public, moves, notices)
        update = await self.commit(
            meta, kind, events=public, notices=notices, moves=moves, state=hand.to_json(),
            hand=hand,
        )
        return [update]

    async def end_hand(
        self, meta: TableMeta, hand: Hand, public: list[TableEvent], moves: list[Move],
        notices: list[Notice],
    ) -> list[Update]:
        """The hand is over: record it (rated), let the policy settle it, commit all in one
        transaction, then the next hand."""
        record = await self.rated(hand_record(hand, meta), meta)
        meta.last_hand = hand_over(
            hand, meta.players, hand_no=meta.hand_no, turn=meta.turn,
            blocked_stoppa=str(self.row.settings.get("blocked_stoppa", "four_aces")),
        )
        meta.paid = {}
        if meta.dealer is not None:
            meta.deals[meta.dealer] = meta.deals.get(meta.dealer, 0) + 1
        settled = await self.policy.settle(self, meta, hand, record, notices)
        notices.insert(0, note("tables.hand_over", hand_no=meta.hand_no))
        try:
            over = await self.commit(
                meta, "hand_over", events=public, notices=notices, moves=moves,
                seats=settled.seats, state=hand.to_json(), hand=hand, record=settled.record,
                tournament=settled.tournament,
            )
        except TournamentError:  # the kind's state was refused (cancelled meanwhile)
            return [await self.close(self.meta.copy(), [])]
        updates = [over]
        try:
            updates += await self.next_hand(self.meta.copy(), after_hand=True)
        except Exception:  # the hand is committed: a restart (or the next change) goes on
            log.exception("table %s: the next hand could not be dealt", self.id)
        return updates

    async def rated(self, record: HandRecord, meta: TableMeta) -> HandRecord:
        """The hand record with its players' new ratings (saved in the hand's transaction);
        if the ratings cannot be read the hand is saved unrated rather than lost."""
        try:
            return await rate_record(self.shared.store, self.row.guild_id, record, meta.cpus)
        except Exception:
            log.exception("table %s: hand %s could not be rated", self.id, meta.hand_no)
            return record

    async def close(
        self, meta: TableMeta, notices: list[Notice], *, seats: Sequence[int] | None = None
    ) -> Update:
        """Close the table (`bot.tables.closing`: the escrow refunded)."""
        return await close_table(self, meta, notices, seats)

    # ------------------------------------------------------------------ the one commit

    async def commit(
        self,
        meta: TableMeta,
        kind: str,
        *,
        events: Iterable[TableEvent] = (),
        notices: Iterable[Notice] = (),
        moves: Sequence[Move] = (),
        record: HandRecord | None = None,
        status: str | None = None,
        seats: list[int] | None = None,
        state: str | object | None = _KEEP,
        hand: Hand | object | None = _KEEP,
        tournament: TournamentSave | None = None,
    ) -> Update:
        """Write the table (state, meta, moves, hand record, the state of the tournament it
        plays) in one transaction, then update memory and return the Update to publish. On
        failure memory is rebuilt from the DB."""
        new_hand = self.hand if hand is _KEEP else hand
        assert new_hand is None or isinstance(new_hand, Hand)
        new_state: str | Unset | None = state if state is None or isinstance(state, str) else UNSET
        change = self.writes.change(meta, new_hand, state=new_state, status=status, seats=seats,
                                    moves=moves, record=record, tournament=tournament)
        self.row = await self.writes.write(change)
        self.meta = meta
        self.hand = new_hand
        if not self.in_hand or seats is not None:
            await self.refresh_balances()
        self.refresh()
        log_change(self.row, self.meta.hand_no, events, notices)
        if kind == "hand_over":
            metrics.hand_finished()
        self.clock.arm()
        self.cpus.schedule()
        return self.update(kind, list(events), list(notices))

    async def refresh_balances(self) -> None:
        """What the seats show between hands (the policy's: balances, stacks)."""
        self.balances = await self.policy.chips(self)

    def refresh(self) -> None:
        """Rebuild the public snapshot from memory."""
        self.snapshot = self.policy.snapshot(
            self, build_state(self.row, self.meta, self.hand, self.balances)
        )

    def update(self, kind: str, events: list[TableEvent], notices: list[Notice]) -> Update:
        """The `Update` to publish for a change of `kind`."""
        state = self.snapshot
        return Update(
            kind=kind,
            table_id=self.id,
            guild_id=self.row.guild_id,
            channel_id=self.row.channel_id,
            state=state,
            events=tuple(events),
            notices=notices,
            to_act=state.to_act,
            channel_table=self.policy.channel_table,
        )

    async def begin(self) -> None:
        """After a resume: what the policy does first (a tournament cancelled meanwhile
        closes), then deal the next hand if the bot stopped between two, else run the clock
        and the CPU seat to act."""
        async with self.lock:
            updates = await self.policy.on_resume(self)
        if updates:
            await self.shared.publish(updates)
            return
        playing = self.row.status == "playing" or self.policy.deals_at_resume
        if playing and not self.in_hand:
            async with self.lock:
                updates = await self.next_hand(self.meta.copy())
            await self.shared.publish(updates)
        elif self.in_hand and self.to_act_away():
            async with self.lock:
                updates = await self.play_on(self.meta.copy(), [], [], [], "action")
            await self.shared.publish(updates)
        else:
            self.clock.arm()
            self.cpus.schedule()

    def to_act_away(self) -> bool:
        """Whether the seat to act is a sat-out player (their turn is passed for them)."""
        hand = self.hand
        if hand is None or hand.to_act is None:
            return False
        return self.meta.players[hand.to_act] in self.meta.away


__all__ = ["TableSession"]
