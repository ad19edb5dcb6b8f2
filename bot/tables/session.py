"""`TableSession`: one open table, its lock, hand, turn clock and CPU turns.

Every change of the table follows one path: take the session's `asyncio.Lock`, check who acts
and the stale-button tokens, ask the engine, write the new state, the meta and every chip
movement in **one** store transaction (`commit`), then publish the `Update`s (outside the
lock). If the transaction fails, memory is rebuilt from the last saved row, so memory and
database always agree. The service (`TableService`) only finds sessions and does what spans
tables (one seat per server, opening, resuming).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import bot.metrics as metrics
from bot.engine import Action, Hand, Rules
from bot.logs import log_table_event, table_log
from bot.players import CpuPlayer
from bot.store import (
    HandRecord,
    InsufficientFunds,
    LeaseLost,
    Move,
    TableRow,
    TournamentSave,
    VersionConflict,
)
from bot.tables import tournament_hands
from bot.tables.chips import chip_moves, refunds
from bot.tables.cpus import free_cpu_id, is_cpu
from bot.tables.errors import TableError
from bot.tables.hands import (
    add_paid,
    eldest_of,
    forget,
    hand_record,
    has_humans,
    next_dealer,
    note,
    remember,
    timeout_notice,
)
from bot.tables.limits import MAX_PLAYERS, MIN_BALANCE_ANTES, MIN_PLAYERS
from bot.tables.meta import TableMeta
from bot.tables.player_hand import PlayerHand
from bot.tables.ratings import rate_record
from bot.tables.shared import Shared
from bot.tables.snapshot import build_state, hand_over, public_events, special_proof
from bot.tables.updates import Notice, TableEvent, TableState, Update

log = logging.getLogger("stoppa.tables")

_SEED_MASK = (1 << 63) - 1
_KEEP = object()  # `commit`: leave the hand / state as it is


def loggable_data(event: dict[str, Any], settings: dict[str, Any]) -> dict[str, Any]:
    """The data of a public event as the log may hold it: no card the table did not show."""
    data = dict(event.get("data") or {})
    if event.get("kind") == "special":
        blocked = str(settings.get("blocked_stoppa") or "four_aces")
        cards = [str(code) for code in data.get("cards") or ()]
        data["cards"] = list(special_proof(str(data.get("kind")), cards, blocked))
    return data


async def check_balance(shared: Shared, guild: int, user: int, stakes: dict[str, Any]) -> None:
    """Raise TableError("not_enough_chips") unless `user` has 10 antes to sit."""
    need = MIN_BALANCE_ANTES * int(stakes["ante"])
    have = await shared.store.balance(guild, user)
    if have < need:
        raise TableError("not_enough_chips", need=need, have=have)


@dataclass(frozen=True, slots=True)
class TimerKey:
    """Which turn a running timer is for (a new deadline, hand or turn re-arms it)."""

    deadline: float
    hand_no: int
    turn: int


class TableSession:
    """One open table: its stored row and meta, the engine hand, the lock, clock and CPUs."""

    def __init__(
        self, shared: Shared, row: TableRow, meta: TableMeta, hand: Hand | None, timeout: float
    ) -> None:
        self.shared = shared
        self.row = row
        self.meta = meta
        self.hand = hand
        self.lock = asyncio.Lock()
        self.timeout = timeout
        self.balances: dict[int, int] = {}
        self.cpu_players: dict[int, CpuPlayer] = {}
        self.timer: asyncio.Task[None] | None = None
        self.timer_key: TimerKey | None = None
        self.snapshot: TableState = build_state(row, meta, hand, {})
        self.closed = False
        #: the turn clock is paused while nobody can see the table (`pause_clock`)
        self.paused = False

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

    # ------------------------------------------------------------------ changes (lock held)

    async def seat(self, user: int, cpu: str | None) -> list[Update]:
        """Sit `user` (a human, or a CPU of level `cpu`); deal if the game waits for players."""
        meta = self.meta.copy()
        seats = [*self.row.seats, user]
        counts = [meta.deals.get(u, 0) for u in self.row.seats]
        meta.deals[user] = min(counts) if counts else 0
        meta.timeouts.pop(user, None)
        if cpu is not None:
            meta.cpus[user] = cpu
            notice = note("tables.cpu_joined", player=user, level=cpu)
        else:
            notice = note("tables.joined", player=user)
        kind = "cpu_added" if cpu else "joined"
        updates = [await self.commit(meta, kind, notices=[notice], seats=seats)]
        if meta.started and not self.in_hand and self.row.status == "lobby":
            updates += await self.next_hand(self.meta.copy())
        return updates

    async def join(self, user: int) -> list[Update]:
        """`user` sits (or stays, if they were leaving at the end of this hand)."""
        self.check_open()
        tournament_hands.refuse_seat(self.meta)
        if user in self.meta.leaving:  # changed their mind before the hand ended
            meta = self.meta.copy()
            meta.leaving.remove(user)
            meta.timeouts.pop(user, None)
            notice = note("tables.stays", player=user)
            return [await self.commit(meta, "joined", notices=[notice])]
        if user in self.row.seats:
            raise TableError("already_seated")
        self.check_room()
        await check_balance(self.shared, self.row.guild_id, user, self.row.settings)
        return await self.seat(user, None)

    def check_room(self) -> None:
        """Raise TableError("table_full") when every seat is taken."""
        if len(self.row.seats) >= MAX_PLAYERS:
            raise TableError("table_full", max=MAX_PLAYERS)

    async def add_cpu(self, by: int, level: str) -> list[Update]:
        """Seat a CPU player of `level`; `by` must be seated."""
        self.check_open()
        tournament_hands.refuse_seat(self.meta)
        self.check_seated(by)
        self.check_room()
        cpu = free_cpu_id(self.id, set(self.row.seats) | set(self.meta.leaving))
        if cpu is None:
            raise TableError("table_full", max=MAX_PLAYERS)
        await check_balance(self.shared, self.row.guild_id, cpu, self.row.settings)
        return await self.seat(cpu, level)

    async def remove(self, user: int, kind: str, notice: Notice) -> list[Update]:
        """`user` leaves: at once between hands, else at the end of the hand (defaulting)."""
        self.check_open()
        self.check_seated(user)
        if self.meta.tournament is not None:
            return await tournament_hands.stays_in(self, user, kind, notice)
        meta = self.meta.copy()
        if self.in_hand and user in meta.players:
            if user not in meta.leaving:
                meta.leaving.append(user)
            notices = [notice, note("tables.leaves_after_hand", player=user)]
            return await self.play_on(meta, [], [], notices, kind)
        seats = [u for u in self.row.seats if u != user]
        forget(meta, user)
        updates = [await self.commit(meta, kind, notices=[notice], seats=seats)]
        if not self.in_hand and not has_humans(self.row.seats):
            updates.append(await self.close(self.meta.copy(), []))
        return updates

    async def start_game(self, user: int) -> list[Update]:
        """Start play: deal the first hand if 3 players can pay the ante."""
        self.check_open()
        self.check_seated(user)
        if self.in_hand:
            raise TableError("already_started")
        meta = self.meta.copy()
        meta.started = True
        return await self.next_hand(meta, strict=True)

    async def call_round(self, user: int) -> list[Update]:
        """R-14: the table closes once every player has dealt the same number of times."""
        self.check_open()
        self.check_seated(user)
        tournament_hands.refuse_seat(self.meta)
        meta = self.meta.copy()
        meta.round_called_by = user
        notice = note("tables.round_called", player=user)
        if self.in_hand:
            return [await self.commit(meta, "round_called", notices=[notice])]
        return await self.next_hand(meta, notices=[notice])

    async def set_message(self, message_id: int | None) -> None:
        """Record the public message of the table (the cog's)."""
        self.check_open()
        self.row = await self.shared.store.save_table(
            self.id, expected_version=self.row.version, message_id=message_id,
            **self.shared.fence(),
        )
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
        """Apply one action of `user` if it is their turn and the tokens are current."""
        self.check_open()
        meta = self.meta.copy()
        if expected_hand is not None and expected_hand != meta.hand_no:
            raise TableError("stale_button")
        if expected_turn is not None and expected_turn != meta.turn:
            raise TableError("stale_button")
        hand = self.hand
        if hand is None or not self.in_hand:
            raise TableError("no_hand")
        seat = meta.seat_of(user)
        if seat is None:
            raise TableError("not_in_hand")
        if hand.to_act != seat:
            raise TableError("not_your_turn", player=meta.players[hand.to_act or 0])
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
        """Between hands: close (round over / no human / fewer than 3 active players after a
        hand), wait in the lobby, or deal a hand."""
        notices = list(notices or [])
        if meta.tournament is not None:
            return await tournament_hands.deal(self, meta, notices)
        guild = self.row.guild_id
        seats = list(self.row.seats)
        settings = self.row.settings
        ante = int(settings["ante"])
        balances = dict(await self.shared.store.balances(guild, seats)) if seats else {}
        self.balances = balances
        # CPUs that cannot pay the ante leave; humans sit the hand out
        broke_cpus = [u for u in seats if u in meta.cpus and balances.get(u, 0) < ante]
        for user in broke_cpus:
            seats.remove(user)
            forget(meta, user)
            notices.append(note("tables.cpu_broke", player=user))
        able = [u for u in seats if balances.get(u, 0) >= ante]
        meta.sitting_out = [u for u in seats if u not in able]
        if meta.round_called_by is not None and (
            not meta.hand_no or len({meta.deals.get(u, 0) for u in able}) <= 1
        ):
            notices.append(note("tables.round_over"))
            return [await self.close(meta, notices, seats=seats)]
        if not has_humans(seats):
            return [await self.close(meta, notices, seats=seats)]
        active = [u for u in able if u not in meta.away]
        if after_hand and meta.started and len(active) < MIN_PLAYERS:
            notices.append(note("living.too_few", need=MIN_PLAYERS, have=len(active)))
            return [await self.close(meta, notices, seats=seats)]
        if not meta.started or len(able) < MIN_PLAYERS:
            if strict and len(able) < MIN_PLAYERS:
                raise TableError("not_enough_players", need=MIN_PLAYERS, have=len(able))
            if meta.started:
                notices.append(note("tables.waiting_players", need=MIN_PLAYERS, have=len(able)))
            meta.players = []
            lobby = await self.commit(
                meta, "lobby", notices=notices, status="lobby", seats=seats, state=None, hand=None
            )
            return [lobby]
        # the deal: first dealer by lot, then the next seat able to play
        if meta.dealer is None:
            dealer = random.Random(meta.seed).choice(able)
        else:
            dealer = next_dealer(seats, able, meta.dealer, meta.dealer_pos)
        players = able  # playing order = seat order
        hand_no = meta.hand_no + 1
        hand_seed = random.Random(f"{meta.seed}:{hand_no}").getrandbits(63)
        try:
            rules = Rules(players=len(players), **settings)
        except (TypeError, ValueError) as exc:
            raise TableError("bad_stakes", reason=str(exc)) from None
        chips = [balances[u] for u in players]
        hand = Hand.start(rules, chips, players.index(dealer), seed=hand_seed, carry=meta.carry)
        moves = chip_moves(players, chips, hand.chips, hand.events, hand_no, paying="ante")
        meta.hand_no = hand_no
        meta.hand_seed = hand_seed
        meta.turn += 1
        meta.players = list(players)
        meta.dealer = dealer
        meta.dealer_pos = seats.index(dealer)
        meta.paid = {}
        add_paid(meta, moves)
        for user in meta.sitting_out:
            notices.append(note("tables.sits_out", player=user, ante=ante))
        notices.insert(0, note("tables.hand_started", hand_no=hand_no, dealer=dealer))
        events = public_events(hand.events, players)
        remember(meta, events)
        started = await self.commit(
            meta, "started", events=events, notices=notices, moves=moves, status="playing",
            seats=seats, state=hand.to_json(), hand=hand,
        )
        updates = [started]
        first = meta.players[hand.to_act] if hand.to_act is not None else None
        # no choice at all in this hand (possible only in theory), or a sat-out player first
        if hand.phase == "over" or first in meta.away:
            updates += await self.play_on(self.meta.copy(), [], [], [], "action")
        return updates

    def step(self, meta: TableMeta, seat: int, action: Action) -> tuple[list[Move], list[Any]]:
        """One engine action (raises IllegalAction with the hand unchanged)."""
        hand = self.hand
        assert hand is not None
        before = list(hand.chips)
        events = hand.act(seat, action)
        metrics.action_applied(action)
        moves = chip_moves(meta.players, before, hand.chips, events, meta.hand_no)
        if meta.tournament is not None:  # tournament chips: no balance moves while it plays
            moves = []
        add_paid(meta, moves)
        meta.turn += 1
        return moves, list(events)

    async def play_on(
        self,
        meta: TableMeta,
        moves: list[Move],
        events: list[Any],
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
            self.rebuild()
            raise
        public = public_events(events, meta.players)
        remember(meta, public)
        if hand.phase != "over":
            update = await self.commit(
                meta, kind, events=public, notices=notices, moves=moves, state=hand.to_json(),
                hand=hand,
            )
            return [update]
        if meta.tournament is not None:
            return await tournament_hands.settle(self, meta, hand, public, notices)
        # the hand is over: record it (with its ratings), settle the leavers, then the next hand
        record = await self.rated(hand_record(hand, meta), meta)
        meta.last_hand = hand_over(
            hand, meta.players, hand_no=meta.hand_no, turn=meta.turn,
            blocked_stoppa=str(self.row.settings.get("blocked_stoppa", "four_aces")),
        ).to_dict()
        meta.carry = int(hand.carry_out or 0)
        meta.paid = {}
        if meta.dealer is not None:
            meta.deals[meta.dealer] = meta.deals.get(meta.dealer, 0) + 1
        seats = list(self.row.seats)
        for user, since in list(meta.away.items()):  # sat out for a whole hand: they leave
            if since < meta.hand_no and user not in meta.leaving:
                meta.leaving.append(user)
                notices.append(note("living.away_removed", player=user))
        for user in meta.leaving:
            if user in seats:
                seats.remove(user)
            notices.append(note("tables.removed", player=user))
        for user in list(meta.leaving):
            forget(meta, user)
        meta.leaving = []
        notices.insert(0, note("tables.hand_over", hand_no=meta.hand_no))
        over = await self.commit(
            meta, "hand_over", events=public, notices=notices, moves=moves, seats=seats,
            state=hand.to_json(), hand=hand, record=record,
        )
        updates = [over]
        try:
            updates += await self.next_hand(self.meta.copy(), after_hand=True)
        except Exception:  # the action itself is committed: report it, deal on /start
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
        """Close the table: refund the escrow (hand in progress, carried pot)."""
        store = self.shared.store
        notices = [*notices, *await tournament_hands.cancel_before_close(self, meta)]
        seats = list(self.row.seats if seats is None else seats)
        escrow = await store.escrow(self.id)
        paid = meta.paid if self.in_hand else {}
        targets = seats or list(meta.players)
        moves = refunds(escrow, paid, targets, eldest_of(meta), meta.hand_no or None)
        notices = [*notices, note("tables.closed")]
        meta.leaving = []
        self.row = await store.close_table(
            self.id, expected_version=self.row.version, refunds=moves, meta=meta.to_dict(),
            **self.shared.fence(),
        )
        self.meta = meta
        self.closed = True
        self.cancel_timer()
        self.shared.on_close(self.id)
        await self.refresh_balances()
        self.refresh()
        for notice in notices:
            log_table_event(self.row.guild_id, self.row.channel_id, notice.text("en"))
        if moves:
            paid_back = ", ".join(f"{m.user}:{-m.amount}" for m in moves)
            log_table_event(self.row.guild_id, self.row.channel_id, f"refunds {paid_back}")
        return self.update("closed", [], notices)

    # ------------------------------------------------------------------ the one commit

    async def commit(
        self,
        meta: TableMeta,
        kind: str,
        *,
        events: Iterable[dict[str, Any]] = (),
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
        fields: dict[str, Any] = {"meta": meta.to_dict()}
        if status is not None:
            fields["status"] = status
        if seats is not None:
            fields["seats"] = seats
        if state is not _KEEP:
            fields["state"] = state
        if new_hand is not None and new_hand.phase != "over":
            # a new turn gets a fresh deadline; other changes (a join) keep the running one
            if new_hand is not self.hand or meta.turn != self.meta.turn or not self.row.deadline:
                fields["deadline"] = self.shared.clock.now() + self.timeout
            seats_now = seats if seats is not None else self.row.seats
            fields["dealer"] = seats_now.index(meta.dealer) if meta.dealer in seats_now else None
        else:
            fields["deadline"] = None
        try:
            row = await self.shared.store.save_table(
                self.id, expected_version=self.row.version, moves=moves, hand=record, **fields,
                tournament=tournament, **self.shared.fence(),
            )
        except LeaseLost as exc:  # another process drives the table now: let go, no write
            log.warning("table %s: lease lost; no longer driven here", self.id)
            self.let_go()
            raise TableError("busy") from exc
        except Exception as exc:
            log.warning("table %s: commit failed (%r); rebuilding from the store", self.id, exc)
            await self.reload()
            if isinstance(exc, InsufficientFunds):
                raise TableError("not_enough_chips_now") from exc
            if isinstance(exc, VersionConflict):
                raise TableError("busy") from exc
            raise
        self.row = row
        self.meta = meta
        self.hand = new_hand
        if not self.in_hand or seats is not None:
            await self.refresh_balances()
        self.refresh()
        self.log(kind, events, notices)
        if kind == "hand_over":
            metrics.hand_finished()
        self.arm_timer()
        self.schedule_cpu()
        return self.update(kind, list(events), list(notices))

    def let_go(self) -> None:
        """Stop driving the table (its lease went to another process): no timer, no CPU turn,
        and the service forgets it. The database is left as the new owner has it."""
        self.closed = True
        self.cancel_timer()
        self.shared.on_close(self.id)

    def rebuild(self) -> None:
        """Memory back to the last saved row (state JSON and meta)."""
        row = self.row
        self.meta = TableMeta.from_dict(row.meta)
        self.hand = Hand.from_json(row.state) if row.state else None
        if self.hand is not None and self.hand.phase == "over" and row.status != "playing":
            self.hand = None

    async def reload(self) -> None:
        """Re-read the row from the store (after a failed commit) and rebuild memory."""
        try:
            self.row = await self.shared.store.get_table(self.id)
        except Exception:  # keep the row we had
            log.exception("table %s: cannot reload its row", self.id)
        self.rebuild()
        self.refresh()
        self.arm_timer(retry=True)

    async def refresh_balances(self) -> None:
        """The store balances of the seated players (shown between hands)."""
        if self.meta.tournament is not None:  # seats show their tournament chips
            self.balances = tournament_hands.stacks(self.meta)
            return
        users = list(self.row.seats)
        guild = self.row.guild_id
        self.balances = dict(await self.shared.store.balances(guild, users)) if users else {}

    def refresh(self) -> None:
        """Rebuild the public snapshot from memory."""
        self.snapshot = build_state(self.row, self.meta, self.hand, self.balances)
        if self.meta.tournament is not None:
            self.snapshot = tournament_hands.snapshot(
                self.snapshot, self.row.guild_id, self.row.channel_id, self.id, self.meta
            )

    def update(self, kind: str, events: list[dict[str, Any]], notices: list[Notice]) -> Update:
        """The `Update` to publish for a change of `kind`."""
        state = self.snapshot
        return Update(
            kind=kind,
            table_id=self.id,
            guild_id=self.row.guild_id,
            channel_id=self.row.channel_id,
            state=state,
            events=tuple(TableEvent.from_dict(e) for e in events),
            notices=notices,
            to_act=state.to_act,
        )

    def log(self, kind: str, events: Iterable[dict[str, Any]], notices: Iterable[Notice]) -> None:
        """The table log (INFO): only what the table showed."""
        if not table_log.isEnabledFor(logging.INFO):
            return
        guild, channel = self.row.guild_id, self.row.channel_id
        for notice in notices:
            log_table_event(guild, channel, f"table {self.id}: {notice.text('en')}")
        for event in events:
            data = loggable_data(event, self.row.settings)
            details = " ".join(f"{k}={v}" for k, v in data.items())
            who = event.get("user")
            log_table_event(
                guild,
                channel,
                f"table {self.id} hand {self.meta.hand_no}: {event.get('kind')}"
                + (f" by {who}" if who is not None else "")
                + (f" {details}" if details else ""),
            )

    # ------------------------------------------------------------------ the turn clock

    def cancel_timer(self) -> None:
        """Stop the turn timer, if any."""
        if self.timer is not None:
            self.timer.cancel()
        self.timer = None
        self.timer_key = None

    def arm_timer(self, *, retry: bool = False) -> None:
        """Run the turn timer for the current deadline (a retry never fires in the past)."""
        if self.paused:
            return
        clock = self.shared.clock
        deadline = self.row.deadline
        if self.shared.stopped or self.closed or deadline is None or not self.in_hand:
            self.cancel_timer()
            return
        if retry and deadline <= clock.now():
            deadline = clock.now() + self.timeout
        key = TimerKey(float(deadline), self.meta.hand_no, self.meta.turn)
        if self.timer is not None and self.timer_key == key and not self.timer.done():
            return
        self.cancel_timer()
        self.timer_key = key
        self.timer = asyncio.get_running_loop().create_task(self.run_timer(key))

    async def run_timer(self, key: TimerKey) -> None:
        """Sleep until the deadline, then play the default action of whoever is to act."""
        await self.shared.clock.sleep_until(key.deadline)
        task = asyncio.current_task()
        if self.timer is task:
            self.timer = None
            self.timer_key = None
        if task is not None:
            self.shared.mark_busy(task)
        try:
            async with self.lock:
                updates = await self.on_timeout(key.hand_no, key.turn)
            await self.shared.publish(updates)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: turn timeout failed", self.id)

    async def on_timeout(self, hand_no: int, turn: int) -> list[Update]:
        """The turn's time is up: its default action. After `meta.away_after` in a row the
        player is sat out (their turns are passed for them until they are back; after a whole
        hand sat out they leave at its end), or leaves at the hand's end (`away_mode`
        "leave")."""
        meta = self.meta.copy()
        hand = self.hand
        if self.paused or self.closed or hand is None or not self.in_hand:
            return []
        if hand.to_act is None or meta.hand_no != hand_no or meta.turn != turn:
            return []  # somebody acted meanwhile
        seat = hand.to_act
        user = meta.players[seat]
        action = hand.default_action(seat)
        moves, events = self.step(meta, seat, action)
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
        return await self.play_on(meta, moves, events, notices, "timeout")

    async def back(self, user: int) -> list[Update]:
        """A sat-out `user` is back: their turns are theirs again (nothing if not away)."""
        self.check_open()
        if user not in self.meta.away:
            return []
        meta = self.meta.copy()
        del meta.away[user]
        meta.timeouts[user] = 0
        notice = note("living.back", player=user)
        return [await self.commit(meta, "back", notices=[notice])]

    # ------------------------------------------------------------------ CPU turns

    def cpu_player(self, user: int) -> CpuPlayer:
        """The CPU player of seat `user` (built once, seeded by the table and the seat)."""
        player = self.cpu_players.get(user)
        if player is None:
            level = self.meta.cpus[user]
            seed = (self.meta.seed ^ (user * 7919)) & _SEED_MASK
            player = self.shared.player_factory(level, seed)
            self.cpu_players[user] = player
        return player

    def schedule_cpu(self) -> None:
        """If a CPU seat is to act, let it choose (off the event loop) and play."""
        hand = self.hand
        shared = self.shared
        if shared.stopped or self.closed or hand is None or not self.in_hand:
            return
        seat = hand.to_act
        if seat is None:
            return
        user = self.meta.players[seat]
        if not is_cpu(user) or user not in self.meta.cpus or user in self.meta.leaving:
            return
        if user in self.meta.away:
            return
        wake = shared.clock.now() + shared.cpu_delay
        task = asyncio.get_running_loop().create_task(
            self.cpu_turn(user, self.meta.hand_no, self.meta.turn, wake)
        )
        shared.track_cpu(task)
        if shared.cpu_delay <= 0:
            shared.mark_busy(task)

    async def cpu_turn(self, user: int, hand_no: int, turn: int, wake: float) -> None:
        """One CPU move: think in a thread, then apply it under the lock if still current."""
        shared = self.shared
        try:
            if shared.cpu_delay > 0:
                await shared.clock.sleep_until(wake)
                task = asyncio.current_task()
                if task is not None:
                    shared.mark_busy(task)
            hand = self.hand
            if self.closed or hand is None or self.meta.turn != turn:
                return
            seat = self.meta.seat_of(user)
            if seat is None or hand.to_act != seat:
                return
            view, legal, events = hand.seat_view(seat), hand.legal_actions(), hand.events_for(seat)
            player = self.cpu_player(user)
            action: Action | None
            try:
                action = await asyncio.to_thread(player.choose, view, legal, events)
            except Exception:
                log.exception("table %s: CPU %s failed to choose; defaulting", self.id, user)
                action = None
            async with self.lock:
                if self.meta.turn != turn or self.meta.hand_no != hand_no or self.closed:
                    return
                assert self.hand is not None
                if action is None or not self.hand.can(seat, action):
                    action = self.hand.default_action(seat)
                updates = await self.apply(user, action, hand_no, turn, source="cpu")
            await shared.publish(updates)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: CPU move failed", self.id)

    async def begin(self) -> None:
        """After a resume: deal the next hand if the bot stopped between two, else run the
        clock and the CPU seat to act."""
        tournament = self.meta.tournament is not None
        if tournament:
            async with self.lock:
                updates = await tournament_hands.close_if_cancelled(self)
            if updates:
                await self.shared.publish(updates)
                return
        if (self.row.status == "playing" or tournament) and not self.in_hand:
            async with self.lock:
                updates = await self.next_hand(self.meta.copy())
            await self.shared.publish(updates)
        elif self.in_hand and self.to_act_away():
            async with self.lock:
                updates = await self.play_on(self.meta.copy(), [], [], [], "action")
            await self.shared.publish(updates)
        else:
            self.arm_timer()
            self.schedule_cpu()

    def to_act_away(self) -> bool:
        """Whether the seat to act is a sat-out player (their turn is passed for them)."""
        hand = self.hand
        if hand is None or hand.to_act is None:
            return False
        return self.meta.players[hand.to_act] in self.meta.away


__all__ = ["TableSession", "TimerKey", "check_balance", "loggable_data"]
