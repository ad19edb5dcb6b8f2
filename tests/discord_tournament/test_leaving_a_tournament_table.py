"""Issue 25: `/stoppa leave` at a tournament table is not undone by the next table command.

A member who leaves a sit-and-go's table stays in the tournament, sat out: their turns are
played for them (the table never waits for them), through a restart, whatever table command
they use; only their own "I'm back" gives them their turns again."""

from __future__ import annotations

from pathlib import Path

from bot.i18n import t
from bot.tournaments.state import Phase
from tests.discord_table.driver import TableDriver
from tests.discord_tournament.conftest import button, open_tournament
from tests.harness import Harness

QUICK = {"schedule": "turbo", "starting_stack": 600, "hands_per_level": 1}


async def test_a_leaver_stays_in_sat_out_through_commands_and_a_restart(tmp_path: Path) -> None:
    async with Harness.create(tmp_path, seed=3) as h:
        anna = h.member("Anna", manage_guild=True)
        bob = h.member("Bob")
        number, message = await open_tournament(h, anna, buy_in=50, seats=3, **QUICK)
        await h.click(anna, message.id, button(number, "join"))
        await h.click(bob, message.id, button(number, "join"))
        await h.click(anna, message.id, button(number, "cpu"))  # full: it plays here
        service = h.bot.tables
        assert service is not None
        state = service.state(h.channel_id)
        assert state is not None and state.tournament is not None
        left = await h.slash(anna, "stoppa leave")
        assert left.ephemeral
        assert left.text == t("table_kinds.tournament.left_reply", "en")
        state = service.state(h.channel_id)
        assert state is not None and state.to_act != anna.id  # the table does not wait
        seat = state.seat_of(anna.id)
        assert seat is not None and seat.away and seat.left
        await h.restart()
        service = h.bot.tables
        assert service is not None
        for command in ("stoppa status", "stoppa hand", "tournament status"):
            await h.slash(anna, command)  # any table command: no "welcome back"
            state = service.state(h.channel_id)
            assert state is not None and state.to_act != anna.id
            seat = state.seat_of(anna.id)
            assert seat is None or (seat.away and seat.left)
        # Bob plays to the end; the driver cannot play for Anna, so the table never waits
        # for her (a turn of hers would stop it)
        await TableDriver(h, [bob], seed=2).play_until_closed("mixed")
        await h.settle()
        info = await h.bot.tournaments.info(number)  # type: ignore[union-attr]
        assert info.status is Phase.FINISHED
        assert sorted(p.place for p in info.places) == [1, 2, 3]
        assert await h.store.audit() == []


async def test_a_leaver_who_presses_back_plays_again(tmp_path: Path) -> None:
    async with Harness.create(tmp_path, seed=3) as h:
        anna = h.member("Anna", manage_guild=True)
        bob = h.member("Bob")
        number, message = await open_tournament(h, anna, buy_in=50, seats=3,
                                                schedule="turbo", starting_stack=6000)
        await h.click(anna, message.id, button(number, "join"))
        await h.click(bob, message.id, button(number, "join"))
        await h.click(anna, message.id, button(number, "cpu"))
        await h.slash(anna, "stoppa leave")
        await h.restart()
        service = h.bot.tables
        assert service is not None
        back = await h.slash(anna, "stoppa back")
        assert back.text == t("living.back_reply", "en")
        state = service.state(h.channel_id)
        assert state is not None
        seat = state.seat_of(anna.id)
        assert seat is not None and not seat.away and not seat.left
        # her turn comes, and the table waits for it
        driver = TableDriver(h, [bob], seed=2)
        for _ in range(200):
            state = service.state(h.channel_id)
            assert state is not None
            if state.to_act != bob.id:
                break
            await driver.play_turn("mixed")
        assert state.to_act == anna.id
