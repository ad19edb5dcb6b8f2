"""/rules: every topic, in Italian and English, ephemeral (issue 7; docs/rules-spec.md R-1..15)."""

from __future__ import annotations

import pytest

from bot.i18n import t
from cogs.rules import TOPICS
from tests.harness import FakeMember, Harness


@pytest.mark.parametrize("topic", TOPICS)
async def test_every_topic_in_both_languages(
    h: Harness, anna: FakeMember, bob: FakeMember, topic: str
) -> None:
    it = await h.slash(anna, "rules", topic=topic)
    en = await h.slash(bob, "rules", topic=topic)
    for reply, lang in ((it, "it"), (en, "en")):
        assert reply.type == 4 and reply.ephemeral
        (embed,) = reply.embeds
        assert embed["title"] == t(f"rules.{topic}.title", lang)
        assert embed["description"].startswith(t(f"rules.{topic}.body", lang))
        assert len(embed["description"]) <= 4096
    assert it.embeds[0]["description"] != en.embeds[0]["description"]
    assert not h.messages(), "rules are never posted publicly"


async def test_default_topic_is_the_overview(h: Harness, bob: FakeMember) -> None:
    reply = await h.slash(bob, "rules")
    assert reply.embeds[0]["title"] == t("rules.overview.title", "en")


def test_R7_points_topic_gives_the_primiera_values_and_55() -> None:
    for lang in ("en", "it"):
        body = t("rules.points.body", lang)
        for value in ("21", "18", "16", "15", "14", "13", "12", "10", "55"):
            assert value in body, (lang, value)


def test_R2_deck_topic_lists_every_table_size() -> None:
    for lang in ("en", "it"):
        body = t("rules.deck.body", lang)
        for deal in ("3-3-3-3-1", "3-3-3-1", "3-3-2", "3-3"):
            assert deal in body, (lang, deal)


def test_R12_stoppa_topic_names_senza_and_aces_together() -> None:
    assert "senza" in t("rules.stoppa.body", "en")
    assert "Aces go together" in t("rules.stoppa.body", "en")
    assert "Gli assi vanno insieme" in t("rules.stoppa.body", "it")


def test_R11_specials_topic_names_ricchezza_and_misera() -> None:
    for lang in ("en", "it"):
        body = t("rules.specials.body", lang)
        assert "ricchezza" in body and "misera" in body


async def test_R4_betting_topic_shows_this_servers_stakes(h: Harness, bob: FakeMember) -> None:
    boss = h.member("Boss", manage_guild=True)
    await h.slash(boss, "settings stakes", ante=100, max_bet=300)
    reply = await h.slash(bob, "rules", topic="betting")
    stakes = await h.store.get_stakes(h.guild_id)
    expected = t(
        "rules.server_stakes",
        "en",
        **{k: getattr(stakes, k) for k in ("ante", "small_point", "cip", "max_bet", "card_rate")},
    )
    assert reply.embeds[0]["description"].endswith(expected)
    assert "100" in expected and "300" in expected
    points = await h.slash(bob, "rules", topic="points")
    assert points.embeds[0]["description"] == t("rules.points.body", "en")
