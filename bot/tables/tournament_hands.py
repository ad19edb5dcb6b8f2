"""Tournament tables: the hands of a sit-and-go, driven by its state instead of balances.

A tournament table is an ordinary `TableSession` (thread, turn clock, restart resume, AFK
rules) whose meta holds the tournament (`TableMeta.tournament`: its id and its
`TournamentRecord`). The session calls these functions in its tournament branches:

- `deal`: the players, stacks, dealer and stakes of the next hand come from `next_hand`
  (the level's stakes through `Level.rules`); the engine's chips are tournament chips, so no
  chip of a balance moves while it plays (the server chips sit in the tournament's pool).
- `settle`: when a hand is over, `after_hand` eliminates, levels up and passes the deal;
  the hand, the new state (in the meta and in the tournament's row, `TournamentSave`) and the
  eliminations are written in ONE transaction.
- `finish`: the last hand is over: the pool is paid by `payouts` (ledger), the final Update
  `tournament_over`, then the table closes. Every step is resumable: a restart finds the
  finished state in the meta and pays (once: the store refuses a second payment), announces
  and closes.
- `cancel_before_close`: a table closed before the end (`/stoppa end`, a channel gone)
  cancels the tournament with every buy-in refunded. Refunds rather than a payout by stacks:
  a stack says who leads, not who would finish where (the antes keep rising and one hand
  can turn it), and a sit-and-go pays places, not chips; giving every entrant their buy-in
  back is the one split nobody can call unfair, and a manager cannot end a tournament to
  hand a leader the pool.
- `close_if_cancelled` (at a resume) and a refused hand save (`TournamentError`: cancelled
  meanwhile, e.g. by another process) close the table of a tournament that no longer runs.

What a player expects at a sit-and-go: nobody joins a tournament table; a player who leaves,
is kicked or runs out of time stays in (sat out: their turns are played for them, they pay
the antes) until eliminated; an eliminated player is told their place; a table of CPU
entrants alone plays to the end.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from bot.engine import Hand, Rules
from bot.store import TournamentError, TournamentSave
from bot.tables.errors import TableError
from bot.tables.hands import forget, hand_record, note, remember
from bot.tables.meta import TableMeta
from bot.tables.snapshot import hand_over as ending
from bot.tables.snapshot import public_events
from bot.tables.updates import Notice, TableState, Update
from bot.tournaments import Level, Phase, after_hand, next_hand, payouts, stakes_for
from bot.tournaments.record import TournamentRecord

if TYPE_CHECKING:
    from bot.tables.session import TableSession

log = logging.getLogger("stoppa.tables")

#: CPU entrants of tournament t are -(CPU_BASE + t * 10 + k), k = 1..9: apart from the CPU
#: ids of tables (-(table_id * 10 + k)), and shown as "CPU k" like them
CPU_BASE = 10**12


def cpu_id(tournament_id: int, taken: set[int]) -> int | None:
    """The first free CPU entrant id of the tournament, None when all nine are taken."""
    for k in range(1, 10):
        user = -(CPU_BASE + tournament_id * 10 + k)
        if user not in taken:
            return user
    return None


def level_stakes(level: Level) -> dict[str, int]:
    """A level's stakes under the names of the table settings (R-4)."""
    return {
        "ante": level.ante,
        "small_point": level.small_point,
        "cip": level.cip,
        "max_bet": level.max_bet,
        "card_rate": level.card_rate,
    }


def table_settings(stakes: Mapping[str, Any], level: Level) -> dict[str, Any]:
    """A tournament table's settings: the server's variants with the level's stakes. A big
    pot nobody claims goes to the dealer (never carried: a carried pot would be tournament
    chips outside every stack)."""
    return {**stakes, **level_stakes(level), "unclaimed_big_pot": "dealer"}


def record_of(meta: TableMeta) -> TournamentRecord | None:
    """The tournament the table plays, None at an ordinary table."""
    return None if meta.tournament is None else TournamentRecord.from_dict(meta.tournament)


def tournament_id(meta: TableMeta) -> int:
    """The id of the tournament of a tournament table."""
    assert meta.tournament is not None
    return int(meta.tournament["id"])


def keep(meta: TableMeta, tournament: int, record: TournamentRecord) -> None:
    """Store `record` in the meta (with the tournament's id)."""
    meta.tournament = {"id": tournament, **record.to_dict()}


