"""/help (issue 15): what the bot is, how to start, the main commands, /rules; en and it."""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n import t
from cogs.help import SECTIONS
from tests.harness import FakeMember, Harness


class NoStore:
    """A store that must not be touched: any use fails the test."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"/help used the store ({name})")


@pytest.mark.parametrize(("locale", "lang"), [("it", "it"), ("en-GB", "en"), ("de", "en")])
async def test_help_is_private_localised_and_complete(h: Harness, locale: str, lang: str) -> None:
    reply = await h.slash(h.member("Zoe", locale=locale), "help")
    assert reply.type == 4 and reply.ephemeral
    (embed,) = reply.embeds
    assert embed["title"] == t("help.title", lang)
    assert embed["description"] == t("help.intro", lang)
    assert [f["name"] for f in embed["fields"]] == [t(f"help.{s}_title", lang) for s in SECTIONS]
    text = reply.text
    for command in ("/stoppa new", "/stoppa join", "/stoppa start", "/stoppa hand",
                    "/stoppa kick", "/rules", "/balance", "/stakes"):
        assert command in text, command
    assert len(text) < 6000  # Discord's limit for the embeds of one message
    assert not h.messages(), "help is never posted publicly"


async def test_help_answers_without_the_store(h: Harness, bob: FakeMember) -> None:
    store = h.bot.store
    h.bot.store = NoStore()  # type: ignore[assignment]
    try:
        reply = await h.slash(bob, "help")
    finally:
        h.bot.store = store
    assert reply.type == 4 and reply.ephemeral and reply.embeds


async def test_help_follows_the_language_a_manager_pinned(h: Harness) -> None:
    """A user whose Discord language the bot does not speak gets the pinned one, from memory."""
    await h.slash(h.owner, "settings language", value="it")
    store = h.bot.store
    h.bot.store = NoStore()  # type: ignore[assignment]
    try:
        reply = await h.slash(h.member("Hans", locale="de"), "help")
    finally:
        h.bot.store = store
    assert reply.embeds[0]["title"] == t("help.title", "it")


def test_help_differs_between_languages() -> None:
    for section in SECTIONS:
        assert t(f"help.{section}", "it") != t(f"help.{section}", "en"), section
