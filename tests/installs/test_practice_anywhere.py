"""Issue 38: a practice table played in each place, through its private message only.

Where the bot was not invited nothing but the interactions' own answers is sent; the table
is the member's one practice table (its channel the member's negated id), and nothing of it
reaches a server's chips, history or ratings.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n import t
from bot.tables.policies.practice import practice_channel
from tests.harness import FakeMember, Harness, Reply
from tests.harness.places import Place, Places
from tests.practice.helpers import PracticeDriver, practice_session, said


class InPlace:
    """What `PracticeDriver` needs of a harness, sent from `place` (the rest is `h`'s)."""

    def __init__(self, places: Places, place: Place) -> None:
        self.places = places
        self.place = place

    def __getattr__(self, name: str) -> Any:
        return getattr(self.places.h, name)

    async def slash(self, member: FakeMember, path: str, **options: Any) -> Reply:
        return await self.places.slash(self.place, member, path, **options)

    async def click(self, member: FakeMember, message_id: int, custom_id: str) -> Reply:
        return await self.places.click(self.place, member, message_id, custom_id)

    async def select(self, member: FakeMember, message_id: int, custom_id: str,
                     values: list[str]) -> Reply:
        return await self.places.select(self.place, member, message_id, custom_id, values)


@pytest.mark.parametrize("place", list(Place), ids=lambda p: p.name)
async def test_a_practice_hand_is_played_to_the_end_in_every_place(
    h: Harness, place: Place
) -> None:
    places = Places(h)
    anna = h.member("Anna", locale="it")
    driver = PracticeDriver(InPlace(places, place), anna, seed=3)  # type: ignore[arg-type]
    opened = await driver.open(players=2)
    assert opened.message is not None
    assert opened.message.channel_id == places.channel(place, anna)
    home = place is Place.SERVER
    stakes = (t("practice.stakes_server", "it", server=h.guild.name) if home
              else t("practice.stakes_default", "it"))
    assert stakes in said(opened)
    await driver.play_hands(1)
    table = practice_session(h.bot.tables, anna.id)
    assert table is not None and table.row.channel_id == practice_channel(anna.id)
    assert table.row.guild_id == (h.guild_id if home else 0)  # no other server's row
    assert table.meta.in_play.hand_no == 1 and not table.in_hand
    if not place.invited:
        assert all(r.http_calls == [] for r in driver.replies)
    assert await h.store.audit() == []
    assert await h.store.player_hands(h.guild_id, anna.id, limit=5) == []
    assert await h.store.player_hands(0, anna.id, limit=5) == []


@pytest.mark.parametrize(("first", "then"), [(Place.SERVER, Place.GROUP_DM),
                                             (Place.FOREIGN_SERVER, Place.SERVER),
                                             (Place.BOT_DM, Place.FOREIGN_SERVER)],
                         ids=lambda p: p.name)
async def test_practice_elsewhere_shows_the_one_table_and_where_its_stakes_come_from(
    h: Harness, first: Place, then: Place
) -> None:
    places = Places(h)
    anna = h.member("Anna")
    opened = await places.slash(first, anna, "practice", players=3)
    table = practice_session(h.bot.tables, anna.id)
    assert table is not None
    again = await places.slash(then, anna, "practice", players=5)
    assert t("practice.reopened", "en") in said(again)
    stakes = (t("practice.stakes_server", "en", server=h.guild.name) if first is Place.SERVER
              else t("practice.stakes_default", "en"))
    assert stakes in said(opened) and stakes in said(again)
    same = practice_session(h.bot.tables, anna.id)
    assert same is not None and same.row.id == table.row.id  # one practice table each
    assert len(same.row.seats) == 4  # its 3 CPU players, not the 5 asked the second time
