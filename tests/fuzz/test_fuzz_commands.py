"""Every option of every slash command, fuzzed through the harness (issue 25, "the habit").

The commands come from the bot's real `CommandTree`, so a new command is fuzzed with no
change here. Each example sends one command (in a server channel, or in a DM) or one
autocomplete with hostile values, and `World.poke` checks: answered once within 3 s, no
ERROR logged, a refusal private and changing nothing; in a DM a server command says it
works in a server."""

from __future__ import annotations

from typing import Any

from discord import app_commands
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.i18n import t
from tests.discord_input.conftest import dispatch, in_dm
from tests.fuzz.conftest import EXAMPLES
from tests.fuzz.values import option_value, texts
from tests.fuzz.world import World, focused, slash_in_dm
from tests.harness import Harness, Reply

CHANNELS = ("stoppa", "stoppa-2", "general")
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def draw_options(data: st.DataObject, command: app_commands.Command[Any, ..., Any],
                 members: list[Any]) -> dict[str, Any]:
    """Values for the required options and some of the optional ones."""
    options: dict[str, Any] = {}
    for parameter in command.parameters:
        if parameter.required or data.draw(st.booleans(), label=f"give {parameter.name}"):
            options[parameter.name] = data.draw(option_value(parameter, members),
                                                label=parameter.name)
    return options


@FUZZ
@given(data=st.data())
def test_every_slash_command_with_hostile_options(world: World, data: st.DataObject) -> None:
    command = data.draw(st.sampled_from(world.commands()), label="command")
    path = command.qualified_name
    members = list(world.members.values())
    user = data.draw(st.sampled_from([m for m in members if not m.bot]), label="user")
    options = draw_options(data, command, members)
    where = data.draw(st.sampled_from((*CHANNELS, "dm")), label="where")
    if where == "dm":
        guild_only = (command.root_parent or command).guild_only
        refusal = t("errors.guild_only", "it" if user.locale == "it" else "en")

        async def in_dm(h: Harness) -> Reply:
            return await slash_in_dm(h, user, path, options)

        world.poke(in_dm, dm_refusal=refusal if guild_only else None)
        return

    async def slash(h: Harness) -> Reply:
        return await h.slash(user, path, channel=where, **options)

    world.poke(slash)


@FUZZ
@given(data=st.data())
def test_every_autocomplete_with_hostile_text(world: World, data: st.DataObject) -> None:
    candidates = [(c, p) for c in world.commands() for p in c.parameters if p.autocomplete]
    command, option = data.draw(st.sampled_from(candidates), label="option")
    user = data.draw(st.sampled_from([m for m in world.members.values() if not m.bot]))
    typed = data.draw(texts(), label="typed")
    where = data.draw(st.sampled_from((*CHANNELS, "dm")), label="where")

    async def autocomplete(h: Harness) -> Reply:
        if where == "dm":
            payload = focused(h.slash_payload(user, command.qualified_name), option, typed)
            return await dispatch(h, in_dm(h, user, payload))
        return await h.autocomplete(user, command.qualified_name, option.name,
                                    channel=where, **{option.name: typed})

    reply = world.poke(autocomplete, may_refuse=False)
    assert reply.type == 8  # suggestions (perhaps none), never an error message
    if where == "dm":
        assert reply.choices == []  # a server's hands, tables, tournaments: none in a DM
