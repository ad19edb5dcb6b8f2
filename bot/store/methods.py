"""`StoreMethods`: every method of the store contract, written once over a `Driver`.

Each store is a driver plus these methods: `SQLiteStore(SQLiteDriver, StoreMethods)` and
`PostgresStore(PgDriver, StoreMethods)`. What is left to a driver is opening, closing, running
statements, and the whole-database copy (`python -m bot db copy`), whose bulk paths differ.
"""

from __future__ import annotations

from bot.store.accounts import AccountsMixin
from bot.store.command_sync import CommandSyncMixin
from bot.store.fair_words import FairWordsMixin
from bot.store.history import HistoryMixin
from bot.store.leases import LeasesMixin
from bot.store.pings import PingsMixin
from bot.store.privacy import PrivacyMixin
from bot.store.ratings import RatingsMixin
from bot.store.tables import TablesMixin
from bot.store.tournaments import TournamentsMixin


class StoreMethods(
    AccountsMixin, TablesMixin, HistoryMixin, LeasesMixin, RatingsMixin, TournamentsMixin,
    PingsMixin, CommandSyncMixin, FairWordsMixin, PrivacyMixin,
):
    """Accounts and ledger, stakes, tables, history, leases, ratings, tournaments, pings, the
    command sync state, the players' fair-deal words, a member's data and forgetting them."""
