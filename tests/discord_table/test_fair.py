"""Issue 30 on Discord: the commitment on the table message and in every hand reply, the
secret in nothing (message, hand reply, log line) before the close and in the closing
message after it; `/fair word` and `/verify` through the real command tree, in English
and Italian, refusals private and changing nothing."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from bot.engine import Rules
from bot.fairness import WORD_MAX, DealInputs, public_word
from bot.i18n import t
from tests.discord_table.driver import TableDriver
from tests.discord_table.test_game import open_table
from tests.harness import FakeMember, Harness


def secret_seen(h: Harness, secret: str, start: int = 0) -> list[str]:
    """The paths of the REST calls from `start` on whose payload holds `secret`."""
    return [c.path for c in h.calls[start:]
            if secret in json.dumps(c.json, ensure_ascii=False) if c.json]


@pytest.mark.slow
async def test_commitment_shown_secret_hidden_until_the_close_then_verified(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    async with Harness.create(tmp_path, seed=11) as h:
        members = [h.member("Anna"), h.member("Bruno", locale="it"), h.member("Carla"),
                   h.member("Dario", locale="it")]
        set_word = await h.slash(members[0], "fair word", text="  *ciao* @everyone ")
        assert set_word.ephemeral
        assert public_word("*ciao* @everyone") in set_word.text
        await h.slash(members[2], "fair word", text="Zoë")
        await open_table(h, members)
        state = h.bot.tables.state(h.channel_id)
        assert state is not None and state.commitment is not None
        row = await h.bot.open_store.get_table(state.table_id)
        assert row.secret is not None and row.commitment is not None
        secret = row.secret.hex()
        driver = TableDriver(h, members, seed=5)
        table_text = driver.table_message().text
        assert state.commitment in table_text
        hand = await h.slash(members[1], "stoppa hand")
        assert hand.ephemeral and state.commitment in hand.text
        await h.slash(members[3], "stoppa round")
        await driver.play_until_closed("mixed")
        closed = await h.bot.open_store.get_table(state.table_id)
        assert closed.revealed
        # the secret is only in the closing edit of the table message (and its closing
        # notice): every call that holds it shows the closed table
        revealing = [c for c in h.calls
                     if c.json and secret in json.dumps(c.json, ensure_ascii=False)]
        assert revealing, "the closing message does not reveal the secret"
        closed_line = t("table.embed.closed", "en")
        for call in revealing:
            shown = json.dumps(call.json, ensure_ascii=False)
            assert closed_line in shown and t("fairness.table.field", "en") in shown
        assert not any(secret in r.getMessage() for r in caplog.records)
        hands = await h.bot.open_store.hand_history(state.table_id, limit=100)
        assert len(hands) >= 3
        first_hand = min(hands, key=lambda x: x.hand_no)
        words = tuple(w for _, w in first_hand.words)
        assert words == ("*ciao* @everyone", "Zoë")  # Anna and Carla, in seat order
        assert closed.secret is not None
        deck = DealInputs(closed.secret, state.table_id, 1, words).deck(
            Rules(**{**closed.settings, "players": len(first_hand.result)}).deck_mask())

        # the hand's replay carries its words, the commitment and now the secret
        hand_id = next(sh.id for sh in await h.bot.open_store.player_hands(
            h.guild_id, members[0].id, limit=100) if sh.hand_no == 1)
        replay = await h.slash(members[0], "stoppa replay", hand=hand_id)
        assert replay.ephemeral
        assert public_word("*ciao* @everyone") in replay.text and "Zoë" in replay.text
        assert state.commitment in replay.text and secret in replay.text

        for member, lang in ((members[0], "en"), (members[1], "it")):
            reply = await h.slash(member, "verify", table=state.table_id)
            assert reply.ephemeral
            (embed,) = reply.embeds
            assert embed["title"] == t("fairness.answer.title", lang, table=state.table_id)
            assert t("fairness.answer.all_ok", lang) in embed["description"]
            assert secret in embed["description"]
            (report,) = reply.files
            assert " ".join(c.code for c in deck) in report.data.decode("utf-8")


@pytest.mark.parametrize(("locale", "lang"), [("en-US", "en"), ("it", "it")])
async def test_fair_verify_refuses_an_open_or_unknown_table_politely(
    tmp_path: Path, locale: str, lang: str
) -> None:
    async with Harness.create(tmp_path, seed=3) as h:
        anna = h.member("Anna", locale=locale)
        await h.slash(anna, "stoppa new")
        state = h.bot.tables.state(h.channel_id)
        assert state is not None and state.commitment is not None
        before = len(h.calls)
        reply = await h.slash(anna, "verify", table=state.table_id)
        assert reply.ephemeral
        assert reply.text == t("fairness.answer.still_open", lang, table=state.table_id,
                               commitment=state.commitment)
        row = await h.bot.open_store.get_table(state.table_id)
        assert row.secret is not None and not secret_seen(h, row.secret.hex(), before)
        unknown = await h.slash(anna, "verify", table=999)
        assert unknown.ephemeral
        assert unknown.text == t("fairness.answer.no_table", lang, table=999)


@pytest.mark.parametrize(("locale", "lang"), [("en-GB", "en"), ("it", "it")])
async def test_fair_word_refusals_are_private_localised_and_change_nothing(
    tmp_path: Path, locale: str, lang: str
) -> None:
    async with Harness.create(tmp_path, seed=3) as h:
        zoe: FakeMember = h.member("Zoe", locale=locale)
        store = h.bot.open_store
        ok = await h.slash(zoe, "fair word", text="luna")
        assert ok.ephemeral and ok.text == t("fairness.answer.word_set", lang, word="luna")
        too_long = await h.slash(zoe, "fair word", text="x" * (WORD_MAX + 1))
        assert too_long.ephemeral
        assert too_long.text == t("fairness.word.too_long", lang, limit=WORD_MAX)
        control = await h.slash(zoe, "fair word", text="a\u202eb")
        assert control.ephemeral
        assert control.text == t("fairness.word.control", lang, limit=WORD_MAX)
        assert await store.words_of(h.guild_id, [zoe.id]) == {zoe.id: "luna"}
        cleared = await h.slash(zoe, "fair word")
        assert cleared.ephemeral and cleared.text == t("fairness.answer.word_cleared", lang)
        assert await store.words_of(h.guild_id, [zoe.id]) == {}
        assert not h.messages(), "the word is never posted publicly"
