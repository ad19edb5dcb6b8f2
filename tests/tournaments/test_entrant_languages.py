"""The language an entrant registered in is kept with their entry (SQLite and PostgreSQL) and
becomes their seat's at the tournament's table: what the table says after a restart comes
from the stored rows, never from memory (issue 36)."""

from __future__ import annotations

from bot.tournaments import TournamentConfig
from tests.tables.helpers import GUILD
from tests.tournaments.helpers import LOBBY, OPENER, THREAD, TournamentHarness


async def test_entrants_languages_go_from_the_entry_to_the_table(th: TournamentHarness) -> None:
    config = TournamentConfig.create(buy_in=100, seats=4)
    info = await th.tournaments.create(GUILD, LOBBY, OPENER, config)
    await th.tournaments.join(info.id, 11, "it")
    await th.tournaments.join(info.id, 12, "en")
    await th.tournaments.join(info.id, 13)  # a language we do not speak: nothing kept
    info = await th.tournaments.add_cpu(info.id, OPENER, "easy")
    assert dict(info.languages) == {11: "it", 12: "en"}
    assert dict((await th.tournaments.info(info.id)).languages) == {11: "it", 12: "en"}
    await th.restart()
    state = await th.tournaments.start(info.id, channel=THREAD, own_thread=True)
    assert dict(state.languages) == {11: "it", 12: "en"}
    await th.restart()
    again = th.svc.state(THREAD)
    assert again is not None and dict(again.languages) == {11: "it", 12: "en"}


async def test_a_forgotten_entrant_keeps_no_language(th: TournamentHarness) -> None:
    config = TournamentConfig.create(buy_in=0, seats=4)
    info = await th.tournaments.create(GUILD, LOBBY, OPENER, config)
    await th.tournaments.join(info.id, 11, "it")
    await th.tournaments.cancel(info.id, OPENER)
    await th.store.forget_member(GUILD, 11)
    rows = await th.store.query("SELECT user_id, lang FROM tournament_entries", ())
    assert [tuple(r)[1] for r in rows] == [None]
