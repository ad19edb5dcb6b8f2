"""Issue 25: while a crashed process's table waits for its lease, every answer agrees.

The bot stops without releasing its table leases (as a crash does); the next process finds
the table open in the database but may not drive it until the lease expires. Meanwhile
`/stoppa new` used to say the channel has a table while join, pass and the buttons said it has
none: now each says the table is being picked up, and nothing changes. Once the lease is
free the table is taken over where it was and plays on."""

from __future__ import annotations

from pathlib import Path

from bot.i18n import t
from tests.harness import Harness


async def test_every_answer_agrees_until_the_table_is_taken_over(tmp_path: Path) -> None:
    async with Harness.create(tmp_path, seed=7) as h:
        anna, bruno, carla = h.member("Anna"), h.member("Bruno"), h.member("Carla")
        await h.slash(anna, "stoppa new")
        await h.slash(bruno, "stoppa join")
        await h.slash(anna, "stoppa addbot")
        await h.slash(anna, "stoppa start")
        service = h.bot.tables
        assert service is not None and service.leases is not None
        before = service.state(h.channel_id)
        assert before is not None and before.status == "playing"
        message = h.message(before.message_id)  # type: ignore[arg-type]
        crashed = service.leases.owner
        keeper = service.leases
        release = keeper.stop

        async def crash(_tables: object) -> None:  # stop the beat, keep every lease
            await release(())

        keeper.stop = crash  # type: ignore[method-assign]
        await h.restart()
        service = h.bot.tables
        assert service is not None and service.leases is not None
        assert service.state(h.channel_id) is None  # not driven here: the lease is held
        waiting = t("tables.errors.table_resuming", "en")
        button = next(i for i in message.custom_ids() if i.endswith(":hand"))
        answers = [
            await h.slash(carla, "stoppa new"),
            await h.slash(carla, "stoppa join"),
            await h.slash(bruno, "stoppa pass"),
            await h.slash(anna, "stoppa status"),
            await h.slash(anna, "stoppa leave"),
            await h.click(anna, message.id, button),
        ]
        for answer in answers:
            assert answer.ephemeral and answer.text == waiting, answer.text
        row = await h.store.get_table(before.table_id)
        assert row.status == "playing" and row.version >= 1
        # the crashed process's lease runs out: the beat takes the table over where it was
        assert await h.store.release_lease(before.table_id, crashed)
        await service.leases.beat()
        await h.settle()
        after = service.state(h.channel_id)
        assert after is not None and (after.hand_no, after.turn) == (before.hand_no, before.turn)
        assert (await h.store.get_table(before.table_id)).version == row.version
        joined = await h.slash(carla, "stoppa join")
        assert joined.text.split("\n")[:2] == [t("table.reply.joined", "en"),  # her panel
                                                t("table.hand.waiting_next", "en")]
        assert await h.store.audit() == []
