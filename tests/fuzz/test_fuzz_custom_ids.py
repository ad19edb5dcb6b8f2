"""Every custom id template of the bot, fuzzed through the harness (issue 25, "the habit").

The templates come from the `DynamicItem`s the cogs register (and the bet modal), so a new
button is fuzzed with no change here. Each example clicks a button, chooses in a select or
submits a modal whose custom id is one of the templates filled with hostile numbers (0,
2^63, 100 digits, digits that are not ASCII, and the real ids of the world), or one matching
no template, on any of the world's messages; `World.poke` checks the invariants."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz.conftest import EXAMPLES
from tests.fuzz.values import number_texts, texts
from tests.fuzz.world import Template, World
from tests.harness import Harness, Reply

FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def filled(data: st.DataObject, template: Template, real: tuple[int, ...]) -> str:
    """A custom id of `template`'s shape whose number groups hold hostile numbers."""
    custom_id = data.draw(st.from_regex(template.pattern, fullmatch=True), label="shape")
    match = template.pattern.fullmatch(custom_id)
    assert match is not None
    for name in reversed(template.groups):
        start, end = match.span(name)
        if start < 0 or not re.fullmatch("[0-9]+", match[name]):
            continue
        number = data.draw(number_texts(real), label=name)
        custom_id = custom_id[:start] + number + custom_id[end:]
    return custom_id


@FUZZ
@given(data=st.data())
def test_every_custom_id_with_hostile_numbers(world: World, data: st.DataObject) -> None:
    real = tuple(m.id for m in world.members.values())
    shape = data.draw(st.sampled_from(("template", "no template", "not ours")), label="shape")
    template = data.draw(st.sampled_from(world.templates()), label="template")
    if shape == "template":
        custom_id = filled(data, template, real)
    elif shape == "no template":
        custom_id = "stoppa:" + data.draw(texts(), label="rest")
        template = Template(re.compile(""), "button")
    else:
        custom_id = data.draw(st.text(min_size=1, max_size=100), label="foreign")
        if custom_id.startswith("stoppa:"):
            custom_id = "x" + custom_id
        template = Template(re.compile(""), "button")
    user = data.draw(st.sampled_from([m for m in world.members.values() if not m.bot]))
    message_id = world.messages[data.draw(st.sampled_from(sorted(world.messages)),
                                          label="message")]
    values = data.draw(st.lists(texts(), max_size=2), label="values")

    async def send(h: Harness) -> Reply:
        if template.kind == "select":
            return await h.select(user, message_id, custom_id, values)
        if template.kind == "modal":
            channel = h.message(message_id).channel_id
            return await h.submit_modal(user, custom_id, {"amount": (values or [""])[0]},
                                        channel=channel)
        return await h.click(user, message_id, custom_id)

    world.poke(send, ours=shape != "not ours")
