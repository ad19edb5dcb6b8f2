"""`/privacy` through the real bot (issue 39): a member who played a tournament, set a word
and turned pings off sees what is kept about them, privately and in their language, and has
themselves forgotten in two clicks; afterwards the database holds neither their id nor their
name, the books balance, and nobody else can press their buttons."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.i18n import t
from tests.discord_table.driver import TableDriver
from tests.discord_tournament.conftest import button, open_tournament
from tests.harness import Harness

NAME = "Zebulon Forgetme"


def traces(path: str, *needles: str) -> list[tuple[str, str]]:
    """(table, column) of every value of every table that contains one of `needles`."""
    found = []
    db = sqlite3.connect(path)
    try:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        for table in tables:
            cursor = db.execute(f"SELECT * FROM {table}")
            columns = [d[0] for d in cursor.description]
            for row in cursor:
                for column, value in zip(columns, row, strict=True):
                    if any(n in str(value) for n in needles):
                        found.append((table, column))
    finally:
        db.close()
    return found


async def test_a_member_sees_what_is_kept_and_is_forgotten(tmp_path: Path) -> None:
    async with Harness.create(tmp_path, seed=5, guild_locale="it") as h:
        zed = h.member(NAME, locale="it", manage_guild=True)
        anna = h.member("Anna")
        await h.slash(anna, "daily")
        await h.slash(zed, "fair word", text="zebra")
        await h.slash(zed, "pings", state="off")
        number, message = await open_tournament(h, zed, buy_in=100, schedule="turbo",
                                                starting_stack=600, hands_per_level=1)
        await h.click(zed, message.id, button(number, "join"))
        for _ in range(3):
            await h.click(zed, message.id, button(number, "cpu"))
        assert await TableDriver(h, [zed], seed=2).play_until_closed("mixed") > 0
        await h.settle()
        assert traces(h.db_path, str(zed.id))
        anna_balance = await h.store.balance(h.guild_id, anna.id)

        shown = await h.slash(zed, "privacy")
        assert shown.ephemeral and shown.message is not None
        assert t("privacy.title", "it") in shown.text  # in the member's language
        assert t("privacy.word_set", "it") in shown.text and "Tornei" in shown.text
        ask = f"stoppa:privacy:ask:{zed.id}"
        assert shown.message.custom_ids() == [ask]
        # somebody else's clicks change nothing, and are answered privately
        refused = await h.click(anna, shown.message.id, ask)
        assert refused.ephemeral and t("privacy.not_yours", "en") in refused.text
        refused = await h.click(anna, shown.message.id, f"stoppa:privacy:yes:{zed.id}")
        assert refused.ephemeral and (await h.store.member_data(h.guild_id, zed.id)).word
        asked = await h.click(zed, shown.message.id, ask)
        assert t("privacy.confirm_title", "it") in h.message(shown.message.id).text
        assert asked.type == 7  # the private message itself changed
        done = await h.click(zed, shown.message.id, f"stoppa:privacy:yes:{zed.id}")
        await h.settle()
        assert done.type == 6
        text = h.message(shown.message.id).text
        assert "anon-1" in text and not h.message(shown.message.id).custom_ids()

        assert traces(h.db_path, str(zed.id), NAME, "Zebulon") == []
        assert await h.store.audit() == []
        assert await h.store.balance(h.guild_id, anna.id) == anna_balance
        again = await h.slash(zed, "privacy")
        assert again.ephemeral and t("privacy.nothing", "it") in again.text
