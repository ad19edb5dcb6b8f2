"""Our client, said once: every interaction this bot handles comes to a `StoppaBot`.

discord.py types the interaction of an overridable ui or cog method with a method-level type
variable (`Item.callback(self, interaction: Interaction[ClientT])`, `Modal.on_submit`,
`View.on_error`, `Cog.interaction_check`), so an override typed `Interaction[StoppaBot]`, which
our code needs to reach `interaction.client.tables`, narrows its parameter and mypy refuses
it. `for_stoppa_bot` is the one place that says why that is safe: it returns the method
unchanged, typed as discord.py calls it (any `Interaction`), while its body keeps the
`Interaction[StoppaBot]` it is written with. `guarded` (bot.discord_utils.errors) does the
same for the component callbacks it wraps.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeAlias, TypeVar

import discord

if TYPE_CHECKING:  # the client imports this package: the bot's type is for mypy only
    from bot.client import StoppaBot

S = TypeVar("S")
R = TypeVar("R")
P = ParamSpec("P")

#: A method of a ui item, view, modal or cog written for our client ...
OurMethod: TypeAlias = Callable[
    Concatenate[S, "discord.Interaction[StoppaBot]", P],  # i18n: not user-facing
    Coroutine[Any, Any, R],
]
#: ... and the same method as discord.py calls it.
TheirMethod: TypeAlias = Callable[
    Concatenate[S, discord.Interaction[Any], P], Coroutine[Any, Any, R]
]


def for_stoppa_bot(method: OurMethod[S, P, R]) -> TheirMethod[S, P, R]:
    """`method` itself, typed as the discord.py method it overrides (see the module)."""
    return method
