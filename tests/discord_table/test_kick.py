"""/stoppa kick (issue 15): the table's host or a manager removes a player; others are refused."""

from __future__ import annotations

from bot.i18n import t
from tests.discord_table.test_game import open_table
from tests.harness import Harness


def seated(h: Harness) -> set[int]:
    state = h.bot.tables.state(h.channel_id)
    return {seat.user_id for seat in state.seats} if state is not None else set()


async def test_the_host_removes_a_player_in_the_lobby(h: Harness) -> None:
    anna, bruno, carla = h.member("Anna"), h.member("Bruno", locale="it"), h.member("Carla")
    await h.slash(anna, "stoppa new")
    await h.slash(bruno, "stoppa join")
    await h.slash(carla, "stoppa join")

    refused = await h.slash(bruno, "stoppa kick", member=carla)
    assert refused.ephemeral
    assert refused.text == t("kick.not_allowed", "it", host=f"<@{anna.id}>")
    assert carla.id in seated(h)

    done = await h.slash(anna, "stoppa kick", member=carla)
    assert done.ephemeral and done.text == t("kick.removed", "en", player=f"<@{carla.id}>")
    assert carla.id not in seated(h)
    (message,) = h.messages()
    assert t("tables.kicked", "en", player="Carla", by="Anna") in message.text

    again = await h.slash(anna, "stoppa kick", member=carla)
    assert again.text == t("kick.not_seated", "en", player=f"<@{carla.id}>")
    itself = await h.slash(anna, "stoppa kick", member=anna)
    assert itself.text == t("kick.yourself", "en")


async def test_a_manager_removes_a_player_at_the_end_of_the_hand(h: Harness) -> None:
    members = [h.member(name) for name in ("Anna", "Bruno", "Carla", "Dario")]
    boss = h.member("Boss", manage_guild=True)
    await open_table(h, members)
    state = h.bot.tables.state(h.channel_id)
    assert state is not None and state.hand_no == 1
    done = await h.slash(boss, "stoppa kick", member=members[3])
    assert done.ephemeral
    assert done.text == t("kick.leaving", "en", player=f"<@{members[3].id}>")
    assert members[3].id in seated(h)  # until the hand is over: chips stay in play


async def test_when_the_opener_left_the_longest_seated_player_hosts(h: Harness) -> None:
    anna, bruno, carla = h.member("Anna"), h.member("Bruno"), h.member("Carla")
    await h.slash(anna, "stoppa new")
    await h.slash(bruno, "stoppa join")
    await h.slash(carla, "stoppa join")
    await h.slash(anna, "stoppa leave")
    done = await h.slash(bruno, "stoppa kick", member=carla)
    assert done.text == t("kick.removed", "en", player=f"<@{carla.id}>")


async def test_kick_without_a_table(h: Harness) -> None:
    reply = await h.slash(h.member("Anna"), "stoppa kick", member=h.member("Bruno"))
    assert reply.ephemeral and reply.text == t("tables.errors.no_table", "en")
