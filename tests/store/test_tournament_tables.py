"""The store side of tournament tables (issue 21), on both backends: a tournament starts with
its table in one transaction, each hand's save writes the tournament's state and the languages
its entrants speak in the same transaction (refused, with nothing written, once it no longer
runs), tournament hands add no net winnings, and who may open a tournament is a stored server
setting."""

from __future__ import annotations

import json

import pytest

from bot.store import (
    HandRecord,
    InvalidSetting,
    StoreContract,
    TableExists,
    TournamentError,
    TournamentSave,
)
from bot.store.models import TableSave

from .conftest import GUILD

PLAYERS = (1, 2, 3)


async def _full(store: StoreContract, channel: int = 9) -> int:
    t = await store.create_tournament(GUILD, channel, buy_in=50, max_players=3, state="{}")
    for user in PLAYERS:
        await store.register(t.id, user)
    return t.id


async def test_a_tournament_starts_with_its_table_in_one_transaction(
    store: StoreContract,
) -> None:
    tid = await _full(store)
    version = (await store.get_tournament(tid)).version
    row, table = await store.start_tournament(
        tid, expected_version=version, state='{"s": 1}', channel=70, settings={"ante": 60},
        seats=list(PLAYERS), meta={"tournament": {"id": tid}},
    )
    assert (row.status, row.table_id, row.state, row.pool) == ("running", table.id, '{"s": 1}',
                                                               150)
    assert (table.channel_id, table.seats, table.status) == (70, list(PLAYERS), "lobby")
    assert table.meta == {"tournament": {"id": tid}}
    with pytest.raises(TournamentError) as again:  # started once only
        await store.start_tournament(
            tid, expected_version=row.version, state="{}", channel=71, settings={},
            seats=[], meta={},
        )
    assert again.value.code == "tournament_not_open"
    await store.cancel_tournament(tid)
    await store.close_table(table.id, expected_version=table.version)


async def test_a_start_refused_writes_nothing(store: StoreContract) -> None:
    tid = await _full(store)
    other = await store.create_table(GUILD, 70, settings={}, seats=[8])
    version = (await store.get_tournament(tid)).version
    with pytest.raises(TableExists):  # the channel has an open table: the start rolls back
        await store.start_tournament(
            tid, expected_version=version, state="{}", channel=70, settings={},
            seats=list(PLAYERS), meta={},
        )
    row = await store.get_tournament(tid)
    assert (row.status, row.table_id, row.version) == ("open", None, version)
    with pytest.raises(TournamentError) as stale:
        await store.start_tournament(
            tid, expected_version=version - 1, state="{}", channel=71, settings={},
            seats=list(PLAYERS), meta={},
        )
    assert stale.value.code == "tournament_version_conflict"
    half = await store.create_tournament(GUILD, 9, buy_in=5, max_players=3, state="{}")
    await store.register(half.id, 1)
    with pytest.raises(TournamentError):  # seats still free
        await store.start_tournament(
            half.id, expected_version=(await store.get_tournament(half.id)).version,
            state="{}", channel=72, settings={}, seats=[1], meta={},
        )
    assert await store.table_in_channel(72) is None
    for t in (tid, half.id):
        await store.cancel_tournament(t)
    await store.close_table(other.id, expected_version=other.version)


async def test_each_hand_saves_the_tournament_state_in_its_transaction(
    store: StoreContract,
) -> None:
    tid = await _full(store)
    row, table = await store.start_tournament(
        tid, expected_version=(await store.get_tournament(tid)).version, state="{}",
        channel=70, settings={}, seats=list(PLAYERS), meta={},
    )
    hand = HandRecord(1, 5, "[]", {1: 120, 2: -60, 3: -60}, counts_net=False)
    table = await store.save_table(
        table.id,
        TableSave(
            table.version,
            meta={"hand": 1},
            hand=hand,
            tournament=TournamentSave(tid, '{"hands": 1}', languages={1: "it", 2: "en"}),
        ),
    )
    saved = await store.get_tournament(tid)
    assert (saved.state, saved.version) == ('{"hands": 1}', row.version + 1)
    assert saved.languages == {1: "it", 2: "en"}  # kept with the entries, in the same save
    stats = await store.stats(GUILD, 1)
    assert (stats.hands, stats.net) == (1, 0)  # tournament chips are not net winnings
    await store.cancel_tournament(tid)
    with pytest.raises(TournamentError):  # no longer running: the whole save is refused
        await store.save_table(
            table.id,
            TableSave(
                table.version,
                meta={"hand": 2},
                hand=HandRecord(2, 6, "[]", {1: 1, 2: -1}, counts_net=False),
                tournament=TournamentSave(tid, '{"hands": 2}', languages={1: "en"}),
            ),
        )
    kept = await store.get_table(table.id)
    assert (kept.version, kept.meta) == (table.version, {"hand": 1})
    assert (await store.stats(GUILD, 1)).hands == 1
    assert json.loads((await store.get_tournament(tid)).state or "{}") == {"hands": 1}
    assert (await store.get_tournament(tid)).languages == {1: "it", 2: "en"}
    await store.close_table(table.id, expected_version=table.version)


async def test_who_may_open_a_tournament_is_a_stored_setting(store: StoreContract) -> None:
    assert (await store.server_settings(GUILD)).tournaments_open is False
    changed = await store.update_server_settings(GUILD, by=5, tournaments_open=True)
    assert changed.tournaments_open is True
    assert (await store.server_settings(GUILD)).tournaments_open is True
    with pytest.raises(InvalidSetting):
        await store.update_server_settings(GUILD, by=5, tournaments_open="yes")
    assert (await store.server_settings(GUILD)).tournaments_open is True


async def test_the_cogs_posts_are_kept_in_the_row_without_a_new_version(
    store: StoreContract,
) -> None:
    """Issue 28: the registration message, the table's channel (written with the start) and
    the results mark live in the tournament's row; a finished tournament is "to post" until
    marked, and noting never bumps the version the service's saves check."""
    tid = await _full(store)
    await store.note_tournament_posts(tid, message=(9, 555))
    row = await store.get_tournament(tid)
    assert (row.message_channel_id, row.message_id, row.table_channel_id) == (9, 555, None)
    row, table = await store.start_tournament(
        tid, expected_version=row.version, state="{}", channel=70, settings={},
        seats=list(PLAYERS), meta={},
    )
    assert (row.table_channel_id, row.message_id, row.results_posted) == (70, 555, False)
    assert await store.tournaments_to_post(GUILD) == []  # running: nothing to post yet
    await store.close_table(table.id, expected_version=table.version)
    paid = await store.pay_tournament(tid, {PLAYERS[0]: row.pool})
    (pending,) = await store.tournaments_to_post(GUILD)
    assert (pending.id, pending.table_channel_id, pending.results_posted) == (tid, 70, False)
    await store.note_tournament_posts(tid, results_posted=True)
    assert await store.tournaments_to_post(GUILD) == []
    after = await store.get_tournament(tid)
    assert after.results_posted and after.version == paid.version
    with pytest.raises(TournamentError):
        await store.note_tournament_posts(tid + 1000, table_channel=1)
