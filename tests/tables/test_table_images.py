"""The table image's snapshot of a real table's typed state (`cogs.table_images`): names and CPU
flags per engine seat, an away seat marked, and the seats alone between hands."""

from __future__ import annotations

from bot.render.table import table_image
from cogs.table_images import table_snapshot_of
from tests.tables.helpers import CHANNEL, GUILD, USERS, Harness
from tests.tables.test_away import SLEEPY, _sit_out

NAMES = {u: f"P{u}" for u in USERS}


async def test_a_lobby_is_drawn_from_the_seats(h: Harness) -> None:
    await h.seat_four()
    await h.svc.add_cpu(GUILD, CHANNEL, USERS[0], "easy")
    state = h.state()
    assert state is not None and state.view is None
    snap = table_snapshot_of(state, NAMES, lang="en", title="T")
    assert snap.phase == "lobby" and snap.title == "T"
    assert [s.name for s in snap.seats][:4] == [f"P{u}" for u in USERS]
    assert snap.seats[4].name.startswith("CPU") and snap.seats[4].cpu
    assert [s.chips for s in snap.seats] == [s.chips for s in state.seats]
    assert all(s.cards == 0 for s in snap.seats)


async def test_in_a_hand_the_seats_are_the_engines_and_an_away_player_is_marked(
    h: Harness,
) -> None:
    state = await _sit_out(h)
    assert state.view is not None
    snap = table_snapshot_of(state, NAMES, lang="it")
    assert [s.name for s in snap.seats] == [f"P{u}" for u in state.players]
    away = [s.away for s in snap.seats]
    assert away == [u == SLEEPY for u in state.players] and any(away)
    assert [s.cards for s in snap.seats] == [s.card_count for s in state.view.seats]
    assert snap.phase == state.phase and snap.hand_no == state.hand_no
    assert table_image(snap).size[0] > 0
