"""`TournamentPolicy`: the hands of a sit-and-go, driven by its state instead of balances.

A tournament table is an ordinary table session (thread, turn clock, restart resume, AFK
rules) whose meta holds the tournament (`TableMeta.tournament`: a `TableTournament`, its id
and its `TournamentRecord`, parsed once when the meta is loaded). The session asks this
policy what differs:

- `next_hand`: the players, stacks, dealer and stakes of the next hand come from the
  tournament's `next_hand` (the level's stakes through `Level.rules`); the engine's chips are
  tournament chips, so no chip of a balance moves while it plays (`moves` is empty: the
  server chips sit in the tournament's pool).
- `settle`: a finished hand eliminates, levels up and passes the deal; the hand, the new
  state (in the meta and in the tournament's row, `TournamentSave`) and the eliminations are
  written in ONE transaction.
- `finish`: the last hand is over: the pool is paid by `payouts` (ledger); the decision is a
  `Close` that announces it (the final Update `tournament_over`), then the table closes.
  Every step is resumable: a restart finds the finished state in the meta and pays (once:
  the store refuses a second payment), announces and closes.
- `before_close`: a table closed before the end (`/stoppa end`, a channel gone) cancels the
  tournament with every buy-in refunded. Refunds rather than a payout by stacks: a stack says
  who leads, not who would finish where, and a sit-and-go pays places, not chips; giving
  every entrant their buy-in back is the one split nobody can call unfair, and a manager
  cannot end a tournament to hand a leader the pool.
- `on_resume` (a tournament cancelled while its table was down) and a refused hand save
  (`TournamentError`: cancelled meanwhile, e.g. by another process) close the table.

What a player expects at a sit-and-go: nobody joins a tournament table; a player who leaves,
is kicked or runs out of time stays in (sat out: their turns are played for them, they pay
the antes) until eliminated, and a leaver is not brought back by a table command, only by
their own "I'm back"; an eliminated player is told their place; a table of CPU entrants
alone plays to the end.

Imports run one way: this module (and the tournament service) import `bot.tables`; nothing
in `bot.tables` imports `bot.tournaments` at run time.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot.engine import Event, Hand
from bot.store import HandRecord, Move, TournamentError, TournamentSave
from bot.tables import TableError
from bot.tables.hands import note
from bot.tables.meta import TableMeta
from bot.tables.policies.cash import CASH
from bot.tables.policy import Change, Close, Deal, HandPolicy, Settled, TableFacts
from bot.tables.updates import Notice, TableState
from bot.tournaments.presets import Level
from bot.tournaments.record import TableTournament, TournamentRecord
from bot.tournaments.state import Phase, after_hand, next_hand, payouts, stakes_for

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


def keep(meta: TableMeta, tournament: int, record: TournamentRecord) -> None:
    """Keep `record` in the meta, the tournament's state as of now."""
    meta.tournament = TableTournament(tournament, record)


def policy_for(meta: TableMeta) -> HandPolicy:
    """The policy of a table from its meta: the tournament's, or the cash table's."""
    if meta.tournament is None:
        return CASH
    return TournamentPolicy(meta.tournament.id)


