"""The store contract: everything the table service, the cogs and the tools may ask of a store.

Two implementations: `SQLiteStore` (one file, the embedded default) and `PostgresStore`
(asyncpg, for several processes on one database); `open_store(url_or_path)` returns the right
one. Callers type their store as `StoreContract` and never reach past it, so a third
implementation needs no change to a caller.

The contract is the methods' own class: every method is written, and documented, once, in its
topic module (`bot.store.accounts`, `tables`, `history`, ... gathered by `StoreMethods`), and
both stores are a driver plus this class. Restating the signatures in a Protocol beside them
let the two copies drift (two docstrings already differed); a third store inherits this class
and gives its driver (`bot.store.driver.Driver`) and `close`.

The guarantees every implementation gives: each writing method is ONE transaction (all of it
or nothing, durable once it returns); a debit is a conditional update (`balance >= amount`) and
fails with `InsufficientFunds`; every chip movement writes one ledger row; chips in play sit in
the table's escrow; `audit()` recomputes the books from the ledger. Errors are the typed ones of
`bot.store.errors` (`StoreError` and its subclasses), never a driver's exception.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.store.methods import StoreMethods


class StoreContract(StoreMethods):
    """A store of accounts and ledger, server settings and stakes, tables and statistics."""

    async def close(self) -> None:
        """Close the store after every transaction already submitted has finished."""
        raise NotImplementedError


class CopyableStore(StoreContract):
    """A store that `python -m bot db copy` can read whole and fill (both implementations:
    each driver has its own bulk paths, so these four are the drivers' to write)."""

    async def schema_version(self) -> int:
        """The schema version the database is at."""
        raise NotImplementedError

    async def is_empty(self) -> list[str]:
        """The schema's tables that hold rows (an empty list: nothing stored yet)."""
        raise NotImplementedError

    async def export_rows(self, table: str) -> tuple[list[str], list[tuple[Any, ...]]]:
        """Column names and every row of one schema table, in primary-key order."""
        raise NotImplementedError

    async def import_rows(
        self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
    ) -> None:
        """Insert rows read by `export_rows` of another store, in one transaction."""
        raise NotImplementedError
