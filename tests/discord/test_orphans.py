"""The bot answers every click of ours that discord.py hands to nobody, exactly once, and keeps
its hands off components that are not ours; `is_orphan` follows discord.py's own dispatch."""

from __future__ import annotations

import logging
import re

import discord
import pytest

from bot.client import BODY_LOGGERS, keep_bodies_out_of_logs
from bot.discord_utils import HANDLED, is_orphan, mark_handled
from bot.i18n import t
from tests.harness import FakeMember, Harness


class Probe(discord.ui.DynamicItem[discord.ui.Button], template=r"stoppa:probe:(?P<n>\d+)"):
    """A dynamic button of ours that answers with its number."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=str(n), custom_id=f"stoppa:probe:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> Probe:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        mark_handled(interaction)  # what every handler of ours does first
        await interaction.response.send_message(f"probe {self.n}", ephemeral=True)


async def post_probe(h: Harness, n: int) -> int:
    """Post a public message with the probe button `n`; its message id."""
    view = discord.ui.View(timeout=None)
    view.add_item(Probe(n))
    channel = h.bot.get_partial_messageable(h.channel_id, guild_id=h.guild_id)
    message = await channel.send("probe", view=view)
    await h.settle()
    return message.id


async def test_a_click_nobody_handles_is_answered_once_in_the_users_language(
    h: Harness, anna: FakeMember, bob: FakeMember
) -> None:
    h.bot.add_dynamic_items(Probe)
    message_id = await post_probe(h, 1)
    handled = await h.click(bob, message_id, "stoppa:probe:1")
    assert handled.text == "probe 1"
    assert sum(1 for c in handled.calls if c.callback_type is not None) == 1

    # the same message edited without the button: a late click on the old button
    h.message(message_id).components = []
    late = await h.click(anna, message_id, "stoppa:probe:1")
    assert late.ephemeral and late.text == t("errors.button_out_of_date", "it")
    assert sum(1 for c in late.calls if c.callback_type is not None) == 1
    # a custom id of ours nothing matches, and one that is not ours
    unknown = await h.click(bob, message_id, "stoppa:gone")
    assert unknown.text == t("errors.button_out_of_date", "en")
    foreign = await h.click(bob, message_id, "another-app:1")
    assert not foreign.responded


async def test_is_orphan_follows_the_view_store(h: Harness, bob: FakeMember) -> None:
    h.bot.add_dynamic_items(Probe)
    message_id = await post_probe(h, 2)
    seen: list[tuple[bool | None, bool]] = []

    async def spy(interaction: discord.Interaction) -> None:
        seen.append((interaction.extras.get(HANDLED), is_orphan(interaction)))

    h.bot.add_listener(spy, "on_interaction")
    await h.click(bob, message_id, "stoppa:probe:2")
    h.message(message_id).components = []
    await h.click(bob, message_id, "stoppa:probe:2")
    await h.slash(bob, "balance")  # not a component: not marked
    assert seen == [(True, False), (None, True), (None, False)]
    assert is_orphan(_FakeModal("stoppa:nothing"))  # type: ignore[arg-type]


class _FakeModal:
    """Just enough of a modal-submit Interaction for `is_orphan`: nothing took it."""

    type = discord.InteractionType.modal_submit
    message = None

    def __init__(self, custom_id: str) -> None:
        self.data = {"custom_id": custom_id, "components": []}
        self.extras: dict[str, object] = {}


def test_request_bodies_never_reach_the_logs(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in BODY_LOGGERS:
        monkeypatch.setattr(logging.getLogger(name), "level", logging.DEBUG)
    keep_bodies_out_of_logs()
    for name in BODY_LOGGERS:
        assert not logging.getLogger(name).isEnabledFor(logging.DEBUG)
