"""Each seated human's language is kept with their seat in the table's meta (issue 36): set
when they sit, read back after a restart, dropped when they leave and when the table
closes; a row written before it reads as no language kept."""

from __future__ import annotations

import json

from bot.tables.meta import TableMeta
from tests.tables.helpers import CHANNEL, GUILD, USERS, Harness
from tests.tables.test_meta_round_trip import old


async def test_languages_are_kept_with_the_seats_across_a_restart(h: Harness) -> None:
    await h.svc.open_table(GUILD, CHANNEL, USERS[0], lang="it")
    await h.svc.join(GUILD, CHANNEL, USERS[1], "en")
    await h.svc.join(GUILD, CHANNEL, USERS[2])  # not known: nothing kept
    state = h.state()
    assert state is not None and dict(state.languages) == {USERS[0]: "it", USERS[1]: "en"}
    await h.restart()
    state = h.state()
    assert state is not None and dict(state.languages) == {USERS[0]: "it", USERS[1]: "en"}
    await h.svc.leave(GUILD, CHANNEL, USERS[0])
    state = h.state()
    assert state is not None and dict(state.languages) == {USERS[1]: "en"}
    await h.svc.force_close(GUILD, CHANNEL, USERS[1])
    row = await h.store.get_table(state.table_id)
    assert "languages" not in row.meta  # a closed table keeps nobody's language


def test_a_row_from_before_reads_as_no_language_and_no_pause() -> None:
    meta = TableMeta.from_dict(old("cash_hand2"))
    assert meta.languages == {} and meta.deal_at is None
    meta.languages = {11: "it"}
    meta.deal_at = 1_000_005.0
    stored = json.loads(json.dumps(meta.to_dict()))
    assert stored["languages"] == {"11": "it"} and stored["deal_at"] == 1_000_005.0
    again = TableMeta.from_dict(stored)
    assert again.languages == {11: "it"} and again.deal_at == 1_000_005.0
