"""`TableSession`: one open table, its lock, its hand, and the policy of its kind.

The session is the only writer of its table. Every change follows one path: take the
session's `asyncio.Lock`, check who acts and the stale-button tokens (`can_act`), ask the
engine, write the new state, the meta and every chip movement in **one** store transaction
(`commit`), then publish the `Update`s (outside the lock). What differs between kinds of
table (cash, tournament, practice) is asked of the table's `HandPolicy` (`bot.tables.policy`),
which answers with a decision (`Deal | Wait | Close`, a `Change`, `Settled`) that the session
carries out (`carry_out`). Beside the session, helpers that take what they need and return
values: the deal (`bot.tables.dealing`), the saves (`bot.tables.writes`), the seating
decisions (`bot.tables.seating`), the closing refunds (`bot.tables.closing`); and two that
keep a task of their own, the turn timer (`TurnClock`, which calls the session's `timed_out`)
and the CPU players (`CpuTurns`). The service (`TableService`) only finds sessions and does
what spans tables (one seat per server, opening, resuming).
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
    LeaseLost,
    Move,
    TableRow,
    TableSave,
    TournamentError,
    TournamentSave,
    Unset,
)
from bot.tables import seating
from bot.tables.closing import closing_refunds, log_closing
from bot.tables.cpu_turns import CpuTurns, to_play
from bot.tables.dealing import dealt, plays_on_at_once
from bot.tables.errors import TableError
from bot.tables.hands import hand_record, note
from bot.tables.journal import log_change
from bot.tables.meta import TableMeta
from bot.tables.player_hand import PlayerHand
from bot.tables.policy import (
    Change,
    Close,
    Deal,
    Decision,
    HandPolicy,
    NextHand,
    TableFacts,
    Wait,
)
from bot.tables.ratings import rate_record
from bot.tables.shared import Shared
from bot.tables.snapshot import build_state, hand_over, public_events
from bot.tables.turn_clock import TimerKey, TurnClock, after_timeout
from bot.tables.updates import Notice, TableEvent, TableState, Update
from bot.tables.writes import Before, rebuilt, refusal, table_save

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
        self.clock = TurnClock(shared, row.id, self.timed_out)
        self.cpus = CpuTurns(row.id, shared.player_factory, shared.thinker)
        #: the task that deals the next hand once the pause after a hand ends (`deal_at`)
        self.pending_deal: asyncio.Task[None] | None = None
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

    @property
    def facts(self) -> TableFacts:
        """What the policy and the seating read of the table now."""
        return TableFacts(self.row, self.meta, self.in_hand, self.shared.store,
                          self.shared.cpu_seed)

    def check_open(self) -> None:
        """Raise TableError("table_closed") once the table is closed."""
        if self.closed:
            raise TableError("table_closed")

    # ------------------------------------------------------------------ reading

    def hand_for(self, user: int) -> PlayerHand:
        """What `user` may see of the hand in progress (private: send it ephemeral).
        Raises TableError("not_in_hand")."""
        seat = self.meta.in_play.seat_of(user)
        if self.hand is None or seat is None:
            raise TableError("not_in_hand")
        in_play = self.meta.in_play
        return PlayerHand.of(self.hand, seat, self.id, in_play.hand_no, in_play.turn)

    def can_act(self, user: int, expected_hand: int | None = None,
                expected_turn: int | None = None) -> int:
        """`user`'s engine seat when they may act now with a button of this hand and turn;
        else the TableError the table answers (the one check, for the cog and `apply`)."""
        if user not in self.row.seats:
            raise TableError("not_seated")
        if expected_hand is not None and expected_hand != self.meta.in_play.hand_no:
            raise TableError("stale_button")
        if expected_turn is not None and expected_turn != self.meta.in_play.turn:
            raise TableError("stale_button")
        hand = self.hand
        if hand is None or not self.in_hand:
            raise TableError("no_hand")
        seat = self.meta.in_play.seat_of(user)
        if seat is None:
            raise TableError("not_in_hand")
        if hand.to_act != seat:
            raise TableError("not_your_turn", player=self.meta.in_play.players[hand.to_act or 0])
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
        lang: str | None = None,
    ) -> list[Update]:
        """Apply one action of `user` if they may act (`can_act`) with these tokens; a
        player's `lang` (the language of their Discord now, None: not known) is kept with
        their seat in the move's own transaction: a locale changed mid-table is followed."""
        self.check_open()
        seat = self.can_act(user, expected_hand, expected_turn)
        meta = self.meta.copy()
        moves, events = self.step(meta, seat, action)
        if source == "player":
            meta.absence = meta.absence.acted(user)
            meta.moved_on()
            meta.sat_in(user, lang)
        kind = "action" if source == "player" else source
        return await self.play_on(meta, moves, events, [], kind)

    async def join(self, user: int, lang: str | None = None) -> list[Update]:
        """`user` sits speaking `lang` (or stays, if they were leaving at the end of this
        hand)."""
        self.check_open()
        self.policy.check_seating()
        return await self.carry_out(await seating.join(self.facts, user, lang))

    async def add_cpu(self, by: int, level: str) -> list[Update]:
        """Seat a CPU player of `level`; `by` must be seated."""
        self.check_open()
        self.policy.check_seating()
        return await self.carry_out(await seating.add_cpu(self.facts, by, level))

    async def remove(self, user: int, kind: str, notice: Notice) -> list[Update]:
        """`user` leaves (or is kicked): what that means is the policy's."""
        self.check_open()
        seating.check_seated(self.row, user)
        return await self.carry_out(self.policy.leave(self.facts, user, kind, notice))

    async def start_game(self, user: int) -> list[Update]:
        """Start play: deal the first hand if 3 players can pay the ante."""
        self.check_open()
        return await self.carry_out(seating.start_game(self.facts, user))

    async def call_round(self, user: int) -> list[Update]:
        """R-14: the table closes once every player has dealt the same number of times."""
        self.check_open()
        seating.check_seated(self.row, user)
        self.policy.check_seating()
        return await self.carry_out(seating.call_round(self.facts, user))

    async def back(self, user: int) -> list[Update]:
        """A sat-out `user` is back: their turns are theirs again (nothing if not away)."""
        self.check_open()
        change = seating.back(self.facts, user)
        return [] if change is None else await self.carry_out(change)

    # ------------------------------------------------------------------ decisions (lock held)

    async def carry_out(self, decision: Decision) -> list[Update]:
        """Do what a policy or the seating decided: write a change, ask for the next hand,
        deal, wait in the lobby or close."""
        if isinstance(decision, Change):
            return await self._change(decision)
        if isinstance(decision, NextHand):
            meta = self.meta.copy() if decision.meta is None else decision.meta
            return await self.next_hand(meta, strict=decision.strict, notices=decision.notices)
        if isinstance(decision, Deal):
            return await self.deal(decision)
        if isinstance(decision, Wait):
            if decision.meta is None:
                return []
            return [await self.commit(decision.meta, "lobby", notices=decision.notices,
                                      status="lobby", seats=decision.seats, state=None,
                                      hand=None)]
        return await self.close(decision)

    async def _change(self, change: Change) -> list[Update]:
        """Write a seating change (during a hand through `play_on`), then what follows."""
        if change.play_on:
            return await self.play_on(change.meta, [], [], change.notices, change.kind)
        updates = [await self.commit(change.meta, change.kind, notices=change.notices,
                                     seats=change.seats)]
        if change.then is not None:
            updates += await self.carry_out(change.then)
        return updates

    async def next_hand(
        self, meta: TableMeta, *, strict: bool = False, notices: list[Notice] | None = None,
        after_hand: bool = False,
    ) -> list[Update]:
        """Between hands: ask the policy (deal, wait in the lobby or close) and do it (a pause
        after the last hand ends here, whoever asked)."""
        meta.deal_at = None
        self.balances = chips = await self.policy.chips(self.facts)
        decision = await self.policy.next_hand(self.facts, meta, list(notices or []), chips,
                                               strict=strict, after_hand=after_hand)
        return await self.carry_out(decision)

    async def deal(self, deal: Deal) -> list[Update]:
        """Deal `deal` and commit the new hand; a hand with no choice yet (a sat-out player
        first) plays on at once."""
        words = await self.shared.store.words_of(self.row.guild_id, deal.players)
        new = dealt(self.row, deal, words, self.policy.moves)
        updates = [await self.commit(
            new.meta, "started", events=new.events, notices=deal.notices, moves=new.moves,
            status="playing", seats=deal.seats, state=new.hand.to_json(), hand=new.hand,
        )]
        if plays_on_at_once(new):
            updates += await self.play_on(self.meta.copy(), [], [], [], "action")
        return updates

    def step(self, meta: TableMeta, seat: int, action: Action) -> tuple[list[Move], list[Event]]:
        """One engine action (raises IllegalAction with the hand unchanged)."""
        hand = self.hand
        assert hand is not None
        before = list(hand.chips)
        events = hand.act(seat, action)
        metrics.action_applied(action)
        in_play = meta.in_play
        moves = self.policy.moves(in_play.players, before, hand.chips, events, in_play.hand_no)
        meta.in_play = in_play.stepped(moves)
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
                user = meta.in_play.players[hand.to_act]
                if user not in meta.in_play.leaving and not meta.absence.is_away(user):
                    break
                more_moves, more_events = self.step(
                    meta, hand.to_act, hand.default_action(hand.to_act)
                )
                moves += more_moves
                events += more_events
        except Exception:
            self.rebuild()
            raise
        public = public_events(events, meta.in_play.players)
        meta.remember(public)
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
            hand, meta.in_play.players, hand_no=meta.in_play.hand_no, turn=meta.in_play.turn,
            blocked_stoppa=str(self.row.settings.get("blocked_stoppa", "four_aces")),
        )
        meta.in_play = meta.in_play.settled()
        if meta.in_play.dealer is not None:
            meta.round = meta.round.dealt(meta.in_play.dealer)
        settled = self.policy.settle(self.facts, meta, hand, record, notices)
        meta.deal_at = await self.deal_time()
        notices.insert(0, note("tables.hand_over", hand_no=meta.in_play.hand_no))
        try:
            over = await self.commit(
                meta, "hand_over", events=public, notices=notices, moves=moves,
                seats=settled.seats, state=hand.to_json(), hand=hand, record=settled.record,
                tournament=settled.tournament,
            )
        except TournamentError:  # the kind's state was refused (cancelled meanwhile)
            return await self.close(Close(self.meta.copy()))
        if self.meta.deal_at is not None:  # the next hand after the server's pause
            self.schedule_deal()
            return [over]
        return [over, *await self.deal_next()]

    async def deal_next(self) -> list[Update]:
        """The next hand after a finished one (its failure logged: the hand is committed, a
        restart or the next change goes on)."""
        try:
            return await self.next_hand(self.meta.copy(), after_hand=True)
        except Exception:
            log.exception("table %s: the next hand could not be dealt", self.id)
            return []

    async def rated(self, record: HandRecord, meta: TableMeta) -> HandRecord:
        """The hand record with its players' new ratings (saved in the hand's transaction);
        if the ratings cannot be read the hand is saved unrated rather than lost."""
        try:
            return await rate_record(self.shared.store, self.row.guild_id, record, meta.cpus.levels)
        except Exception:
            log.exception("table %s: hand %s could not be rated", self.id, meta.in_play.hand_no)
            return record

    async def close(self, close: Close) -> list[Update]:
        """Close the table (after the policy's own step): the escrow refunded to `close.seats`
        (default: its seats, else the last hand's players) in the transaction that closes the
        row; the "closed" Update, after a "tournament_over" one when `close` announces it."""
        updates = []
        if close.announce is not None:
            updates.append(self.update("tournament_over", [], close.announce))
        meta = self.meta.copy() if close.meta is None else close.meta
        store = self.shared.store
        notices = [*close.notices, *await self.policy.before_close(self.facts, meta)]
        moves = closing_refunds(await store.escrow(self.id), self.row, meta, self.in_hand,
                                close.seats)
        notices.append(note("tables.closed"))
        meta.in_play = meta.in_play.gone()
        meta.languages = {}  # nobody sits any more: nothing kept about how they spoke
        self.row = await store.close_table(
            self.id, expected_version=self.row.version, refunds=moves, meta=meta.to_dict(),
            **self.shared.fence(),
        )
        self.meta = meta
        self.closed = True
        self.stop_tasks()
        self.shared.on_close(self.id)
        await self.refresh_balances()
        self.refresh()
        log_closing(self.row, notices, moves)
        return [*updates, self.update("closed", [], notices)]

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
        timed = self.policy.timed
        before = Before(self.hand, self.meta.in_play.turn,
                        self.shared.clock.now() + self.timeout if timed else None)
        change = table_save(self.row, before, meta, new_hand, state=new_state, status=status,
                            seats=seats, moves=moves, record=record, tournament=tournament)
        self.row = await self.write(change)
        self.meta = meta
        self.hand = new_hand
        if not self.in_hand or seats is not None:
            await self.refresh_balances()
        self.refresh()
        log_change(self.row, self.meta.in_play.hand_no, events, notices)
        if kind == "hand_over":
            metrics.hand_finished()
        self.arm_clock()
        self.schedule_cpu()
        return self.update(kind, list(events), list(notices))

    async def write(self, change: TableSave) -> TableRow:
        """Save `change` in one transaction; on failure memory is rebuilt from the store (a
        lost lease lets the table go) and a refusal becomes a TableError."""
        try:
            return await self.shared.store.save_table(self.id, change, **self.shared.fence())
        except LeaseLost as exc:  # another process drives the table now: let go, no write
            log.warning("table %s: lease lost; no longer driven here", self.id)
            self.let_go()
            raise TableError("busy") from exc
        except Exception as exc:
            log.warning("table %s: commit failed (%r); rebuilding from the store", self.id, exc)
            await self.reload()
            refused = refusal(exc)
            if refused is not None:
                raise refused from exc
            raise

    def let_go(self) -> None:
        """Stop driving the table (its lease went to another process): no timer, no CPU turn,
        and the service forgets it. The database is left as the new owner has it."""
        self.closed = True
        self.stop_tasks()
        self.shared.on_close(self.id)

    def stop_tasks(self) -> None:
        """No more turn timer nor pending deal (the table closes or goes elsewhere)."""
        self.clock.cancel()
        if self.pending_deal is not None:
            self.pending_deal.cancel()
            self.pending_deal = None

    def rebuild(self) -> None:
        """Memory back to the last saved row (state JSON and meta)."""
        self.meta, self.hand = rebuilt(self.row, self.shared.read_meta)

    async def reload(self) -> None:
        """Re-read the row from the store (after a failed commit) and rebuild memory."""
        try:
            self.row = await self.shared.store.get_table(self.id)
        except Exception:  # keep the row we had
            log.exception("table %s: cannot reload its row", self.id)
        self.rebuild()
        self.refresh()
        self.arm_clock(retry=True)

    async def refresh_balances(self) -> None:
        """What the seats show between hands (the policy's: balances, stacks)."""
        self.balances = await self.policy.chips(self.facts)

    def refresh(self) -> None:
        """Rebuild the public snapshot from memory."""
        self.snapshot = self.policy.snapshot(
            self.facts, build_state(self.row, self.meta, self.hand, self.balances)
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

    # ------------------------------------------------------------------ the turn clock

    def arm_clock(self, *, retry: bool = False) -> None:
        """Run the turn timer for the current deadline (none once stopped, closed or between
        hands)."""
        running = not (self.shared.stopped or self.closed) and self.in_hand
        deadline = self.row.deadline if running else None
        in_play = self.meta.in_play
        self.clock.arm(deadline, in_play.hand_no, in_play.turn, self.timeout, retry=retry)

    def pause_clock(self) -> bool:
        """Pause the turn timer (nobody can see the table); whether it was running."""
        if self.clock.paused:
            return False
        self.clock.paused = True
        return True

    def resume_clock(self) -> bool:
        """Run a paused turn timer again (a deadline that passed meanwhile becomes a full
        turn from now); whether it was paused."""
        if not self.clock.paused:
            return False
        self.clock.paused = False
        self.arm_clock(retry=True)
        return True

    async def timed_out(self, key: TimerKey) -> None:
        """The turn of `key` ran out (the clock's call): its default action, published."""
        async with self.lock:
            updates = await self.on_timeout(key.hand_no, key.turn)
        await self.shared.publish(updates)

    async def on_timeout(self, hand_no: int, turn: int) -> list[Update]:
        """The turn's time is up: its default action, and the rule of absent players
        (`after_timeout`)."""
        meta = self.meta.copy()
        hand = self.hand
        if self.clock.paused or self.closed or hand is None or not self.in_hand:
            return []
        if hand.to_act is None or meta.in_play.hand_no != hand_no or meta.in_play.turn != turn:
            return []  # somebody acted meanwhile
        seat = hand.to_act
        action = hand.default_action(seat)
        moves, events = self.step(meta, seat, action)
        notices = after_timeout(meta, meta.in_play.players[seat], action)
        meta.moved_on()
        return await self.play_on(meta, moves, events, notices, "timeout")

    # ------------------------------------------------------------------ the CPU seats

    @property
    def cpu_delay(self) -> float:
        """The pause before a CPU move: the service's, none at an untimed (practice) table."""
        return self.shared.cpu_delay if self.policy.timed else 0.0

    def schedule_cpu(self) -> None:
        """If a CPU seat is to act, let it choose and play (in a task of its own)."""
        hand, shared = self.hand, self.shared
        if shared.stopped or self.closed or hand is None or not self.in_hand:
            return
        user = to_play(hand, self.meta)
        if user is None:
            return
        wake = shared.clock.now() + self.cpu_delay
        task = asyncio.get_running_loop().create_task(
            self.cpu_turn(user, self.meta.in_play.hand_no, self.meta.in_play.turn, wake)
        )
        self.cpus.task = task
        shared.track_cpu(task)
        if self.cpu_delay <= 0:
            shared.mark_busy(task)

    async def cpu_turn(self, user: int, hand_no: int, turn: int, wake: float) -> None:
        """One CPU move: think (off the event loop), then apply it under the lock if still
        current."""
        shared = self.shared
        try:
            if self.cpu_delay > 0:
                await shared.clock.sleep_until(wake)
                task = asyncio.current_task()
                if task is not None:
                    shared.mark_busy(task)
            hand, meta = self.hand, self.meta
            seat = meta.in_play.seat_of(user)
            if self.closed or hand is None or meta.in_play.turn != turn:
                return
            if seat is None or hand.to_act != seat:
                return
            action = await self.cpus.choose(user, meta.cpus.levels[user],
                                            lambda: self.cpu_seed(user), hand, seat)
            async with self.lock:
                updates = await self._cpu_move(user, seat, action, hand_no, turn)
            await shared.publish(updates)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: CPU move failed", self.id)

    def cpu_seed(self, user: int) -> int:
        """The own seed of CPU seat `user`, drawn when it sat (kept in the meta)."""
        seed = self.meta.cpus.seeds.get(user)
        if seed is None:  # a row saved before every kind drew the seed at seating
            seed = self.shared.cpu_seed()
            self.meta.cpus = self.meta.cpus.with_seed(user, seed)
        return seed

    async def _cpu_move(self, user: int, seat: int, action: Action | None, hand_no: int,
                        turn: int) -> list[Update]:
        """Play the CPU's `action` (lock held) if its turn is still current; a failed or
        illegal choice plays the engine's default action."""
        if self.meta.in_play.turn != turn or self.meta.in_play.hand_no != hand_no:
            return []
        if self.closed or self.hand is None:
            return []
        if action is None or not self.hand.can(seat, action):
            action = self.hand.default_action(seat)
        return await self.apply(user, action, hand_no, turn, source="cpu")

    # ------------------------------------------------------------------ the pause between hands

    async def deal_time(self) -> float | None:
        """When the hand after the one just finished is dealt: after the server's pause at a
        timed table (None: at once; a practice table waits for its member anyway)."""
        if not self.policy.timed:
            return None
        pause = await self.shared.pause_of(self.row.guild_id)
        return self.shared.clock.now() + pause if pause > 0 else None

    def schedule_deal(self) -> None:
        """Deal the next hand once the pause (`meta.deal_at`) ends, in a task of its own; a
        deal meanwhile (Start pressed) or a close makes it do nothing."""
        when = self.meta.deal_at
        if when is None or self.shared.stopped or self.closed:
            return
        if self.pending_deal is not None:
            self.pending_deal.cancel()
        task = asyncio.get_running_loop().create_task(
            self.deal_after_pause(self.meta.in_play.hand_no, when)
        )
        self.pending_deal = task
        self.shared.track_cpu(task)

    async def deal_after_pause(self, hand_no: int, when: float) -> None:
        """Sleep on the service's clock until `when`, then deal the hand after `hand_no`
        (under the lock, if the table still waits for it), and publish."""
        try:
            await self.shared.clock.sleep_until(when)
            task = asyncio.current_task()
            if task is not None:
                self.shared.mark_busy(task)
            async with self.lock:
                waiting = self.meta.deal_at is not None and self.meta.in_play.hand_no == hand_no
                if self.closed or self.in_hand or not waiting:
                    return
                updates = await self.deal_next()
            await self.shared.publish(updates)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the deal after the pause failed", self.id)

    # ------------------------------------------------------------------ resume

    async def begin(self) -> None:
        """After a resume: what the policy does first (a tournament cancelled meanwhile
        closes), then deal the next hand if the bot stopped between two, else run the clock
        and the CPU seat to act."""
        async with self.lock:
            close = await self.policy.on_resume(self.facts)
            updates = [] if close is None else await self.close(close)
        if updates:
            await self.shared.publish(updates)
            return
        playing = self.row.status == "playing" or self.policy.deals_at_resume
        if playing and not self.in_hand and self.meta.deal_at is not None:
            self.schedule_deal()  # stopped during the pause: deal when it ends
        elif playing and not self.in_hand:
            async with self.lock:
                updates = await self.next_hand(self.meta.copy())
            await self.shared.publish(updates)
        elif self.in_hand and self.to_act_away():
            async with self.lock:
                updates = await self.play_on(self.meta.copy(), [], [], [], "action")
            await self.shared.publish(updates)
        else:
            self.arm_clock()
            self.schedule_cpu()

    def to_act_away(self) -> bool:
        """Whether the seat to act is a sat-out player (their turns are passed for them)."""
        hand = self.hand
        if hand is None or hand.to_act is None:
            return False
        return self.meta.absence.is_away(self.meta.in_play.players[hand.to_act])


__all__ = ["TableSession"]
