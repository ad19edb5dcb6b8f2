"""Who sits at a table, joins, leaves or comes back, as decisions the session carries out.

Each function reads the table (`TableFacts`), checks, and answers the change to write (a
`Change`, or the next hand to ask for); leaving is the policy's (a cash table's leaver goes
at the end of the hand; a tournament's stays in, sat out), who may sit at all too
(`HandPolicy.check_seating`, asked by the session).
"""

from __future__ import annotations

from bot.store import StoreContract, TableRow
from bot.tables.cpus import free_cpu_id
from bot.tables.errors import TableError
from bot.tables.hands import note
from bot.tables.limits import MAX_PLAYERS, MIN_BALANCE_ANTES
from bot.tables.policy import Change, NextHand, TableFacts


async def check_balance(store: StoreContract, guild: int, user: int, ante: int) -> None:
    """Raise TableError("not_enough_chips") unless `user` has 10 antes (of `ante`) to sit."""
    need = MIN_BALANCE_ANTES * ante
    have = await store.balance(guild, user)
    if have < need:
        raise TableError("not_enough_chips", need=need, have=have)


def check_seated(row: TableRow, user: int) -> None:
    """Raise TableError("not_seated") unless `user` sits at the table of `row`."""
    if user not in row.seats:
        raise TableError("not_seated")


def check_room(row: TableRow) -> None:
    """Raise TableError("table_full") when every seat is taken."""
    if len(row.seats) >= MAX_PLAYERS:
        raise TableError("table_full", max=MAX_PLAYERS)


def seat(table: TableFacts, user: int, cpu: str | None, lang: str | None = None) -> Change:
    """Sit `user` (a human speaking `lang`, or a CPU of level `cpu`); deal if the game waits
    for players."""
    row = table.row
    meta = table.meta.copy()
    seats = [*row.seats, user]
    meta.round = meta.round.sat(user, row.seats)
    meta.absence = meta.absence.sat(user)
    if cpu is not None:
        meta.seat_cpu(user, cpu, table.cpu_seed())
        notice = note("tables.cpu_joined", player=user, level=cpu)
    else:
        meta.sat_in(user, lang)
        notice = note("tables.joined", player=user)
    deal = meta.started and not table.in_hand and row.status == "lobby"
    return Change(meta, "cpu_added" if cpu else "joined", [notice], seats=seats,
                  then=NextHand() if deal else None)


async def join(table: TableFacts, user: int, lang: str | None = None) -> Change:
    """`user` sits speaking `lang` (or stays, if they were leaving at the end of this hand)."""
    if user in table.meta.in_play.leaving:  # changed their mind before the hand ended
        meta = table.meta.copy()
        meta.sat_in(user, lang)
        meta.in_play = meta.in_play.stays(user)
        meta.absence = meta.absence.sat(user)
        return Change(meta, "joined", [note("tables.stays", player=user)])
    row = table.row
    if user in row.seats:
        raise TableError("already_seated")
    check_room(row)
    await check_balance(table.store, row.guild_id, user, row.ante)
    return seat(table, user, None, lang)


async def add_cpu(table: TableFacts, by: int, level: str) -> Change:
    """Seat a CPU player of `level`; `by` must be seated."""
    row = table.row
    check_seated(row, by)
    check_room(row)
    cpu = free_cpu_id(row.id, set(row.seats) | set(table.meta.in_play.leaving))
    if cpu is None:
        raise TableError("table_full", max=MAX_PLAYERS)
    await check_balance(table.store, row.guild_id, cpu, row.ante)
    return seat(table, cpu, level)


def start_game(table: TableFacts, user: int) -> NextHand:
    """Start play: deal the first hand if 3 players can pay the ante."""
    check_seated(table.row, user)
    if table.in_hand:
        raise TableError("already_started")
    meta = table.meta.copy()
    meta.started = True
    return NextHand(meta, strict=True)


def call_round(table: TableFacts, user: int) -> Change | NextHand:
    """R-14: the table closes once every player has dealt the same number of times."""
    meta = table.meta.copy()
    meta.round = meta.round.called(user)
    notice = note("tables.round_called", player=user)
    if table.in_hand:
        return Change(meta, "round_called", [notice])
    return NextHand(meta, [notice])


def back(table: TableFacts, user: int) -> Change | None:
    """A sat-out `user` is back: their turns are theirs again (None if not away)."""
    if not table.meta.absence.is_away(user):
        return None
    meta = table.meta.copy()
    meta.absence = meta.absence.back(user)
    return Change(meta, "back", [note("living.back", player=user)])
