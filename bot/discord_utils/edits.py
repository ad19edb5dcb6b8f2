"""`MessageEdit`: what a message shows after an edit, typed, for the two ways we edit one.

A cog builds the edit once (text, embed, new images, buttons, who may be pinged) and sends it
through an interaction (`edit_response`: the interaction's own message, free of the bot's
request budget) or through the channel (`edit_message`). A field left MISSING is not sent, so
the message keeps it; None clears it (as in discord.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

MISSING: Any = discord.utils.MISSING


@dataclass(frozen=True, slots=True)
class MessageEdit:
    """The new content of a message (see the module docstring)."""

    content: str | None = MISSING
    embed: discord.Embed | None = MISSING
    #: new files (images); MISSING keeps the message's attachments, [] removes them
    attachments: Sequence[discord.File] = MISSING
    #: buttons (View) or a layout (LayoutView: discord.py sets the V2 flag)
    view: discord.ui.View | discord.ui.LayoutView | None = MISSING
    allowed_mentions: discord.AllowedMentions | None = MISSING

    async def edit_response(
        self, interaction: discord.Interaction[Any]
    ) -> discord.InteractionMessage:
        """Edit the interaction's original response (answered or deferred before)."""
        return await interaction.edit_original_response(
            content=self.content, embed=self.embed, attachments=self.attachments,
            view=self.view, allowed_mentions=self.allowed_mentions,
        )

    async def edit_message(self, message: discord.PartialMessage) -> discord.Message:
        """Edit `message` through its channel (a bot-token request: take room in the
        budget first)."""
        return await message.edit(
            content=self.content, embed=self.embed, attachments=self.attachments,
            view=self.view, allowed_mentions=self.allowed_mentions,
        )
