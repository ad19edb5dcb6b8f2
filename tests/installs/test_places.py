"""Issue 38: the member's own install, in each place a command can come from.

In a server with the bot, a server without it, the member's DM with the bot and a group DM:
the lesson played to its end, `/rules` and `/help` answered privately, the server commands
not offered (and refused politely when an out-of-date client sends one), and where the bot
was not invited not one request outside the interaction's own answers (the fake refuses them,
as Discord does, and the test counts them).
"""

from __future__ import annotations

import discord
import pytest

from bot.i18n import t
from bot.learn import STEPS
from bot.learn.lesson import choices, lesson_step, same_move
from cogs.learn import move_code
from tests.harness import Harness, Reply
from tests.harness.places import NotOffered, Place, Places
from tests.harness.transport import HarnessHTTPError

PLACES = list(Place)
SERVER_COMMANDS = ["balance", "daily", "stoppa new", "tournament status", "fair word",
                   "settings show", "pings", "privacy", "season list"]


def only_the_interaction(reply: Reply, place: Place) -> None:
    """Where the bot was not invited, nothing but this interaction's own answers."""
    assert reply.responded
    if not place.invited:
        assert reply.http_calls == [], [c.path for c in reply.http_calls]
    assert all(c.via == "webhook" and c.token == reply.token for c in reply.calls)


@pytest.mark.parametrize("place", PLACES, ids=lambda p: p.name)
@pytest.mark.parametrize(("locale", "lang"), [("en-GB", "en"), ("it", "it")])
async def test_the_lesson_is_played_to_the_end_in_every_place(
    h: Harness, place: Place, locale: str, lang: str
) -> None:
    places = Places(h)
    learner = h.member("Lia", locale=locale)
    started = await places.slash(place, learner, "learn")
    only_the_interaction(started, place)
    assert started.ephemeral and started.message is not None
    message_id = started.message.id
    assert started.message.channel_id == places.channel(place, learner)
    for index, step in enumerate(STEPS):
        current = lesson_step(index)
        asked = next(m for m in choices(current) if same_move(m, step.asked))
        pressed = await places.click(place, learner, message_id,
                                     f"stoppa:learn:{index}:{move_code(asked)}")
        only_the_interaction(pressed, place)
    end = h.message(message_id)
    assert t("learn.title_end", lang) in end.text and not end.custom_ids()
    assert end.ephemeral
    assert await h.store.load_open_tables() == []
    assert await h.store.audit() == []


@pytest.mark.parametrize("place", PLACES, ids=lambda p: p.name)
async def test_rules_and_help_answer_privately_in_every_place(h: Harness, place: Place) -> None:
    places = Places(h)
    anna = h.member("Anna", locale="it")
    for command, options in (("help", {}), ("rules", {}), ("rules", {"topic": "betting"})):
        reply = await places.slash(place, anna, command, **options)
        only_the_interaction(reply, place)
        assert reply.ephemeral and reply.embeds, (command, options)


@pytest.mark.parametrize("place", [p for p in PLACES if p is not Place.SERVER],
                         ids=lambda p: p.name)
@pytest.mark.parametrize("command", SERVER_COMMANDS)
async def test_server_commands_are_not_offered_and_refused_where_the_bot_is_not(
    h: Harness, place: Place, command: str
) -> None:
    places = Places(h)
    anna = h.member("Anna", locale="it")
    assert places.offered(Place.SERVER, command)
    assert not places.offered(place, command)
    with pytest.raises(NotOffered):
        await places.slash(place, anna, command)
    options = {"state": "off"} if command == "pings" else {}
    if command == "fair word":
        options = {"text": "luna"}
    before = len(h.calls)
    stale = await places.force_slash(place, anna, command, **options)
    only_the_interaction(stale, place)
    assert stale.ephemeral
    refusal = "errors.not_installed_here" if place is Place.FOREIGN_SERVER else "errors.guild_only"
    assert stale.text == t(refusal, "it")
    assert all(c.via == "webhook" for c in h.calls[before:])
    assert await h.store.words_of(places.foreign_guild_id, [anna.id]) == {}
    assert await h.store.load_open_tables() == []


async def test_where_the_bot_was_not_invited_the_fake_refuses_what_discord_refuses(
    h: Harness,
) -> None:
    """The limits themselves: bot-token requests to the place, a sixth follow-up, a token
    older than 15 minutes."""
    places = Places(h)
    anna = h.member("Anna")
    reply = await places.slash(Place.GROUP_DM, anna, "help")
    channel = h.bot.get_partial_messageable(places.group_dm_id)
    with pytest.raises(Exception) as refused:
        await channel.send("hello")
    assert getattr(refused.value, "code", None) == 50001
    webhook = reply_webhook(h, reply)
    for _ in range(5):
        await webhook.send("more")
    with pytest.raises(HarnessHTTPError) as sixth:
        await webhook.send("one too many")
    assert sixth.value.code == 40094
    h.fake.limited_tokens[reply.token] -= 15 * 60 + 1
    with pytest.raises(HarnessHTTPError) as late:
        await webhook.send("late")
    assert late.value.code == 50027


def reply_webhook(h: Harness, reply: Reply) -> discord.Webhook:
    """The interaction's follow-up webhook, as discord.py builds it."""
    return discord.Webhook.partial(h.bot_user.id, reply.token, client=h.bot)
