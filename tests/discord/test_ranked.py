"""Ratings and seasons in Discord (issue 21): `/leaderboard by:rating [season]`, `/season new`
and `/season list`, the rating in `/stats`, the CPU level's label in `/stoppa addbot`."""

from __future__ import annotations

from bot.i18n import t
from bot.ratings import Rating
from bot.store import RatingUpdate
from bot.tables.ratings import CPU_POOLS
from tests.harness import FakeMember, Harness

STRONG = Rating(32.0, 2.0, 25)  # 1,000 + 48 * 26 = 2,248 points
NEWCOMER = Rating(27.0, 6.0, 3)  # provisional: 1,000 + 48 * 9 = 1,432 points


async def rate(h: Harness, ratings: dict[int, Rating], winnings: int = 0) -> None:
    """Store ratings as the table service does after a hand."""
    await h.store.record_ratings(
        h.guild_id,
        [RatingUpdate(u, r.mu, r.sigma, r.hands, winnings) for u, r in ratings.items()],
    )


async def test_leaderboard_by_rating_shows_points_without_cpus(
    h: Harness, anna: FakeMember, bob: FakeMember
) -> None:
    await rate(h, {anna.id: NEWCOMER, bob.id: STRONG, CPU_POOLS["hard"]: Rating(40.0, 1.0, 90)})
    reply = await h.slash(bob, "leaderboard", by="rating")
    message = reply.message
    assert message is not None and not message.ephemeral
    (png,) = message.files
    assert png.is_png
    text = message.content
    assert text.index("Bob") < text.index("Anna")
    assert "2,248" in text and "1,432" in text
    assert f"Anna ({t('ranked.provisional', 'en')})" in text
    assert "Bob (" not in text
    assert t("ranking.board_by", "en") in text
    assert len(text.splitlines()) == 4  # the header, two players, the footer: no CPU


async def test_leaderboard_by_rating_empty_is_a_private_note(h: Harness, bob: FakeMember) -> None:
    reply = await h.slash(bob, "leaderboard", by="rating")
    assert reply.ephemeral
    assert reply.text == t("ranking.board_empty", "en", season="Season 1")


async def test_season_new_freezes_the_board_and_keeps_balances(
    h: Harness, anna: FakeMember, bob: FakeMember, boss: FakeMember
) -> None:
    await rate(h, {anna.id: NEWCOMER, bob.id: STRONG}, winnings=40)
    await h.store.grant(h.guild_id, anna.id, 250, reason="test", by=boss.id)
    refused = await h.slash(bob, "season new", name="Spring")
    assert refused.ephemeral
    assert len(await h.store.seasons(h.guild_id)) == 1
    reply = await h.slash(boss, "season new", name="  Spring  ")
    assert not reply.ephemeral and reply.responded
    assert "Spring" in reply.text and "Season 1" in reply.text
    seasons = await h.store.seasons(h.guild_id)
    assert [s.name for s in seasons] == [None, "Spring"]
    assert await h.store.balance(h.guild_id, anna.id) == 1250  # balances untouched
    assert await h.store.ratings(h.guild_id, [anna.id, bob.id]) == {}
    # the new season starts empty; the old one is kept and viewable
    empty = await h.slash(bob, "leaderboard", by="rating")
    assert empty.ephemeral and "Spring" in empty.text
    frozen = await h.slash(anna, "leaderboard", season="stagione 1")
    assert frozen.message is not None and not frozen.message.ephemeral
    text = frozen.message.content
    assert text.index("Bob") < text.index("Anna") and "2.248" in text  # Anna reads Italian
    # names are unique on a server, in any language, and an unknown one is a polite no
    taken = await h.slash(boss, "season new", name="spring")
    assert taken.ephemeral and taken.text == t("ranked.season_name_taken", "en", name="spring")
    assert len(await h.store.seasons(h.guild_id)) == 2
    unknown = await h.slash(bob, "leaderboard", by="rating", season="Winter")
    assert unknown.ephemeral and unknown.text == t("ranking.season_unknown", "en", name="Winter")
    listed = await h.slash(anna, "season list")
    assert listed.ephemeral
    assert "Spring" in listed.text and "Stagione 1" in listed.text
    choices = await h.autocomplete(bob, "leaderboard", "season", season="spr")
    assert [c["value"] for c in choices.choices] == ["Spring"]


async def test_stats_show_the_rating_and_its_trend(h: Harness, bob: FakeMember) -> None:
    unrated = await h.slash(bob, "stats")
    fields = {f["name"]: f["value"] for f in unrated.embeds[0]["fields"]}
    assert fields[t("ranking.stats_rating", "en")] == t("ranking.stats_rating_none", "en")
    await rate(h, {bob.id: Rating(26.0, 7.0, 1)})  # 1,000 + 48 * 5 = 1,240
    await rate(h, {bob.id: Rating(27.0, 6.0, 2)})  # 1,432
    reply = await h.slash(bob, "stats")
    assert reply.ephemeral
    fields = {f["name"]: f["value"] for f in reply.embeds[0]["fields"]}
    assert fields[t("ranking.stats_rating", "en")] == t(
        "ranking.stats_rating_provisional", "en", points="1,432", hands=2, needed=20
    )
    assert fields[t("ranking.stats_trend", "en", hands=2)] == "▲ +432"


async def test_addbot_shows_the_level_rating_once_it_has_one(
    h: Harness, bob: FakeMember
) -> None:
    await h.slash(bob, "stoppa new")
    first = await h.slash(bob, "stoppa addbot", level="hard")
    assert "points" not in first.text
    await rate(h, {CPU_POOLS["easy"]: STRONG})
    second = await h.slash(bob, "stoppa addbot", level="easy")
    label = t("ranking.cpu_label", "en", level=t("table.cmd.level.easy", "en"), points="2,248")
    assert label in second.text
