"""`Store`: the process's SQLite store, assembled from its parts."""

from __future__ import annotations

from bot.store.accounts import AccountsMixin
from bot.store.history import HistoryMixin
from bot.store.tables import TablesMixin


class Store(AccountsMixin, TablesMixin, HistoryMixin):
    """Accounts and ledger, stakes, tables and history in one SQLite file.

    Open with `await Store.open(path)`; one instance (one writer connection) per process.
    """
