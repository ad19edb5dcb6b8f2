"""`/learn` through the offline harness (real discord.py dispatch, real buttons): the guided
hand played to its end in English and Italian, wrong moves taken at several steps, every
answer private and within Discord's 3 seconds, no chip of the server moved."""

from __future__ import annotations

import pytest

from bot.i18n import t
from bot.i18n.cards import cards_in_sentence
from bot.learn import STEPS
from bot.learn.lesson import choices, lesson_step, same_move
from cogs.learn import move_code
from tests.harness import FakeMember, Harness


def _ids(h: Harness, message_id: int) -> list[str]:
    return h.message(message_id).custom_ids()


@pytest.mark.parametrize("locale,lang", [("en-GB", "en"), ("it", "it")])
async def test_the_guided_hand_is_played_to_the_end_with_wrong_moves_on_the_way(
    h: Harness, locale: str, lang: str
) -> None:
    learner = h.member("Lia", locale=locale)
    balance = await h.store.balance(h.guild.id, learner.id)
    r = await h.slash(learner, "learn")
    assert r.ephemeral and r.message is not None and len(r.files) == 1
    assert r.first_response_after is not None and r.first_response_after < 3
    message_id = r.message.id
    for index, step in enumerate(STEPS):
        current = lesson_step(index)
        title = t("learn.title", lang, step=index + 1, total=len(STEPS))
        assert title in h.message(message_id).text
        wrong = [m for m in choices(current) if not same_move(m, step.asked)]
        if index % 3 == 0 and wrong:  # a wrong move: explained, the same step asked again
            wrong_id = f"stoppa:learn:{index}:{move_code(wrong[0])}"
            reply = await h.click(learner, message_id, wrong_id)
            assert reply.first_response_after is not None and reply.first_response_after < 3
            text = h.message(message_id).text
            assert t("learn.not_quite", lang) in text
            assert title in text
        shown = current.view.best_point.cards if current.view.best_point else current.view.hand
        assert cards_in_sentence([c.code for c in shown], lang) in h.message(message_id).text
        asked = next(m for m in choices(current) if same_move(m, step.asked))
        reply = await h.click(learner, message_id, f"stoppa:learn:{index}:{move_code(asked)}")
        assert reply.first_response_after is not None and reply.first_response_after < 3
        assert not reply.messages or all(m.ephemeral for m in reply.messages)
    end = h.message(message_id)
    assert t("learn.title_end", lang) in end.text and not end.custom_ids()
    assert end.ephemeral and end.attachments
    assert await h.store.balance(h.guild.id, learner.id) == balance
    assert await h.store.audit() == []
    assert await h.store.load_open_tables() == []


async def test_stop_ends_the_lesson_and_says_what_next(h: Harness) -> None:
    learner = h.member("Lia", locale="en-US")
    r = await h.slash(learner, "learn")
    assert r.message is not None
    await h.click(learner, r.message.id, "stoppa:learn:0:stop")
    msg = h.message(r.message.id)
    assert t("learn.stopped", "en") in msg.text and not msg.custom_ids()


async def test_an_old_button_shows_where_the_lesson_is(h: Harness) -> None:
    learner = h.member("Lia", locale="en-US")
    r = await h.slash(learner, "learn")
    assert r.message is not None
    await h.click(learner, r.message.id, "stoppa:learn:1:bet10")  # step 2 is a showdown
    assert t("learn.stale", "en") in h.message(r.message.id).text


async def test_a_lesson_button_on_a_public_message_never_edits_it(
    h: Harness, anna: FakeMember
) -> None:
    table = await h.slash(anna, "stoppa new")
    public = [m for m in h.messages(None) if not m.ephemeral] + [
        m for ch in h.threads() for m in h.messages(int(ch["id"]))
    ]
    assert public
    target = public[-1]
    before = (target.content, target.embeds, target.edits)
    reply = await h.click(anna, target.id, "stoppa:learn:0:bet10")
    assert reply.ephemeral
    assert (target.content, target.embeds, target.edits) == before
    assert table.responded
