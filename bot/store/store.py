"""`SQLiteStore`: the store on one SQLite file, assembled from its parts."""

from __future__ import annotations

from bot.store.accounts import AccountsMixin
from bot.store.history import HistoryMixin
from bot.store.tables import TablesMixin


class SQLiteStore(AccountsMixin, TablesMixin, HistoryMixin):
    """Accounts and ledger, stakes, tables and history in one SQLite file.

    Open with `await SQLiteStore.open(path)`; one instance (one writer connection) per process.
    """


#: the name callers and tests have always used for the SQLite store
Store = SQLiteStore
