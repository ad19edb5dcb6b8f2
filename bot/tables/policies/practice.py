"""`PracticePolicy`: one member against CPU players, with practice chips that are never the
server's.

A practice table plays with the server's stakes and variants (practice prepares for the
server's tables), but its chips are its own: every seat starts with `STACK_ANTES` antes of
practice chips, kept in the table's meta (`TableMeta.practice`, a `PracticeMeta`), and no chip
of the ledger ever moves (`moves` is empty: no escrow, no Move rows). A finished hand is saved
as no hand record (`Settled.record` None), so nothing of it reaches history, stats,
leaderboards or ratings. A seat left without the ante starts again with a fresh practice stack
(it is practice: nobody is out of the game).

The table is its member's, not a channel's (`channel_table` False): its row's channel is the
member's id negated (`practice_channel`), which no Discord channel has, so the store's "one
open table per channel" index also keeps one practice table per member; the service never
counts it as a channel's table nor as the member's seat in the server. The member alone waits
for themselves (`timed` False): no turn clock, and the CPU seats play at once. Between hands
the table waits for the member's "Next hand" (`next_hand` deals only when asked, `strict`, or
at the opening), so the result of a hand stays on screen until they have read it. Leaving
closes the table: there is nothing to refund.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import Event, Hand
from bot.store import HandRecord, Move
from bot.tables.cpus import free_cpu_id
from bot.tables.dealing import first_dealer, rules_of
from bot.tables.errors import TableError
from bot.tables.hands import next_dealer, note
from bot.tables.meta import TableMeta
from bot.tables.policy import (
    Close,
    Deal,
    HandPolicy,
    NoExtras,
    PolicyChooser,
    Settled,
    TableFacts,
    Wait,
)
from bot.tables.practice_meta import PracticeMeta
from bot.tables.updates import Notice

#: every seat of a practice table starts with this many antes of practice chips
STACK_ANTES = 100
#: CPU opponents: at least, at most, by default
MIN_CPUS, MAX_CPUS, DEFAULT_CPUS = 2, 5, 3


def practice_channel(user: int) -> int:
    """The channel id of `user`'s practice table row: their id negated (no channel has it)."""
    return -user


def setup_of(meta: TableMeta) -> PracticeMeta:
    """The practice part of a practice table's meta."""
    assert meta.practice is not None
    return meta.practice


def practice_meta(meta: TableMeta, owner: int, cpus: int, level: str, ante: int) -> TableMeta:
    """`meta` made a practice table's: the setup, the member's stack (the CPU seats are
    seated at the first deal, when the table's id names them)."""
    stack = STACK_ANTES * ante
    meta.practice = PracticeMeta(owner, cpus, level, stack, {owner: stack})
    meta.started = True
    return meta


class PracticePolicy(NoExtras):
    """The policy of a practice table (see the module docstring)."""

    seats_open = False
    deals_at_resume = False
    channel_table = False
    timed = False

    def check_seating(self) -> None:
        """Nobody else sits at a practice table: to anyone else it is no table at all."""
        raise TableError("no_table")

    def leave(self, table: TableFacts, user: int, kind: str, notice: Notice) -> Close:
        """The member leaves: the table closes at once (practice chips: nothing to refund)."""
        return Close(table.meta.copy(), [notice])

    async def next_hand(
        self, table: TableFacts, meta: TableMeta, notices: list[Notice], chips: dict[int, int],
        *, strict: bool, after_hand: bool,
    ) -> Deal | Wait:
        """Deal when the member asks (`strict`: their Next hand) or at the opening; else
        wait with the last hand's result on screen."""
        if not strict and meta.in_play.hand_no:
            return Wait()
        setup = setup_of(meta)
        row = table.row
        seats = list(row.seats)
        while len(seats) < setup.cpus + 1:  # the opening: the CPU seats take their places
            cpu = free_cpu_id(row.id, seats)
            assert cpu is not None
            seats.append(cpu)
            meta.seat_cpu(cpu, setup.level, table.cpu_seed())
        stacks = dict(setup.stacks)
        ante = row.ante
        for user in seats:
            if stacks.get(user, 0) < ante:
                if user in stacks:
                    notices.append(note("practice.restocked", player=user, stack=setup.stack))
                stacks[user] = setup.stack
        meta.practice = setup.with_stacks(stacks)
        if meta.in_play.dealer is None:
            dealer = first_dealer(row, meta.seed, seats)  # from the secret, as at any table
        else:
            dealer = next_dealer(seats, seats, meta.in_play.dealer, meta.in_play.dealer_pos)
        rules = rules_of(row, len(seats))
        return Deal(meta, rules, seats, [stacks[u] for u in seats], dealer, seats, notices,
                    carry=meta.in_play.carry)

    def moves(self, players: Sequence[int], before: Sequence[int], after: Sequence[int],
              events: Sequence[Event], hand_no: int, paying: str = "bet") -> list[Move]:
        """Practice chips: no chip of the ledger moves."""
        return []

    def settle(self, table: TableFacts, meta: TableMeta, hand: Hand,
               record: HandRecord, notices: list[Notice]) -> Settled:
        """Keep the seats' practice chips (a big pot nobody claims is carried, as the
        server's variant says); no hand record is saved."""
        meta.in_play = meta.in_play.carrying(int(hand.carry_out or 0))
        setup = setup_of(meta)
        played = dict(zip(meta.in_play.players, hand.chips, strict=True))
        meta.practice = setup.with_stacks({**setup.stacks, **played})
        return Settled(list(table.row.seats), None)

    async def chips(self, table: TableFacts) -> dict[int, int]:
        """Each seat's practice chips."""
        return dict(setup_of(table.meta).stacks)


#: The one practice policy (it keeps no state of its own).
PRACTICE = PracticePolicy()


def with_practice(other: PolicyChooser) -> PolicyChooser:
    """A policy chooser that gives practice tables theirs and asks `other` for the rest."""

    def choose(meta: TableMeta) -> HandPolicy:
        return PRACTICE if meta.practice is not None else other(meta)

    return choose
