"""Turn-ping opt-outs (issue 18): off per member and server, on by default, idempotent,
seen by a second process on the same database. Runs on SQLite and on PostgreSQL."""

from __future__ import annotations

from bot.store import StoreContract

from .conftest import GUILD, OTHER_GUILD


async def test_pings_are_on_by_default_and_off_per_server(store: StoreContract) -> None:
    assert await store.pings_off(GUILD) == set()
    await store.set_pings(GUILD, 11, False)
    await store.set_pings(GUILD, 11, False)  # twice: still one opt-out, no error
    await store.set_pings(GUILD, 12, False)
    assert await store.pings_off(GUILD) == {11, 12}
    assert await store.pings_off(OTHER_GUILD) == set()
    await store.set_pings(GUILD, 11, True)
    await store.set_pings(GUILD, 13, True)  # on when already on: nothing to do
    assert await store.pings_off(GUILD) == {12}


async def test_an_opt_out_is_seen_by_another_process(
    two_stores: tuple[StoreContract, StoreContract],
) -> None:
    a, b = two_stores
    await a.set_pings(GUILD, 21, False)
    assert await b.pings_off(GUILD) == {21}
    await b.set_pings(GUILD, 21, True)
    assert await a.pings_off(GUILD) == set()
