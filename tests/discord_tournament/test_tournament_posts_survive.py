"""Nothing of a tournament lives only in the cog's memory (issue 28): its registration
message and its table's thread are kept in its row, with a mark that its results were
posted, so a restart still updates the registration message and posts the results of a
tournament paid out just before the process stopped, once."""

from __future__ import annotations

from pathlib import Path

from bot.i18n import t
from bot.tournaments.state import Phase
from cogs.tournament import COG_NAME
from tests.discord_tournament.conftest import button, open_tournament
from tests.harness import Harness
from tests.harness.harness import THREAD_BOT_PERMISSIONS

QUICK = {"schedule": "turbo", "starting_stack": 600, "hands_per_level": 1}


def results_in(h: Harness, channel: int) -> int:
    """How many results messages (with the standings image) `channel` holds."""
    return sum(1 for m in h.messages(channel)
               if m.files and m.files[0].filename == "standings.png")


async def test_the_registration_message_is_updated_by_a_command_after_a_restart(
    tmp_path: Path,
) -> None:
    async with Harness.create(tmp_path, seed=3) as h:
        boss = h.member("Boss", manage_guild=True)
        bob = h.member("Bob")
        number, message = await open_tournament(h, boss, buy_in=0)
        await h.click(boss, message.id, button(number, "cpu"))
        assert "1 of 4 taken" in h.message(message.id).text
        await h.restart()
        await h.slash(bob, "tournament join")  # a command: no click carries the message
        text = h.message(message.id).text
        assert "2 of 4 taken" in text and f"<@{bob.id}>" in text
        await h.restart()
        await h.slash(bob, "tournament leave")
        assert "1 of 4 taken" in h.message(message.id).text


async def test_results_lost_between_the_payout_and_the_post_are_posted_once_at_restart(
    tmp_path: Path,
) -> None:
    async with Harness.create(tmp_path, seed=11) as h:
        h.set_bot_permissions("stoppa", permissions=THREAD_BOT_PERMISSIONS)
        boss = h.member("Boss", manage_guild=True)
        number, message = await open_tournament(h, boss, buy_in=100, **QUICK)
        for _ in range(3):
            await h.click(boss, message.id, button(number, "cpu"))
        # the process "stops" right after the payout: the cog never hears the last update
        cog = h.bot.get_cog(COG_NAME)  # (the extension's own module: no isinstance)
        assert cog is not None and h.bot.tables is not None
        h.bot.tables.unsubscribe(cog._on_update)  # type: ignore[attr-defined]
        await h.click(boss, message.id, button(number, "cpu"))  # full: it starts, plays out
        await h.settle()
        info = await h.bot.tournaments.info(number)  # type: ignore[union-attr]
        assert info.status is Phase.FINISHED and sum(info.payouts.values()) == 400
        (thread,) = [int(c["id"]) for c in h.fake.channels.values() if c.get("type") == 11]
        assert info.posts.table_channel == thread and not info.posts.results_posted
        assert results_in(h, thread) == 0
        await h.restart()
        assert results_in(h, thread) == 1
        info = await h.bot.tournaments.info(number)  # type: ignore[union-attr]
        assert info.posts.results_posted
        (results,) = [m for m in h.messages(thread)
                      if m.files and m.files[0].filename == "standings.png"]
        assert t("tournaments.results.title", "en", number=number) in results.text
        final = h.message(message.id)  # the registration message shows the end
        assert final.custom_ids() == [] and f"<#{thread}>" in final.text
        await h.restart()
        assert results_in(h, thread) == 1  # posted once
        assert await h.store.audit() == []