def stacks(meta: TableMeta) -> dict[int, int]:
    """Each entrant's tournament chips (what a seat shows between hands)."""
    record = record_of(meta)
    if record is None:
        return {}
    state = record.state
    return {int(p): s for p, s in zip(state.players, state.stacks, strict=True)}


def snapshot(
    state: TableState, guild: int, channel: int, table: int, meta: TableMeta
) -> TableState:
    """The table's snapshot with its tournament and the level's stakes."""
    record = record_of(meta)
    if record is None:
        return state
    status = "finished" if record.state.phase is Phase.FINISHED else "running"
    if meta.tournament is not None and meta.tournament.get("status") == "cancelled":
        status = "cancelled"
    info = record.info(
        tournament_id=tournament_id(meta), guild=guild, channel=channel, status=status,
        entrants=(), table_id=table,
    )
    level = stakes_for(record.state)
    stakes = level.rules(state.stakes, state.stakes.players).replace(unclaimed_big_pot="dealer")
    return replace(state, tournament=info, stakes=stakes)


def refuse_seat(meta: TableMeta) -> None:
    """Nobody joins a tournament table, sits a CPU at it or calls its round."""
    if meta.tournament is not None:
        raise TableError("tournament_table")


def _hand_seed(seed: int, hand_no: int) -> int:
    return random.Random(f"{seed}:{hand_no}").getrandbits(63)


async def deal(session: TableSession, meta: TableMeta, notices: list[Notice]) -> list[Update]:
    """Deal the tournament's next hand (or finish it when its last hand is played)."""
    record = record_of(meta)
    assert record is not None
    if record.state.phase is Phase.FINISHED:
        return await finish(session, meta, notices)
    row = await session.shared.store.get_tournament(tournament_id(meta))
    if row.status != "running":  # cancelled while the table was down: it closes
        return [await session.close(meta, notices)]
    upcoming = next_hand(record.state)
    players = [int(p) for p in upcoming.players]
    n = len(players)
    rules = upcoming.stakes.rules(Rules(**{**session.row.settings, "players": n}), n)
    hand_no = meta.hand_no + 1
    hand_seed = _hand_seed(meta.seed, hand_no)
    hand = Hand.start(rules, list(upcoming.stacks), upcoming.dealer, seed=hand_seed)
    dealer = players[upcoming.dealer]
    seats = list(session.row.seats)
    meta.started = True
    meta.hand_no = hand_no
    meta.hand_seed = hand_seed
    meta.turn += 1
    meta.players = players
    meta.dealer = dealer
    meta.dealer_pos = seats.index(dealer) if dealer in seats else 0
    meta.paid = {}
    meta.carry = 0
    meta.sitting_out = []
    notices = [note("tables.hand_started", hand_no=hand_no, dealer=dealer), *notices]
    events = public_events(hand.events, players)
    remember(meta, events)
    started = await session.commit(
        meta, "started", events=events, notices=notices, status="playing", seats=seats,
        state=hand.to_json(), hand=hand,
    )
    updates = [started]
    first = players[hand.to_act] if hand.to_act is not None else None
    if hand.phase == "over" or first in meta.away or first in meta.leaving:
        updates += await session.play_on(session.meta.copy(), [], [], [], "action")
    return updates


