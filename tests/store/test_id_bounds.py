"""`bot.discord_utils.numbers.ID_MAX` is exactly the ids both databases can look up (issue 25).

The cogs bound every id from a custom id or option with `checked_id` before a look-up; these
tests pin that bound to the databases: at `ID_MAX` a look-up is a plain "not found" on SQLite
and PostgreSQL alike, one past it is what `checked_id` keeps away (SQLite's OverflowError,
PostgreSQL's int64 DataError)."""

from __future__ import annotations

import pytest

from bot.discord_utils.numbers import ID_MAX, fits_id
from bot.store import StoreContract
from bot.store.errors import StoreError

GUILD = 1


async def test_the_largest_id_is_a_plain_not_found(store: StoreContract) -> None:
    assert fits_id(ID_MAX) and not fits_id(ID_MAX + 1)
    assert await store.stored_hand(GUILD, ID_MAX) is None
    with pytest.raises(StoreError):
        await store.get_tournament(ID_MAX)


async def test_one_past_it_is_what_the_bound_keeps_away(sqlite_store: StoreContract) -> None:
    """(SQLite only: on PostgreSQL the DataError also leaves the pooled connection inside its
    read transaction, so the next read fails too - one more reason to bound ids first.)"""
    with pytest.raises(OverflowError):
        await sqlite_store.stored_hand(GUILD, ID_MAX + 1)
