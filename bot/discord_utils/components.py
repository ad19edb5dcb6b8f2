"""Making sure every click and modal submit of ours gets an answer ("orphan" interactions).

discord.py hands a component interaction to a `DynamicItem` only when its custom id matches a
registered template AND the clicked item is still among the components of the message as the
interaction carries it; it hands a modal submit to a `Modal` only while that object lives (not
after a restart, not after its timeout). Anything else is dropped silently, and Discord shows
"This interaction failed": a button of an older version of an edited message, a button of a
previous phase, a modal submitted after a restart.

How the bot closes that gap through discord.py's public API only, never answering twice:

1. discord.py starts the handler of a component or modal (a task) before it dispatches the
   `interaction` event, and that task reaches the handler's callback without waiting on
   anything. Each handler of ours says so first thing: `mark_handled(interaction)` (done by
   `guarded` for component callbacks, and by `on_submit` of our modals), which records it in
   the public `Interaction.extras`.
2. `StoppaBot.on_interaction` runs after that and answers the interactions of ours (custom id
   `stoppa:...`) that no handler took (`is_orphan`): a cog may take them over (an
   `OrphanHandler`, e.g. the table cog parses the custom id and plays or refuses politely);
   if none does, a polite ephemeral "this button is out of date".
3. Handlers that do receive an interaction answer it themselves; `guarded` (in
   `bot.discord_utils.errors`) also answers when a callback returned without answering.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol, runtime_checkable

import discord

#: The prefix of every custom id the bot creates.
PREFIX = "stoppa:"
#: Key of `Interaction.extras`: True once a handler of ours received the interaction.
HANDLED = "stoppa.handled"

_COMPONENT = discord.InteractionType.component
_MODAL = discord.InteractionType.modal_submit


def custom_id_of(interaction: discord.Interaction[Any]) -> str | None:
    """The custom id of a component or modal interaction (None for other kinds)."""
    if interaction.type not in (_COMPONENT, _MODAL):
        return None
    data: Mapping[str, Any] = interaction.data or {}
    value = data.get("custom_id")
    return value if isinstance(value, str) else None


def selected_values(interaction: discord.Interaction[Any]) -> list[str]:
    """The values a member picked in a select menu (empty for other interactions)."""
    if interaction.type is not _COMPONENT:
        return []
    data: Mapping[str, Any] = interaction.data or {}
    return [str(value) for value in data.get("values") or []]


def is_ours(interaction: discord.Interaction[Any]) -> bool:
    """Whether the interaction is a click or submit of a component the bot created."""
    custom_id = custom_id_of(interaction)
    return custom_id is not None and custom_id.startswith(PREFIX)


def mark_handled(interaction: discord.Interaction[Any]) -> None:
    """Record that a handler of ours received this interaction (call it before any await)."""
    interaction.extras[HANDLED] = True


def is_orphan(interaction: discord.Interaction[Any]) -> bool:
    """An interaction of ours that no handler of ours took (see `mark_handled`)."""
    return is_ours(interaction) and not interaction.extras.get(HANDLED, False)


@runtime_checkable
class OrphanHandler(Protocol):
    """A cog that can answer an orphaned interaction of its own custom ids."""

    async def handle_orphan(self, interaction: discord.Interaction[Any]) -> bool:
        """Answer `interaction` if its custom id is one of this cog's; True when it did."""
        ...


def submitted_values(interaction: discord.Interaction[Any]) -> dict[str, str | list[str]]:
    """The values of a modal submit by input custom id (action rows and labels alike)."""
    data: Mapping[str, Any] = interaction.data or {}
    out: dict[str, str | list[str]] = {}

    def walk(components: Iterable[Mapping[str, Any]]) -> None:
        for component in components:
            inner = component.get("component")
            if isinstance(inner, Mapping):
                walk([inner])
            children = component.get("components")
            if isinstance(children, list):
                walk(children)
            custom_id = component.get("custom_id")
            if isinstance(custom_id, str):
                if "value" in component:
                    out[custom_id] = str(component["value"])
                elif "values" in component:
                    out[custom_id] = [str(v) for v in component["values"]]

    walk(data.get("components") or [])
    return out


def custom_ids_of(message: discord.Message | None) -> list[str]:
    """The custom ids of every component of `message` (as Discord sent it: the real one)."""
    if message is None:
        return []
    out: list[str] = []
    stack: list[Any] = list(message.components)
    while stack:
        component = stack.pop()
        custom_id = getattr(component, "custom_id", None)
        if isinstance(custom_id, str):
            out.append(custom_id)
        stack.extend(getattr(component, "children", None) or [])
    return out


def carries(message: discord.Message | None, prefix: str, *, ephemeral: bool | None = None
            ) -> bool:
    """Whether `message` is one the component of `prefix` belongs to: it has a component whose
    custom id starts with `prefix` (and is private or public as asked). A click carries the
    message as Discord keeps it, but its custom id is whatever the client sent, so a handler
    that edits its message checks this first."""
    if message is None:
        return False
    if ephemeral is not None and message.flags.ephemeral != ephemeral:
        return False
    return any(custom_id.startswith(prefix) for custom_id in custom_ids_of(message))
