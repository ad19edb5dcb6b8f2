"""`/stoppa new` where the bot cannot show a table: refused, naming what is missing, nothing
opened and no request made to the channel (issue 15)."""

from __future__ import annotations

import discord
import pytest

from bot.discord_utils.access import TABLE_PERMISSIONS, THREAD_TABLE_PERMISSIONS
from bot.i18n import t
from tests.harness import Harness


def _opened(h: Harness, channel: int) -> bool:
    return h.tables.state(channel) is not None


@pytest.mark.parametrize("denied", TABLE_PERMISSIONS)
@pytest.mark.parametrize("locale", ["en-US", "it"])
async def test_new_refuses_when_the_bot_lacks_a_permission(
    h: Harness, denied: str, locale: str
) -> None:
    lang = "it" if locale == "it" else "en"
    anna = h.member("Anna", locale=locale)
    h.set_bot_permissions("stoppa", deny=(denied,))
    reply = await h.slash(anna, "stoppa new")
    assert reply.ephemeral and reply.type == 4
    name = t(f"access.permission.{denied}", lang)
    assert reply.text == t("access.missing", lang, permissions=name)
    assert not _opened(h, h.channel_id)
    assert not [c for c in reply.http_calls if c.path.startswith("/channels/")]
    assert h.messages() == []


async def test_every_missing_permission_is_named(h: Harness) -> None:
    anna = h.member("Anna", locale="it")
    h.set_bot_permissions("stoppa", deny=("embed_links", "attach_files", "read_message_history"))
    reply = await h.slash(anna, "stoppa new")
    for name in ("embed_links", "attach_files", "read_message_history"):
        assert t(f"access.permission.{name}", "it") in reply.text
    assert t("access.permission.send_messages", "it") not in reply.text
    assert not _opened(h, h.channel_id)


async def test_an_administrator_bot_may_open_anywhere(h: Harness) -> None:
    anna = h.member("Anna")
    h.set_bot_permissions("stoppa", permissions=discord.Permissions(administrator=True))
    reply = await h.slash(anna, "stoppa new")
    # issue 20: an administrator may create threads, so the table opens in a thread of its own
    (thread,) = h.threads()
    assert reply.text == t("living.thread.opened_reply", "en", thread=f"<#{thread['id']}>")
    assert _opened(h, int(thread["id"]))


@pytest.mark.parametrize("denied", THREAD_TABLE_PERMISSIONS)
async def test_new_in_a_thread_needs_send_messages_in_threads(h: Harness, denied: str) -> None:
    thread = await h.create_thread("partita")
    anna = h.member("Anna")
    h.set_bot_permissions("partita", deny=(denied,))
    reply = await h.slash(anna, "stoppa new", channel="partita")
    assert reply.text == t("access.missing", "en",
                           permissions=t(f"access.permission.{denied}", "en"))
    assert not _opened(h, thread)


async def test_in_a_thread_send_messages_alone_is_not_needed(h: Harness) -> None:
    thread = await h.create_thread("partita")
    anna = h.member("Anna")
    h.set_bot_permissions("partita", deny=("send_messages",))
    reply = await h.slash(anna, "stoppa new", channel="partita")
    assert reply.text == t("table.reply.opened", "en")
    assert _opened(h, thread)
    (message,) = h.messages("partita")
    assert message.media_urls()


async def test_with_every_permission_the_table_opens(h: Harness) -> None:
    anna = h.member("Anna")
    reply = await h.slash(anna, "stoppa new")
    # issue 20: the bot (invite permissions) may not create threads: in the channel, saying why
    assert reply.text == t("table.reply.opened", "en") + "\n" + t(
        "living.thread.no_threads", "en", permissions=t("access.permission.create_public_threads",
                                                        "en"))
    assert len(h.messages()) == 1
