"""A table whose channel, thread or server is gone closes as `/stoppa end` does: the hand in
progress refunded, no chip lost (the real CHANNEL_DELETE, THREAD_DELETE and GUILD_DELETE
payloads go through discord.py's parsers)."""

from __future__ import annotations

from bot.engine import Bet
from tests.discord_table.driver import TableDriver
from tests.harness import FakeMember, Harness

START = 1000


async def _table_with_chips_in_play(h: Harness, channel: str) -> tuple[list[FakeMember], int]:
    """Three members at a table of `channel`, a hand dealt and a bet made; returns the
    members and the table id."""
    members = [h.member(name) for name in ("Anna", "Bruno", "Carla")]
    await h.slash(members[0], "stoppa new", channel=channel)
    for member in members[1:]:
        await h.slash(member, "stoppa join", channel=channel)
    await h.slash(members[0], "stoppa start", channel=channel)
    state = h.tables.state(h.channels[channel])
    assert state is not None and state.to_act is not None
    driver = TableDriver(h, members)
    info = h.tables.hand_for(h.guild_id, h.channels[channel], state.to_act)
    bets = [a for a in info.actions if isinstance(a, Bet)]
    if bets:
        await h.slash(driver.member(state.to_act), "stoppa bet", channel=channel,
                      amount=bets[0].amount)
    assert await h.store.escrow(state.table_id) > 0
    return members, state.table_id


async def _all_refunded(h: Harness, members: list[FakeMember], table_id: int) -> None:
    assert await h.store.audit() == []
    assert await h.store.escrow(table_id) == 0
    total = sum([await h.store.balance(h.guild_id, m.id) for m in members])
    assert total == START * len(members)
    row = await h.store.get_table(table_id)
    assert row.status == "closed"


async def test_channel_deleted_closes_its_table_with_refunds(h: Harness) -> None:
    members, table_id = await _table_with_chips_in_play(h, "stoppa")
    other = h.member("Dora")
    await h.slash(other, "stoppa new", channel="stoppa-2")
    await h.delete_channel("stoppa")
    assert h.tables.state(h.channel_id) is None
    await _all_refunded(h, members, table_id)
    assert h.tables.state(h.channels["stoppa-2"]) is not None  # the other channel's stays


async def test_thread_deleted_closes_its_table_with_refunds(h: Harness) -> None:
    await h.create_thread("partita")
    members, table_id = await _table_with_chips_in_play(h, "partita")
    await h.delete_channel("partita")
    assert h.tables.state(h.channels["partita"]) is None
    await _all_refunded(h, members, table_id)


async def test_a_deleted_channel_takes_the_tables_of_its_threads(h: Harness) -> None:
    await h.create_thread("partita", parent="stoppa-2")
    members, table_id = await _table_with_chips_in_play(h, "partita")
    await h.delete_channel("stoppa-2")
    assert h.tables.state(h.channels["partita"]) is None
    await _all_refunded(h, members, table_id)


async def test_bot_removed_from_the_server_closes_every_table(h: Harness) -> None:
    members, table_id = await _table_with_chips_in_play(h, "stoppa")
    other = h.member("Dora")
    await h.slash(other, "stoppa new", channel="stoppa-2")
    await h.remove_from_guild()
    assert h.tables.tables() == []
    await _all_refunded(h, members, table_id)


async def test_a_server_outage_closes_nothing(h: Harness) -> None:
    _, table_id = await _table_with_chips_in_play(h, "stoppa")
    await h.gateway("GUILD_DELETE", {"id": str(h.guild_id), "unavailable": True})
    state = h.tables.state(h.channel_id)
    assert state is not None and state.table_id == table_id
    assert await h.store.escrow(table_id) > 0