async def settle(
    session: TableSession,
    meta: TableMeta,
    hand: Hand,
    events: list[dict[str, Any]],
    notices: list[Notice],
) -> list[Update]:
    """The hand is over: record it (rated), eliminate, level up and pass the deal, in one
    transaction with the tournament's state; then deal the next hand (or finish)."""
    record = await session.rated(hand_record(hand, meta), meta)
    # tournament chips are no winnings (net, season, biggest pot): only the prizes are
    record.counts_net = False
    record.biggest_pot = {}
    record.ratings = tuple(replace(update, winnings=0) for update in record.ratings)
    meta.last_hand = ending(
        hand, meta.players, hand_no=meta.hand_no, turn=meta.turn,
        blocked_stoppa=str(session.row.settings.get("blocked_stoppa", "four_aces")),
    ).to_dict()
    meta.carry = 0
    meta.paid = {}
    if meta.dealer is not None:
        meta.deals[meta.dealer] = meta.deals.get(meta.dealer, 0) + 1
    for user in meta.leaving:  # nobody leaves a tournament: they stay in, sat out
        meta.away.setdefault(user, meta.hand_no)
    meta.leaving = []
    tournament = record_of(meta)
    assert tournament is not None
    chips = {str(u): c for u, c in zip(meta.players, hand.chips, strict=True)}
    outcome = after_hand(tournament.state, chips)
    tournament = tournament.with_state(outcome.state)
    tid = tournament_id(meta)
    keep(meta, tid, tournament)
    seats = list(session.row.seats)
    for placed in reversed(outcome.eliminated):  # the worst place first, the winner last
        user = int(placed.player)
        if outcome.finished and placed.place <= 1:
            notices.append(note("tables.tournament.winner", player=user))
            continue
        notices.append(note("tables.tournament.eliminated", player=user, place=placed.place))
        if not outcome.finished:
            seats.remove(user)
            forget(meta, user)
    if outcome.level_up is not None:
        stakes = outcome.level_up.stakes
        notices.append(
            note("tables.tournament.level_up", level=outcome.level_up.level + 1, ante=stakes.ante,
                 small_point=stakes.small_point, max_bet=stakes.max_bet)
        )
    notices.insert(0, note("tables.hand_over", hand_no=meta.hand_no))
    try:
        over = await session.commit(
            meta, "hand_over", events=events, notices=notices, seats=seats,
            state=hand.to_json(), hand=hand, record=record,
            tournament=TournamentSave(tid, tournament.to_json()),
        )
    except TournamentError:  # cancelled meanwhile (by another process): the table closes
        return [await session.close(session.meta.copy(), [])]
    updates = [over]
    try:
        updates += await session.next_hand(session.meta.copy(), after_hand=True)
    except Exception:  # the hand is committed: a restart (or the next change) goes on
        log.exception("table %s: the tournament could not go on", session.id)
    return updates


async def finish(session: TableSession, meta: TableMeta, notices: list[Notice]) -> list[Update]:
    """The tournament is over: pay the pool by place, announce it, close the table."""
    record = record_of(meta)
    assert record is not None
    tid = tournament_id(meta)
    store = session.shared.store
    prizes = {int(p): chips for p, chips in payouts(record.state).items() if chips}
    updates: list[Update] = []
    try:
        await store.pay_tournament(tid, prizes)
        paid = True
    except TournamentError:  # paid before a restart, or cancelled meanwhile
        paid = (await store.get_tournament(tid)).status == "finished"
    if paid:
        over = [note("tables.tournament.paid", player=u, amount=a) for u, a in prizes.items()]
        updates.append(session.update("tournament_over", [], over))
    updates.append(await session.close(meta, notices))
    return updates


async def cancel_before_close(session: TableSession, meta: TableMeta) -> list[Notice]:
    """A tournament table closing before its tournament finished: cancel the tournament,
    every buy-in refunded (see the module's docstring); nothing when it finished or was
    cancelled already."""
    record = record_of(meta)
    if record is None or record.state.phase is Phase.FINISHED:
        return []
    store = session.shared.store
    tid = tournament_id(meta)
    try:
        await store.cancel_tournament(tid)
        notices = [note("tables.tournament.cancelled")]
    except TournamentError:  # cancelled (or ended) already
        notices = []
    if (await store.get_tournament(tid)).status == "cancelled":
        assert meta.tournament is not None
        meta.tournament["status"] = "cancelled"  # what the closed table's snapshot shows
    return notices


async def close_if_cancelled(session: TableSession) -> list[Update]:
    """At a resume: the table of a tournament cancelled while it was down (its close did not
    happen) closes at once, mid-hand or not; nothing otherwise."""
    record = record_of(session.meta)
    if record is None or record.state.phase is Phase.FINISHED:
        return []
    row = await session.shared.store.get_tournament(tournament_id(session.meta))
    if row.status == "running":
        return []
    return [await session.close(session.meta.copy(), [])]


async def stays_in(session: TableSession, user: int, kind: str, notice: Notice) -> list[Update]:
    """A player who leaves (or is kicked from) a tournament table stays in the tournament,
    sat out: their turns are played for them and they pay the antes until eliminated (or
    back). Leaving is not a way to cash out."""
    meta = session.meta.copy()
    meta.away.setdefault(user, meta.hand_no)
    if user not in meta.left:  # no "welcome back" by any table command: only I'm back
        meta.left.append(user)
    notices = [notice, note("tables.tournament.stays_in", player=user)]
    if session.in_hand:
        return await session.play_on(meta, [], [], notices, kind)
    return [await session.commit(meta, kind, notices=notices)]
