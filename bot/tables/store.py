"""`TableStore`: exactly the store methods the table service calls.

The service depends on this Protocol, not on a store class, so any store that offers these
methods (SQLite today, PostgreSQL next) drives tables without a change here. Each method that
writes does so in one transaction (see `bot.store`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from bot.store import HandRecord, Move, ServerSettings, TableRow


class TableStore(Protocol):
    """The store as the table service sees it."""

    async def get_stakes(self, guild: int) -> dict[str, Any]: ...

    async def server_settings(self, guild: int) -> ServerSettings: ...

    async def balance(self, guild: int, user: int) -> int: ...

    async def balances(self, guild: int, users: list[int]) -> dict[int, int]: ...

    async def create_table(
        self,
        guild: int,
        channel: int,
        *,
        settings: Mapping[str, Any],
        seats: Sequence[int] = ...,
        meta: Mapping[str, Any] | None = ...,
    ) -> TableRow: ...

    async def get_table(self, table_id: int) -> TableRow: ...

    async def escrow(self, table_id: int) -> int: ...

    async def load_open_tables(self) -> list[TableRow]: ...

    # The optional fields are typed Any: each store has its own "not given" sentinel.
    async def save_table(
        self,
        table_id: int,
        *,
        expected_version: int,
        status: Any = ...,
        seats: Any = ...,
        dealer: Any = ...,
        state: Any = ...,
        meta: Any = ...,
        deadline: Any = ...,
        message_id: Any = ...,
        moves: Sequence[Move] = ...,
        hand: HandRecord | None = ...,
    ) -> TableRow: ...

    async def close_table(
        self,
        table_id: int,
        *,
        expected_version: int,
        refunds: Sequence[Move] = ...,
        meta: Mapping[str, Any] | None = ...,
    ) -> TableRow: ...
