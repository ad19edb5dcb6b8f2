"""/balance, /daily, /leaderboard, /stats through the real bot and store (issue 7)."""

from __future__ import annotations

import re

from bot.i18n import t
from tests.harness import FakeMember, Harness


async def test_balance_is_private_and_starts_at_the_starting_balance(
    h: Harness, anna: FakeMember, bob: FakeMember
) -> None:
    reply = await h.slash(bob, "balance")
    assert reply.ephemeral and "1,000" in reply.text  # issue 25: one number format
    assert reply.text == t("economy.balance_self", "en", balance=1000)
    italian = await h.slash(anna, "balance")
    assert italian.text == t("economy.balance_self", "it", balance=1000)


async def test_balance_of_another_member(h: Harness, anna: FakeMember, bob: FakeMember) -> None:
    await h.store.grant(h.guild_id, anna.id, 250, reason="test", by=bob.id)
    reply = await h.slash(bob, "balance", member=anna)
    assert reply.ephemeral
    assert reply.text == t("economy.balance_other", "en", name="Anna", balance=1250)


async def test_daily_twice_second_is_a_private_refusal(h: Harness, bob: FakeMember) -> None:
    first = await h.slash(bob, "daily")
    assert first.ephemeral and "200" in first.text and "1,200" in first.text
    second = await h.slash(bob, "daily")
    assert second.ephemeral
    assert second.text.startswith(t("errors.daily_cooldown", "en", when="")[:30])
    assert re.search(r"<t:\d+:R>", second.text)
    assert await h.store.balance(h.guild_id, bob.id) == 1200


async def test_stats_private_embed(h: Harness, anna: FakeMember) -> None:
    reply = await h.slash(anna, "stats")
    assert reply.ephemeral
    (embed,) = reply.embeds
    assert embed["title"] == t("economy.stats_title", "it", name="Anna")
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields[t("economy.stats_balance", "it")] == "1.000"
    assert fields[t("economy.stats_hands", "it")] == "0"


async def test_bots_have_no_balance(h: Harness, bob: FakeMember) -> None:
    robot = h.member("Robot", bot=True)
    reply = await h.slash(bob, "balance", member=robot)
    assert reply.ephemeral and reply.text == t("economy.no_bots", "en")


async def test_leaderboard_empty_is_a_private_note(h: Harness, bob: FakeMember) -> None:
    reply = await h.slash(bob, "leaderboard")
    assert reply.ephemeral and reply.text == t("economy.leaderboard_empty", "en")


async def test_leaderboard_posts_a_png_and_its_text(
    h: Harness, anna: FakeMember, bob: FakeMember
) -> None:
    carla = h.member("Carla")  # never used the bot: discord.py has no cached user for her
    await h.store.grant(h.guild_id, carla.id, 500, reason="test", by=bob.id)
    await h.store.grant(h.guild_id, anna.id, 100, reason="test", by=bob.id)
    await h.store.balance(h.guild_id, bob.id)
    reply = await h.slash(bob, "leaderboard", by="balance")
    assert reply.type == 5  # deferred ("thinking"), then the followup replaces it
    message = reply.message
    assert message is not None and not message.ephemeral and not message.loading
    (png,) = message.files
    assert png.is_png and png.filename.endswith(".png") and len(png.data) > 100
    text = message.content
    assert text.index("Carla") < text.index("Anna") < text.index("Bob")  # 1500, 1100, 1000
    assert "1,500" in text
    assert message in h.messages()
    # names the bot has not cached come from the API (no member list without the members
    # intent): Carla never interacted, so hers must have been fetched
    fetched = {c.params["member_id"] for c in reply.http_calls if c.method == "GET"}
    assert str(carla.id) in fetched
    assert fetched <= {str(carla.id), str(anna.id), str(bob.id)}


async def test_leaderboard_page_out_of_range(h: Harness, bob: FakeMember) -> None:
    await h.store.balance(h.guild_id, bob.id)
    reply = await h.slash(bob, "leaderboard", page=3)
    assert reply.ephemeral and reply.text == t("economy.leaderboard_page_out", "en", pages=1)
