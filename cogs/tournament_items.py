"""The buttons of a tournament's registration message: restart-proof `DynamicItem`s.

Custom ids are `stoppa:tour:<tournament>:<action>` (join, leave, cpu, start, cancel): the
tournament's number is all a click needs, so the buttons keep working after a restart. The
callback only forwards to the cog (`TournamentCog.on_tournament_button`), which checks who
clicks and asks the tournament service; a click that discord.py hands to nobody (an older
version of the message) reaches `TournamentCog.handle_orphan` with the same custom id.
"""

from __future__ import annotations

import re
from typing import Any, Protocol, runtime_checkable

import discord

from bot.client import StoppaBot
from bot.discord_utils import PREFIX, guarded, key
from bot.discord_utils.numbers import NUMBER, custom_id_number
from bot.i18n import t

#: What the registration message's buttons do, in the order they are shown.
ACTIONS: tuple[str, ...] = ("join", "leave", "cpu", "start", "cancel")
BUTTON_TEMPLATE = PREFIX + f"tour:(?P<tournament>{NUMBER}):(?P<action>" + "|".join(ACTIONS) + ")"
BUTTON_PATTERN = re.compile(BUTTON_TEMPLATE)
STYLES: dict[str, discord.ButtonStyle] = {
    "join": discord.ButtonStyle.success,
    "leave": discord.ButtonStyle.secondary,
    "cpu": discord.ButtonStyle.secondary,
    "start": discord.ButtonStyle.primary,
    "cancel": discord.ButtonStyle.danger,
}


def custom_id(tournament: int, action: str) -> str:
    """The custom id of a registration button."""
    return f"{PREFIX}tour:{tournament}:{action}"


@runtime_checkable
class TournamentClicks(Protocol):
    """What the registration buttons hand a click to (the tournament cog)."""

    async def on_tournament_button(
        self, interaction: discord.Interaction[StoppaBot], button: TournamentButton
    ) -> None: ...


class TournamentButton(discord.ui.DynamicItem[discord.ui.Button], template=BUTTON_TEMPLATE):
    """A button of a registration message, rebuilt from its custom id."""

    def __init__(self, tournament: int, action: str, *, label: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=STYLES.get(action, discord.ButtonStyle.secondary),
                custom_id=custom_id(tournament, action),
            )
        )
        self.tournament = tournament
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str], /
    ) -> TournamentButton:
        """Rebuild the button from a click (after a restart too)."""
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(custom_id_number(match["tournament"]), match["action"], label=label)

    @guarded
    async def callback(
        self, interaction: discord.Interaction[StoppaBot]
    ) -> None:
        """Forward the click to the tournament cog."""
        cog = next(
            (c for c in interaction.client.cogs.values() if isinstance(c, TournamentClicks)),
            None,
        )
        if cog is not None:  # else `guarded` answers "out of date"
            await cog.on_tournament_button(interaction, self)


def registration_view(tournament: int, lang: str) -> discord.ui.View:
    """The buttons of a registration message that is still open."""
    view = discord.ui.View(timeout=None)
    for action in ACTIONS:
        view.add_item(
            TournamentButton(tournament, action, label=t(key("tournaments.button", action), lang))
        )
    return view
