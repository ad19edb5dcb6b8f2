"""`MemberNames` (issue 35): one cache of members' display names per bot, for the tables,
tournaments, history and the leaderboards, each keeping what its reader sees of a name it
cannot find (a mention in a message's text, "Player …" on an image)."""

from __future__ import annotations

from bot.store.privacy import forgotten_name
from cogs.member_names import MemberNames
from tests.harness import Harness


def rest_lookups(h: Harness, since: int) -> list[str]:
    return [c.path for c in h.calls[since:] if c.method == "GET" and (
        c.path.endswith("/members/{member_id}") or c.path == "/users/{user_id}")]


async def test_one_instance_per_bot_shared_by_its_cogs(h: Harness) -> None:
    names = MemberNames.of(h.bot)
    assert MemberNames.of(h.bot) is names
    for cog in ("TableCog", "EconomyCog", "RankedCog", "HistoryCog", "TournamentCog"):
        loaded = h.bot.get_cog(cog)
        assert loaded is not None and loaded.names is names, cog


async def test_a_member_is_fetched_once_then_remembered(h: Harness) -> None:
    carla = h.member("Carla", nick="Carlotta")  # never used the bot: not in discord.py's cache
    names = MemberNames.of(h.bot)
    start = len(h.calls)
    assert await names.names(h.guild_id, [carla.id]) == {carla.id: "Carlotta"}
    assert await names.name(h.guild, carla.id, "it") == "Carlotta"
    assert rest_lookups(h, start) == ["/guilds/{guild_id}/members/{member_id}"]


async def test_someone_who_left_is_named_as_a_user_and_nobody_is_asked_for_twice(
    h: Harness
) -> None:
    dario = h.member("Dario")
    del h.fake.members[dario.id]  # left the server: Discord still knows the user
    stranger = 9_000_000_000_000_000
    names = MemberNames.of(h.bot)
    start = len(h.calls)
    assert await names.names(h.guild_id, [dario.id, stranger]) == {
        dario.id: "Dario", stranger: f"<@{stranger}>"}  # text: a mention the client names
    assert await names.name(h.guild, stranger, "it") == f"Giocatore {stranger}"  # an image
    assert await names.name(h.guild, stranger, "en") == f"Player {stranger}"
    assert len(rest_lookups(h, start)) == 4  # member then user, for each of the two, once


async def test_cpu_seats_and_forgotten_members_are_never_asked_for(h: Harness) -> None:
    names = MemberNames.of(h.bot)
    start = len(h.calls)
    assert await names.names(h.guild_id, [-1, 3]) == {-1: "CPU 1", 3: forgotten_name(3)}
    assert await names.name(h.guild, 3, "en") == forgotten_name(3)  # never "Player 3"
    assert rest_lookups(h, start) == []
