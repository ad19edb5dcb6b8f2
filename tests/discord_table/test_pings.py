"""`/pings off|on` (issue 18): a member who turned pings off is never mentioned on their turn,
one who turned them back on is; the answer is private, in their language; the choice is in
the store for the next start, and loaded from it when the server becomes available."""

from __future__ import annotations

from bot.tables.clock import FakeClock
from tests.discord_table.conftest import TIMEOUT, pings
from tests.discord_table.driver import TableDriver
from tests.discord_table.test_game import open_table
from tests.harness import Harness


async def test_an_opted_out_player_is_never_pinged_and_pinged_again_after_opting_in(
    clocked: tuple[Harness, FakeClock],
) -> None:
    h, clock = clocked
    members = [h.member("Anna", locale="it"), h.member("Bruno"), h.member("Carla")]
    for member in members:
        r = await h.slash(member, "pings", state="off")
        assert r.ephemeral
    assert "disattivate" in r.text or "**off**" in r.text
    await h.settle()
    ids = {m.id for m in members}
    assert await h.store.pings_off(h.guild_id) == ids
    await open_table(h, members)
    driver = TableDriver(h, members, seed=3)
    for _ in range(3):  # three turns run out on the clock: nobody is ever mentioned
        await clock.advance(TIMEOUT + 1)
        await h.settle()
    assert pings(h) == []
    for member in members:
        r = await h.slash(member, "pings", state="on")
        assert r.ephemeral
    await h.settle()
    assert await h.store.pings_off(h.guild_id) == set()
    await driver.play_turn("buttons")  # a new turn starts its ping timer
    state = driver.state()
    assert state is not None and state.to_act is not None
    await clock.advance(0.9 * TIMEOUT)
    await h.settle()
    (ping,) = pings(h)
    assert f"<@{state.to_act}>" in ping.content


async def test_the_answer_is_in_the_members_language(clocked: tuple[Harness, FakeClock]) -> None:
    h, _clock = clocked
    anna = h.member("Anna", locale="it")
    r = await h.slash(anna, "pings", state="off")
    assert r.ephemeral and "disattivate" in r.text
    r = await h.slash(anna, "pings", state="on")
    assert r.ephemeral and "attive" in r.text and "disattivate" not in r.text


async def test_the_opt_outs_are_loaded_when_the_server_becomes_available(
    clocked: tuple[Harness, FakeClock],
) -> None:
    h, _clock = clocked
    bruno = h.member("Bruno")
    await h.store.set_pings(h.guild_id, bruno.id, False)
    assert not h.bot.pings.opted_out(h.guild_id, bruno.id)
    guild = h.bot.get_guild(h.guild_id)
    assert guild is not None
    await h.bot.on_guild_available(guild)
    assert h.bot.pings.opted_out(h.guild_id, bruno.id)
