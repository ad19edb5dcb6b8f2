"""Tournaments on PostgreSQL: the statements of `bot.store.tournaments`, numbered.

Each operation's first write is the conditional UPDATE (or the entry's INSERT) that locks the
tournament's row, which PostgreSQL re-checks on its newest version: concurrent registrations
never pass `max_players`, and a pool is paid out or refunded once. Accounts are then updated in
user-id order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.store.errors import TournamentError
from bot.store.ledger import USER, Account
from bot.store.models import (
    REASON_BUY_IN,
    REASON_BUY_IN_REFUND,
    REASON_PRIZE,
    UNSET,
    TournamentRow,
    Unset,
)
from bot.store.postgres.connection import PgBase, PgTransfers, numbered
from bot.store.tournaments import (
    CREATE,
    END,
    ENTER,
    ENTRANTS,
    ENTRIES,
    GET,
    GIVE_SEAT,
    LEAVE,
    OF_GUILD,
    TAKE_SEAT,
    TO_POST,
    TOURNAMENT,
    check_new,
    check_payouts,
    lock_sql,
    posts_update,
    refused,
    refused_entry,
    save_changes,
    tournament_row,
)


async def _read(tx: PgTransfers, tournament_id: int) -> TournamentRow:
    rows = await tx.fetch(numbered(GET), tournament_id)
    return tournament_row(rows[0], await tx.fetch(numbered(ENTRANTS), tournament_id))


async def _current(tx: PgTransfers, tournament_id: int) -> list[Any]:
    return await tx.fetch(numbered(GET), tournament_id)


def _pool(t: int) -> Account:
    return Account(TOURNAMENT, t)


class PgTournamentsMixin(PgBase):
    """Tournaments of the PostgreSQL store."""

    async def create_tournament(
        self,
        guild: int,
        channel: int,
        *,
        buy_in: int,
        max_players: int,
        state: str | None = None,
        now: float | None = None,
    ) -> TournamentRow:
        """A new tournament open for registration, with an empty pool."""
        check_new(buy_in, max_players)

        async def create(tx: PgTransfers) -> TournamentRow:
            rows = await tx.fetch(
                numbered(CREATE), guild, channel, state, buy_in, max_players, tx.now, tx.now
            )
            return tournament_row(rows[0])

        return await self._transaction(create, now)

    async def get_tournament(self, tournament_id: int) -> TournamentRow:
        """The tournament with its entrants (TournamentError tournament_not_found)."""
        rows = await self.query(GET, (tournament_id,))
        if not rows:
            raise TournamentError("tournament_not_found")
        return tournament_row(rows[0], await self.query(ENTRANTS, (tournament_id,)))

    async def open_tournaments(self, guild: int) -> list[TournamentRow]:
        """The server's tournaments still open or running, oldest first (no entrants)."""
        return [tournament_row(r) for r in await self.query(OF_GUILD, (guild,))]

    async def register(
        self, tournament_id: int, user: int, *, now: float | None = None
    ) -> TournamentRow:
        """Enter `user`, moving the buy-in from their balance into the pool."""

        async def enter(tx: PgTransfers) -> TournamentRow:
            if not await tx.fetch(numbered(ENTER), user, tx.now, tournament_id):
                raise refused_entry(await _current(tx, tournament_id))
            current = tournament_row((await _current(tx, tournament_id))[0])
            seated = await tx.fetch(numbered(TAKE_SEAT), current.buy_in, tx.now, tournament_id)
            if not seated:
                again = tournament_row((await _current(tx, tournament_id))[0])
                full = again.status == "open"
                raise TournamentError("tournament_full" if full else "tournament_not_open")
            if current.buy_in:
                await tx.add_to_user(current.guild_id, user, -current.buy_in)
                tx.record(
                    current.guild_id,
                    Account(USER, user),
                    _pool(tournament_id),
                    current.buy_in,
                    REASON_BUY_IN,
                )
            return await _read(tx, tournament_id)

        return await self._transaction(enter, now)

    async def unregister(
        self, tournament_id: int, user: int, *, now: float | None = None
    ) -> TournamentRow:
        """Withdraw `user` before the start, refunding their buy-in."""

        async def leave(tx: PgTransfers) -> TournamentRow:
            locked = await tx.fetch(numbered(lock_sql("open")), tx.now, tournament_id)
            if not locked:
                raise refused(await _current(tx, tournament_id))
            paid = await tx.fetch(numbered(LEAVE), tournament_id, user)
            if not paid:
                raise TournamentError("tournament_not_registered")
            amount = int(paid[0][0])
            await tx.execute(numbered(GIVE_SEAT), amount, tournament_id)
            if amount:
                guild = int(locked[0][0])
                await tx.add_to_user(guild, user, amount)
                tx.record(
                    guild, _pool(tournament_id), Account(USER, user), amount, REASON_BUY_IN_REFUND
                )
            return await _read(tx, tournament_id)

        return await self._transaction(leave, now)

    async def cancel_tournament(
        self, tournament_id: int, *, now: float | None = None
    ) -> TournamentRow:
        """Cancel an open or running tournament, refunding every buy-in."""

        async def cancel(tx: PgTransfers) -> TournamentRow:
            sql = numbered(lock_sql("open", "running"))
            locked = await tx.fetch(sql, tx.now, tournament_id)
            if not locked:
                raise refused(await _current(tx, tournament_id))
            guild = int(locked[0][0])
            for user, paid in await tx.fetch(numbered(ENTRIES), tournament_id):
                if paid:
                    await tx.add_to_user(guild, int(user), int(paid))
                    tx.record(
                        guild,
                        _pool(tournament_id),
                        Account(USER, int(user)),
                        int(paid),
                        REASON_BUY_IN_REFUND,
                    )
            await tx.fetch(numbered(END), "cancelled", tournament_id)
            return await _read(tx, tournament_id)

        return await self._transaction(cancel, now)

    async def save_tournament(
        self,
        tournament_id: int,
        *,
        expected_version: int,
        state: str | Unset | None = UNSET,
        status: str | Unset = UNSET,
        table_id: int | Unset | None = UNSET,
        now: float | None = None,
    ) -> TournamentRow:
        """Save the tournament's state (and status open/running, its current table) if its
        version is still `expected_version` (TournamentError tournament_version_conflict)."""
        changes = save_changes(state, status, table_id)

        async def save(tx: PgTransfers) -> TournamentRow:
            sets = "".join(f"{c} = ?, " for c in changes)
            rows = await tx.fetch(
                numbered(
                    f"UPDATE tournaments SET {sets}version = version + 1, updated_at = ?"
                    " WHERE id = ? AND version = ? AND status IN ('open', 'running')"
                    " RETURNING id"
                ),
                *changes.values(),
                tx.now,
                tournament_id,
                expected_version,
            )
            if not rows:
                raise refused(await _current(tx, tournament_id), expected_version)
            return await _read(tx, tournament_id)

        return await self._transaction(save, now)

    async def pay_tournament(
        self, tournament_id: int, payouts: Mapping[int, int], *, now: float | None = None
    ) -> TournamentRow:
        """Pay the whole pool to the winners by the given amounts (adding up to the pool
        exactly) and close the tournament as finished."""

        async def pay(tx: PgTransfers) -> TournamentRow:
            sql = numbered(lock_sql("open", "running"))
            locked = await tx.fetch(sql, tx.now, tournament_id)
            if not locked:
                raise refused(await _current(tx, tournament_id))
            guild, pool = int(locked[0][0]), int(locked[0][1])
            entrants = {int(r[0]) for r in await tx.fetch(numbered(ENTRIES), tournament_id)}
            for user in check_payouts(payouts, pool, entrants):
                await tx.add_to_user(guild, user, payouts[user])
                tx.record(
                    guild, _pool(tournament_id), Account(USER, user), payouts[user], REASON_PRIZE
                )
            await tx.fetch(numbered(END), "finished", tournament_id)
            return await _read(tx, tournament_id)

        return await self._transaction(pay, now)

    async def note_tournament_posts(
        self,
        tournament_id: int,
        *,
        message: tuple[int, int] | Unset = UNSET,
        table_channel: int | Unset = UNSET,
        results_posted: bool | Unset = UNSET,
    ) -> None:
        """Keep what the cog posted: the registration message (channel id, message id), the
        table's channel or thread, the results posted (TournamentError if no such row)."""
        sql, values = posts_update(message, table_channel, results_posted)

        async def note(tx: PgTransfers) -> None:
            if not await tx.fetch(numbered(sql), *values, tournament_id):
                raise TournamentError("tournament_not_found")

        await self._transaction(note)

    async def tournaments_to_post(self, guild: int) -> list[TournamentRow]:
        """The server's finished tournaments whose results are not posted yet (no entrants)."""
        return [tournament_row(r) for r in await self.query(TO_POST, (guild,))]
