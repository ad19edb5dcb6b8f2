"""`CashPolicy`: an ordinary table, played with the server's chips through the ledger.

Players sit with their balance (10 antes at least), pay the ante from it and every bet into
the table's escrow (each a ledger move of the step's transaction); a finished hand pays the
winners from the escrow. A CPU that cannot pay the ante leaves, a human sits the hand out
(R-5); a player who leaves during a hand defaults their turns and goes at its end; a player
sat out for a whole hand leaves at its end. The table closes when the round called is over
(R-14), when no human is seated, or after a hand with fewer than three active players.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import Event, Hand
from bot.store import HandRecord, Move
from bot.tables.chips import chip_moves
from bot.tables.dealing import first_dealer, rules_of
from bot.tables.errors import TableError, UnknownKind
from bot.tables.hands import has_humans, next_dealer, note
from bot.tables.limits import MIN_PLAYERS
from bot.tables.meta import TableMeta
from bot.tables.policy import Change, Close, Deal, NoExtras, Settled, TableFacts, Wait
from bot.tables.updates import Notice


class CashPolicy(NoExtras):
    """The policy of an ordinary table (see the module docstring)."""

    seats_open = True
    deals_at_resume = False
    channel_table = True
    timed = True

    def check_seating(self) -> None:
        """Anyone may sit (the session checks room and balance)."""

    def leave(self, table: TableFacts, user: int, kind: str, notice: Notice) -> Change:
        """At once between hands; during a hand, their turns default and they go at its end."""
        meta = table.meta.copy()
        if table.in_hand and user in meta.in_play.players:
            meta.in_play = meta.in_play.leaves(user)
            notices = [notice, note("tables.leaves_after_hand", player=user)]
            return Change(meta, kind, notices, play_on=True)
        seats = [u for u in table.row.seats if u != user]
        meta.forget(user)
        then = None if table.in_hand or has_humans(seats) else Close()
        return Change(meta, kind, [notice], seats=seats, then=then)

    async def next_hand(
        self, table: TableFacts, meta: TableMeta, notices: list[Notice], chips: dict[int, int],
        *, strict: bool, after_hand: bool,
    ) -> Deal | Wait | Close:
        """Close (round over, no human, too few active after a hand), wait in the lobby, or
        deal to every seat that can pay the ante (`chips`: the seats' balances)."""
        row = table.row
        seats = list(row.seats)
        able = self._able(meta, seats, chips, int(row.settings["ante"]), notices)
        if self._closes(meta, seats, able, notices, after_hand=after_hand):
            return Close(meta, notices, seats=seats)
        if not meta.started or len(able) < MIN_PLAYERS:
            if strict and len(able) < MIN_PLAYERS:
                raise TableError("not_enough_players", need=MIN_PLAYERS, have=len(able))
            if meta.started:
                notices.append(note("tables.waiting_players", need=MIN_PLAYERS, have=len(able)))
            meta.in_play = meta.in_play.undealt()
            return Wait(meta, seats, notices)
        # the deal: first dealer by lot, then the next seat able to play
        if meta.in_play.dealer is None:
            dealer = first_dealer(row, meta.seed, able)
        else:
            dealer = next_dealer(seats, able, meta.in_play.dealer, meta.in_play.dealer_pos)
        for user in meta.in_play.sitting_out:
            notices.append(note("tables.sits_out", player=user, ante=row.settings["ante"]))
        rules = rules_of(row, len(able))
        stacks = [chips[u] for u in able]
        return Deal(meta, rules, able, stacks, dealer, seats, notices, carry=meta.in_play.carry)

    @staticmethod
    def _able(meta: TableMeta, seats: list[int], balances: dict[int, int], ante: int,
              notices: list[Notice]) -> list[int]:
        """Who can pay the ante; CPUs that cannot leave (from `seats`), humans sit out."""
        for user in [u for u in seats if u in meta.cpus and balances.get(u, 0) < ante]:
            seats.remove(user)
            meta.forget(user)
            notices.append(note("tables.cpu_broke", player=user))
        able = [u for u in seats if balances.get(u, 0) >= ante]
        meta.in_play = meta.in_play.sat_out(u for u in seats if u not in able)
        return able

    @staticmethod
    def _closes(meta: TableMeta, seats: list[int], able: list[int], notices: list[Notice], *,
                after_hand: bool) -> bool:
        """Whether the table closes now (the notices say why)."""
        if meta.round.over(able, meta.in_play.hand_no):
            notices.append(note("tables.round_over"))
            return True
        if not has_humans(seats):
            return True
        active = [u for u in able if not meta.absence.is_away(u)]
        if after_hand and meta.started and len(active) < MIN_PLAYERS:
            notices.append(note("living.too_few", need=MIN_PLAYERS, have=len(active)))
            return True
        return False

    def moves(self, players: Sequence[int], before: Sequence[int], after: Sequence[int],
              events: Sequence[Event], hand_no: int, paying: str = "bet") -> list[Move]:
        """Every chip a step moves, between the balances and the escrow."""
        return chip_moves(players, before, after, events, hand_no, paying=paying)

    def settle(self, table: TableFacts, meta: TableMeta, hand: Hand,
               record: HandRecord, notices: list[Notice]) -> Settled:
        """The big pot left unclaimed is carried; the leavers (and those sat out for a whole
        hand) go."""
        meta.in_play = meta.in_play.carrying(int(hand.carry_out or 0))
        seats = list(table.row.seats)
        for user in meta.absence.away_before(meta.in_play.hand_no):  # sat out a whole hand: they go
            if user not in meta.in_play.leaving:
                meta.in_play = meta.in_play.leaves(user)
                notices.append(note("living.away_removed", player=user))
        for user in meta.in_play.leaving:
            if user in seats:
                seats.remove(user)
            notices.append(note("tables.removed", player=user))
        for user in meta.in_play.leaving:
            meta.forget(user)
        meta.in_play = meta.in_play.gone()
        return Settled(seats, record)

    async def chips(self, table: TableFacts) -> dict[int, int]:
        """The seats' balances."""
        seats = list(table.row.seats)
        return dict(await table.store.balances(table.row.guild_id, seats)) if seats else {}


#: The one cash policy (it keeps no state of its own).
CASH = CashPolicy()


def cash_only(meta: TableMeta) -> CashPolicy:
    """The policy chooser of a service without other kinds: cash tables only."""
    if meta.tournament is not None:
        raise UnknownKind("a tournament table needs the tournament policy")
    return CASH
