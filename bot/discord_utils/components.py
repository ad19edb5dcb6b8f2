"""Making sure every click and modal submit of ours gets an answer ("orphan" interactions).

discord.py hands a component interaction to a `DynamicItem` only when its custom id matches a
registered template AND the clicked item is still among the components of the message as the
interaction carries it (`ViewStore.schedule_dynamic_item_call`); it hands a modal submit to a
`Modal` only while that object lives in the `ViewStore` (not after a restart, not after its
timeout). Anything else is dropped silently, and Discord shows "This interaction failed": a
button of an older version of an edited message, a button of a previous phase, a modal submitted
after a restart.

How the bot closes that gap, without ever answering twice:

1. `StoppaBot.dispatch` runs synchronously right after `parse_interaction_create` has handed the
   interaction to the view store (see `discord/state.py`: the view dispatch first, then
   `self.dispatch('interaction', ...)`), before any scheduled task ran. There,
   `mark_dispatch(state, interaction)` decides with discord.py's own rules whether a registered
   handler will receive the interaction, and records it in `interaction.extras[DISPATCHED]`.
2. `StoppaBot.on_interaction` answers the interactions of ours (custom id `stoppa:...`) that no
   handler will receive: a cog may take them over (`async def handle_orphan(interaction) ->
   bool`, e.g. the table cog parses the custom id and plays or refuses politely); if none does,
   a polite ephemeral "this button is out of date".
3. Handlers that do receive an interaction answer it themselves; `guarded` (in
   `bot.discord_utils.errors`) also answers when a callback returned without answering.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import discord

#: The prefix of every custom id the bot creates.
PREFIX = "stoppa:"
#: Key of `Interaction.extras`: True when discord.py will hand the interaction to a handler.
DISPATCHED = "stoppa.dispatched"

_COMPONENT = discord.InteractionType.component
_MODAL = discord.InteractionType.modal_submit


def custom_id_of(interaction: discord.Interaction) -> str | None:
    """The custom id of a component or modal interaction (None for other kinds)."""
    if interaction.type not in (_COMPONENT, _MODAL):
        return None
    data: Mapping[str, Any] = interaction.data or {}  # type: ignore[assignment]
    value = data.get("custom_id")
    return value if isinstance(value, str) else None


def is_ours(interaction: discord.Interaction) -> bool:
    """Whether the interaction is a click or submit of a component the bot created."""
    custom_id = custom_id_of(interaction)
    return custom_id is not None and custom_id.startswith(PREFIX)


def _message_has(message: discord.Message, component_type: int, custom_id: str) -> bool:
    """Whether `message` holds a component of this type and custom id (discord.py's lookup)."""
    view_cls: Any = discord.ui.LayoutView if message.flags.components_v2 else discord.ui.View
    try:
        view = view_cls.from_message(message, timeout=None)
    except Exception:  # a message discord.py cannot convert: it would not dispatch either
        return False
    return any(
        item.type.value == component_type and getattr(item, "custom_id", None) == custom_id
        for item in view.walk_children()
    )


def will_be_dispatched(state: Any, interaction: discord.Interaction) -> bool:
    """Whether discord.py's `ViewStore` hands this component/modal interaction to a handler.

    Mirrors `ViewStore.dispatch_view`/`dispatch_dynamic_items`/`schedule_dynamic_item_call`
    and `dispatch_modal` of discord.py 2.7 (tests/discord/test_orphans.py pins the behaviour).
    Call it synchronously in `Client.dispatch('interaction')`, before the handlers run (a
    handler removes a submitted modal from the store when it is done).
    """
    store = getattr(state, "_view_store", None)
    custom_id = custom_id_of(interaction)
    if store is None or custom_id is None:
        return False
    data: Mapping[str, Any] = interaction.data or {}  # type: ignore[assignment]
    if interaction.type is _MODAL:
        return custom_id in getattr(store, "_modals", {})
    component_type = int(data.get("component_type", 0))
    message = interaction.message
    patterns: Iterable[Any] = getattr(store, "_dynamic_items", {})
    if (
        message is not None
        and any(p.fullmatch(custom_id) for p in patterns)
        and _message_has(message, component_type, custom_id)
    ):
        return True
    views: Mapping[Any, Mapping[tuple[int, str], Any]] = getattr(store, "_views", {})
    key = (component_type, custom_id)
    item = None
    if message is not None:
        item = views.get(message.id, {}).get(key)
    if item is None:
        item = views.get(None, {}).get(key)
    view = getattr(item, "view", None)
    return view is not None and not view.is_finished()


def mark_dispatch(state: Any, interaction: discord.Interaction) -> None:
    """Record in `interaction.extras[DISPATCHED]` whether a handler will receive it."""
    if interaction.type in (_COMPONENT, _MODAL):
        interaction.extras[DISPATCHED] = will_be_dispatched(state, interaction)


def is_orphan(interaction: discord.Interaction) -> bool:
    """An interaction of ours that no registered handler receives (marked by `mark_dispatch`)."""
    return is_ours(interaction) and interaction.extras.get(DISPATCHED) is False


def submitted_values(interaction: discord.Interaction) -> dict[str, str | list[str]]:
    """The values of a modal submit by input custom id (action rows and labels alike)."""
    data: Mapping[str, Any] = interaction.data or {}  # type: ignore[assignment]
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
