"""The store contract: everything the table service, the cogs and the tools may ask of a store.

Two implementations: `SQLiteStore` (one file, the embedded default) and `PostgresStore`
(asyncpg, for several processes on one database); `open_store(url_or_path)` returns the right
one. Callers type their store as `StoreContract` and never reach past it, so a third
implementation needs no change to a caller.

The guarantees every implementation gives: each writing method is ONE transaction (all of it
or nothing, durable once it returns); a debit is a conditional update (`balance >= amount`) and
fails with `InsufficientFunds`; every chip movement writes one ledger row; chips in play sit in
the table's escrow; `audit()` recomputes the books from the ledger. Errors are the typed ones of
`bot.store.errors` (`StoreError` and its subclasses), never a driver's exception.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any, Protocol

from bot.fairness.secret import TableSecret
from bot.store.hand_rows import FinishedHand, StoredHand
from bot.store.models import (
    UNSET,
    DailyClaim,
    GiveResult,
    LeaderRow,
    Lease,
    Move,
    PlayerStats,
    RatingPoint,
    RatingRow,
    RatingUpdate,
    Season,
    ServerSettings,
    StoredRating,
    TableRow,
    TableSave,
    TournamentRow,
    Unset,
)
from bot.store.privacy import Forgotten, MemberData
from bot.store.stakes import Stakes


class StoreContract(Protocol):
    """A store of accounts and ledger, server settings and stakes, tables and statistics."""

    async def close(self) -> None:
        """Close the store after every transaction already submitted has finished."""
        ...

    # accounts and chips ------------------------------------------------------------------
    async def balance(self, guild: int, user: int) -> int:
        """The user's balance on this server (the account is created on first use)."""
        ...

    async def balances(self, guild: int, users: list[int]) -> dict[int, int]:
        """The balances of `users` on this server (missing accounts are created)."""
        ...

    async def claim_daily(
        self,
        guild: int,
        user: int,
        *,
        now: float | None = None,
        joined_at: float | None = None,
    ) -> DailyClaim:
        """The server's daily chips, at most once per cooldown (`CooldownActive`); none for a
        member who joined (`joined_at`, if known) less than the server's minimum age ago, and
        never above the server's balance cap (`DailyRefused`)."""
        ...

    async def give(
        self, guild: int, giver: int, receiver: int, amount: int, *, now: float | None = None
    ) -> GiveResult:
        """A member's gift to another, atomic and ledgered: refused when the server disabled
        gifts, to oneself or a CPU, over the giver's limit for the last 24 hours or the
        receiver's cap (`GiveRefused`), or beyond the giver's balance (`InsufficientFunds`)."""
        ...

    async def grant(self, guild: int, user: int, amount: int, *, reason: str, by: int) -> int:
        """An admin grant (> 0, minted) or removal (< 0, burned); the new balance."""
        ...

    # server settings and stakes -----------------------------------------------------------
    async def server_settings(self, guild: int) -> ServerSettings:
        """The server's settings (defaults when never changed)."""
        ...

    async def update_server_settings(
        self, guild: int, *, by: int, **changes: Any
    ) -> ServerSettings:
        """Change some settings (validated: `InvalidSetting`); the new settings."""
        ...

    async def set_pings(self, guild: int, user: int, on: bool) -> None:
        """Turn a member's turn pings on this server on (the default) or off (`/pings`)."""
        ...

    async def pings_off(self, guild: int) -> set[int]:
        """The members of the server who turned their turn pings off."""
        ...

    async def member_data(self, guild: int, user: int) -> MemberData:
        """What this server's rows hold about a member (`/privacy`, docs/privacy.md)."""
        ...

    async def forget_member(self, guild: int, user: int) -> Forgotten:
        """Put an anonymous placeholder in every row of this server naming the member, return
        their chips to the bank, delete their settings (`ForgetRefused` while in a game)."""
        ...

    async def set_word(self, guild: int, user: int, word: str) -> None:
        """Keep a member's fair-deal word (normalised; "" clears it) (`/fair word`)."""
        ...

    async def words_of(self, guild: int, users: Sequence[int]) -> dict[int, str]:
        """The fair-deal words of those of `users` who set one on this server."""
        ...

    # the slash commands' sync state -------------------------------------------------------
    async def command_sync_state(self) -> dict[str, str]:
        """The hash of the commands' JSON last synced to each target ("global",
        "guild:<id>")."""
        ...

    async def record_command_sync(self, target: str, digest: str) -> None:
        """`digest` was just synced to `target`."""
        ...

    async def forget_command_sync(self, target: str) -> None:
        """`target` holds no copy of the commands any more."""
        ...

    async def get_stakes(self, guild: int) -> Stakes:
        """The server's stakes and variants (the defaults when never changed)."""
        ...

    async def set_stakes(
        self, guild: int, changes: Mapping[str, object], *, by: int
    ) -> Stakes:
        """Apply stakes changes (stake or variant name -> value), validated as a whole
        (`InvalidStakes`); the new stakes."""
        ...

    # tables ---------------------------------------------------------------------------------
    async def create_table(
        self,
        guild: int,
        channel: int,
        *,
        settings: Mapping[str, Any],
        seats: Sequence[int] = (),
        meta: Mapping[str, Any] | None = None,
        secret: TableSecret | None = None,
    ) -> TableRow:
        """A new table in the lobby (`TableExists` if the channel has an open one)."""
        ...

    async def get_table(self, table_id: int) -> TableRow:
        """The table with this id (`TableNotFound`)."""
        ...

    async def escrow(self, table_id: int) -> int:
        """The chips the table holds."""
        ...

    async def load_open_tables(self, guild_ids: Collection[int] | None = None) -> list[TableRow]:
        """Every table not closed (of the servers `guild_ids` only, when given), oldest first."""
        ...

    # table leases (several processes on one database) ------------------------------------
    async def acquire_lease(self, table_id: int, owner: str, ttl: float, now: float) -> Lease:
        """Take the table's lease until `now + ttl` when it is free, expired or already
        `owner`'s (one conditional statement); else `granted=False` with the holder."""
        ...

    async def renew_lease(self, table_id: int, owner: str, ttl: float, now: float) -> bool:
        """Extend `owner`'s lease to `now + ttl`; False if not theirs or already expired."""
        ...

    async def renew_leases(self, owner: str, ttl: float, now: float) -> list[int]:
        """Extend every unexpired lease of `owner` to `now + ttl` in ONE statement (a beat
        costs one transaction, however many tables); the ids renewed, sorted."""
        ...

    async def release_lease(self, table_id: int, owner: str) -> bool:
        """Give up `owner`'s lease; False if they did not hold it."""
        ...

    async def leased_tables(self, owner: str, now: float) -> list[int]:
        """The ids of the tables whose lease `owner` holds at `now`."""
        ...

    async def save_table(
        self,
        table_id: int,
        change: TableSave,
        *,
        lease_owner: str | None = None,
        now: float | None = None,
    ) -> TableRow:
        """One action in one transaction: version check, the fields `change` sets, every move
        (with ledger rows, through the escrow), the hand record (`VersionConflict`,
        `InsufficientFunds`, `StoreError`). With `lease_owner` it is fenced: applied only
        while that owner holds the table's unexpired lease at `now` (else `LeaseLost`), so a
        process paused past its lease can never write. With `change.tournament` the running
        tournament's state is written too (`TournamentError` if it no longer runs)."""
        ...

    async def start_tournament(
        self,
        tournament_id: int,
        *,
        expected_version: int,
        state: str,
        channel: int,
        settings: Mapping[str, Any],
        seats: Sequence[int],
        meta: Mapping[str, Any],
        now: float | None = None,
        secret: TableSecret | None = None,
    ) -> tuple[TournamentRow, TableRow]:
        """A full open tournament (still at `expected_version`) starts running with `state`
        and its new table in `channel` (lobby, `seats` seated, the tournament's `table_id`),
        in ONE transaction (`TournamentError`, `TableExists`)."""
        ...

    async def close_table(
        self,
        table_id: int,
        *,
        expected_version: int,
        refunds: Sequence[Move] = (),
        meta: Mapping[str, Any] | None = None,
        lease_owner: str | None = None,
        now: float | None = None,
    ) -> TableRow:
        """Close the table with its refunds; the escrow must end at 0. Fenced by
        `lease_owner` as `save_table` is (`LeaseLost`)."""
        ...

    # ratings and seasons (issue 21) --------------------------------------------------------
    async def record_ratings(
        self,
        guild: int,
        updates: Sequence[RatingUpdate],
        *,
        hand_id: int | None = None,
        now: float | None = None,
    ) -> int:
        """Every player's new rating after one hand (and its season winnings) with a history
        point each, in one transaction; the season number they were recorded in."""
        ...

    async def ratings(self, guild: int, users: Sequence[int]) -> dict[int, StoredRating]:
        """The current season's ratings of `users` (those never rated are left out)."""
        ...

    async def current_season(self, guild: int) -> int:
        """The number of the season in progress on the server (1 until a new one starts)."""
        ...

    async def rating_board(
        self, guild: int, season: int | None = None, limit: int = 10, offset: int = 0
    ) -> list[RatingRow]:
        """One page of a season's board by `mu - 3 sigma` (None: the current one, live; an
        ended one: its frozen standings); CPU players left out."""
        ...

    async def count_rated(self, guild: int, season: int | None = None) -> int:
        """How many players the board of `season` ranks (for paging)."""
        ...

    async def rating_history(self, guild: int, user: int, limit: int = 50) -> list[RatingPoint]:
        """The player's latest `limit` ratings of the current season, oldest first."""
        ...

    async def new_season(self, guild: int, name: str | None, *, now: float | None = None) -> Season:
        """Freeze the current standings, end the season and start the next (`InvalidName`);
        balances are untouched. The new season."""
        ...

    async def seasons(self, guild: int) -> list[Season]:
        """Every season of the server, oldest first (the last one is in progress)."""
        ...

    # tournaments (issue 21) ---------------------------------------------------------------
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
        ...

    async def get_tournament(self, tournament_id: int) -> TournamentRow:
        """The tournament with its entrants (`TournamentError`)."""
        ...

    async def open_tournaments(self, guild: int) -> list[TournamentRow]:
        """The server's tournaments still open or running, oldest first (entrants not read)."""
        ...

    async def register(
        self, tournament_id: int, user: int, *, now: float | None = None
    ) -> TournamentRow:
        """Enter `user`: the buy-in moves from their balance into the tournament's pool
        (`TournamentError` registered/full/not open, `InsufficientFunds`)."""
        ...

    async def unregister(
        self, tournament_id: int, user: int, *, now: float | None = None
    ) -> TournamentRow:
        """Withdraw `user` while registration is open, refunding their buy-in."""
        ...

    async def cancel_tournament(
        self, tournament_id: int, *, now: float | None = None
    ) -> TournamentRow:
        """Cancel an open or running tournament, refunding every buy-in."""
        ...

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
        """Save state JSON / status (open or running) / current table under a version check."""
        ...

    async def pay_tournament(
        self, tournament_id: int, payouts: Mapping[int, int], *, now: float | None = None
    ) -> TournamentRow:
        """Pay the pool to entrants by `payouts` (summing to the pool exactly, else refused)
        and finish the tournament."""
        ...

    async def note_tournament_posts(
        self,
        tournament_id: int,
        *,
        message: tuple[int, int] | Unset = UNSET,
        table_channel: int | Unset = UNSET,
        results_posted: bool | Unset = UNSET,
    ) -> None:
        """Keep what the tournament cog posted: its registration message (channel id,
        message id), its table's channel or thread, whether its results are posted."""
        ...

    async def tournaments_to_post(self, guild: int) -> list[TournamentRow]:
        """The server's finished tournaments whose results are not posted yet."""
        ...

    # statistics and books ----------------------------------------------------------------
    async def stats(self, guild: int, user: int) -> PlayerStats:
        """The user's statistics and balance on this server."""
        ...

    async def player_hands(
        self, guild: int, user: int, limit: int = 10, offset: int = 0
    ) -> list[StoredHand]:
        """The finished hands `user` played on this server, newest first."""
        ...

    async def count_player_hands(self, guild: int, user: int) -> int:
        """How many finished hands `user` played on this server."""
        ...

    async def hand_history(self, table_id: int, limit: int = 20) -> list[FinishedHand]:
        """The table's finished hands, newest first (user keys are ints; `words` the
        (user, word) pairs in seat order)."""
        ...

    async def stored_hand(self, guild: int, hand_id: int) -> StoredHand | None:
        """The finished hand `hand_id` if it was played on this server, else None."""
        ...

    async def leaderboard(
        self, guild: int, by: str = "balance", limit: int = 10, offset: int = 0
    ) -> list[LeaderRow]:
        """One page of the leaderboard by "balance", "net" or "closes"."""
        ...

    async def count_ranked(self, guild: int, by: str = "balance") -> int:
        """How many users the leaderboard `by` ranks."""
        ...

    async def total_chips(self, guild: int) -> tuple[int, int, int]:
        """(sum of balances, chips held by table escrows and tournament pools, chips minted
        net of burns) on the server."""
        ...

    async def audit(self) -> list[str]:
        """Every difference between the books and the ledger (empty: they balance)."""
        ...


class CopyableStore(StoreContract, Protocol):
    """A store that `python -m bot db copy` can read whole and fill (both implementations)."""

    async def query(self, sql: str, params: Sequence[object] = ()) -> Sequence[Sequence[Any]]:
        """Every row of one read statement (`?` placeholders, SQL both databases run)."""
        ...

    async def schema_version(self) -> int:
        """The schema version the database is at."""
        ...

    async def is_empty(self) -> list[str]:
        """The schema's tables that hold rows (an empty list: nothing stored yet)."""
        ...

    async def export_rows(self, table: str) -> tuple[list[str], list[tuple[Any, ...]]]:
        """Column names and every row of one schema table, in primary-key order."""
        ...

    async def import_rows(
        self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
    ) -> None:
        """Insert rows read by `export_rows` of another store, in one transaction."""
        ...