class TournamentPolicy:
    """The policy of the table of tournament `tournament_id` (see the module docstring)."""

    seats_open = False
    deals_at_resume = True
    channel_table = True
    timed = True

    def __init__(self, tournament_id: int) -> None:
        self.tournament_id = tournament_id

    @staticmethod
    def record(meta: TableMeta) -> TournamentRecord:
        """The tournament's record in `meta`."""
        assert meta.tournament is not None
        return meta.tournament.record

    def check_seating(self) -> None:
        """Nobody joins a tournament table, sits a CPU at it or calls its round."""
        raise TableError("tournament_table")

    def leave(self, table: TableFacts, user: int, kind: str, notice: Notice) -> Change:
        """A player who leaves (or is kicked) stays in the tournament, sat out: their turns
        are played for them and they pay the antes until eliminated; only their own "I'm
        back" returns them (a table command does not). Leaving is not a way to cash out."""
        meta = table.meta.copy()
        meta.absence = meta.absence.gone(user, meta.in_play.hand_no)
        notices = [notice, note("tables.tournament.stays_in", player=user)]
        return Change(meta, kind, notices, play_on=table.in_hand)

    async def next_hand(
        self, table: TableFacts, meta: TableMeta, notices: list[Notice], chips: dict[int, int],
        *, strict: bool, after_hand: bool,
    ) -> Deal | Close:
        """Deal the tournament's next hand (or finish it when its last hand is played)."""
        record = self.record(meta)
        if record.state.phase is Phase.FINISHED:
            return await self.finish(table, meta, notices)
        row = await table.store.get_tournament(self.tournament_id)
        if row.status != "running":  # cancelled while the table was down: it closes
            return Close(meta, notices)
        upcoming = next_hand(record.state)
        players = [int(p) for p in upcoming.players]
        n = len(players)
        rules = upcoming.stakes.rules(table.row.rules(n), n)
        meta.in_play = meta.in_play.carrying(0)
        meta.in_play = meta.in_play.sat_out(())
        return Deal(meta, rules, players, list(upcoming.stacks), players[upcoming.dealer],
                    list(table.row.seats), notices)

    def moves(self, players: Sequence[int], before: Sequence[int], after: Sequence[int],
              events: Sequence[Event], hand_no: int, paying: str = "bet") -> list[Move]:
        """Tournament chips: no balance moves while it plays."""
        return []

    def settle(self, table: TableFacts, meta: TableMeta, hand: Hand,
               record: HandRecord, notices: list[Notice]) -> Settled:
        """Eliminate, level up and pass the deal; the tournament's state is saved with the
        hand, and the language each entrant spoke at this hand with their entry (a move keeps
        it with the seat: the results speak as the entrants do now, not as they registered).
        Tournament chips are no winnings (net, season, biggest pot): only prizes are."""
        spoken = dict(meta.languages)  # before an eliminated player's seat forgets theirs
        record.counts_net = False
        record.biggest_pot = {}
        record.ratings = tuple(replace(update, winnings=0) for update in record.ratings)
        meta.in_play = meta.in_play.carrying(0)
        for user in meta.in_play.leaving:  # nobody leaves a tournament: they stay in, sat out
            meta.absence = meta.absence.sat_out(user, meta.in_play.hand_no)
        meta.in_play = meta.in_play.gone()
        chips = {str(u): c for u, c in zip(meta.in_play.players, hand.chips, strict=True)}
        outcome = after_hand(self.record(meta).state, chips)
        tournament = self.record(meta).with_state(outcome.state)
        keep(meta, self.tournament_id, tournament)
        seats = list(table.row.seats)
        for placed in reversed(outcome.eliminated):  # the worst place first, the winner last
            user = int(placed.player)
            if outcome.finished and placed.place <= 1:
                notices.append(note("tables.tournament.winner", player=user))
                continue
            notices.append(note("tables.tournament.eliminated", player=user, place=placed.place))
            if not outcome.finished:
                seats.remove(user)
                meta.forget(user)
        if outcome.level_up is not None:
            stakes = outcome.level_up.stakes
            notices.append(note(
                "tables.tournament.level_up", level=outcome.level_up.level + 1, ante=stakes.ante,
                small_point=stakes.small_point, max_bet=stakes.max_bet,
            ))
        save = TournamentSave(self.tournament_id, tournament.to_json(), languages=spoken)
        return Settled(seats, record, tournament=save)

    async def finish(self, table: TableFacts, meta: TableMeta,
                     notices: list[Notice]) -> Close:
        """The tournament is over: pay the pool by place, announce it, close the table."""
        store = table.store
        state = self.record(meta).state
        prizes = {int(p): chips for p, chips in payouts(state).items() if chips}
        try:
            await store.pay_tournament(self.tournament_id, prizes)
            paid = True
        except TournamentError:  # paid before a restart, or cancelled meanwhile
            paid = (await store.get_tournament(self.tournament_id)).status == "finished"
        announce = None
        if paid:
            announce = [note("tables.tournament.paid", player=u, amount=a)
                        for u, a in prizes.items()]
        return Close(meta, notices, announce=announce)

    async def chips(self, table: TableFacts) -> dict[int, int]:
        """Each entrant's tournament chips."""
        state = self.record(table.meta).state
        return {int(p): s for p, s in zip(state.players, state.stacks, strict=True)}

    def snapshot(self, table: TableFacts, state: TableState) -> TableState:
        """The table's snapshot with its tournament and the level's stakes."""
        meta, row = table.meta, table.row
        record = self.record(meta)
        status = "finished" if record.state.phase is Phase.FINISHED else "running"
        if meta.tournament is not None and meta.tournament.cancelled:
            status = "cancelled"
        info = record.info(
            tournament_id=self.tournament_id, guild=row.guild_id, channel=row.channel_id,
            status=status, entrants=(), table_id=row.id,
        )
        level = stakes_for(record.state)
        stakes = level.rules(state.stakes, state.stakes.players).replace(unclaimed_big_pot="dealer")
        return replace(state, tournament=info, stakes=stakes)

    async def before_close(self, table: TableFacts, meta: TableMeta) -> list[Notice]:
        """Closing before the end cancels the tournament, every buy-in refunded (see the
        module's docstring); nothing when it finished or was cancelled already."""
        if self.record(meta).state.phase is Phase.FINISHED:
            return []
        store = table.store
        try:
            await store.cancel_tournament(self.tournament_id)
            notices = [note("tables.tournament.cancelled")]
        except TournamentError:  # cancelled (or ended) already
            notices = []
        if (await store.get_tournament(self.tournament_id)).status == "cancelled":
            assert meta.tournament is not None  # what the closed table's snapshot shows
            meta.tournament = replace(meta.tournament, cancelled=True)
        return notices

    async def on_resume(self, table: TableFacts) -> Close | None:
        """The table of a tournament cancelled while it was down closes at once."""
        if self.record(table.meta).state.phase is Phase.FINISHED:
            return None
        row = await table.store.get_tournament(self.tournament_id)
        if row.status == "running":
            return None
        return Close(table.meta.copy(), [])
