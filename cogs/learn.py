"""`/learn`: the guided first hand, in one ephemeral message that the learner's clicks update.

Why one ephemeral message: a lesson is one person's, so it needs no channel, no thread and no
permission, works in any channel, and clutters nothing. Each click is a new interaction with
a fresh token, so the message can be updated however long the learner takes (Discord's
15-minute limit binds only the token of the `/learn` command itself, used once). A button's
custom id carries the step, and the step is all the lesson's state (`bot.learn`): nothing is
stored, and a lesson survives a restart. No chips of the server are at stake.
"""

from __future__ import annotations

import asyncio
import io
import re
from dataclasses import replace
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import StoppaBot
from bot.discord_utils import cmd_str, guarded, lang_in_memory, mark_handled
from bot.discord_utils.components import custom_id_of
from bot.discord_utils.edits import MessageEdit
from bot.discord_utils.installs import member_command
from bot.engine.actions import Action, Bet, Call, Concede, Declare, Pass, Play
from bot.i18n import t
from bot.learn import Answer, Lesson, LessonStep
from bot.learn.lesson import choices
from bot.learn.texts import Screen, screen
from bot.render import render_hand
from bot.render.from_view import hand_snapshot

#: `stoppa:learn:<step>:<move>`; the move: stop, pass, call, concede, declare, bet<n>, play<r>
_MOVES = r"stop|pass|call|concede|declare|bet[0-9]{1,4}|play[0-9]{1,2}"
LEARN_TEMPLATE = rf"stoppa:learn:(?P<step>[0-9]{{1,2}}):(?P<move>{_MOVES})"  # i18n: not user-facing
LEARN_PATTERN = re.compile(LEARN_TEMPLATE)
IMAGE_NAME = "lesson.png"
COG_NAME = "LearnCog"


def move_code(move: Action) -> str:
    """The short code of a move in a button's custom id."""
    if isinstance(move, Bet):
        return f"bet{move.amount}"
    if isinstance(move, Play):
        return f"play{move.cards[0].rank}"
    return {Pass: "pass", Call: "call", Concede: "concede", Declare: "declare"}[type(move)]


def move_of(step: LessonStep, code: str) -> Action | None:
    """The move of `step` that a button's code names (None: not offered at this step)."""
    return next((m for m in choices(step) if move_code(m) == code), None)


class LessonButton(discord.ui.DynamicItem[discord.ui.Button], template=LEARN_TEMPLATE):
    """A move of the lesson (or Stop); the custom id holds the step it answers."""

    def __init__(self, step: int, move: str, *, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(
            label=label or move, style=style,
            custom_id=f"stoppa:learn:{step}:{move}",  # i18n: not user-facing
        ))
        self.step = step
        self.move = move

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str], /
    ) -> LessonButton:
        """Rebuild the button from a click (after a restart too)."""
        return cls(int(match["step"]), match["move"])

    @guarded
    async def callback(
        self, interaction: discord.Interaction[StoppaBot]
    ) -> None:
        cog = interaction.client.get_cog(COG_NAME)
        assert isinstance(cog, LearnCog)
        await cog.on_move(interaction, self.step, self.move)


def lesson_view(step: LessonStep, shown: Screen, lang: str) -> discord.ui.View:
    """The buttons of a step: its moves, then Stop (none at the end)."""
    view = discord.ui.View(timeout=None)
    if step.over:
        return view
    for move, label in shown.moves:
        view.add_item(LessonButton(step.index, move_code(move), label=label))
    view.add_item(LessonButton(step.index, "stop", label=t("learn.stop", lang),
                               style=discord.ButtonStyle.danger))
    return view


def lesson_embed(shown: Screen, lang: str) -> discord.Embed:
    """The step's words: what happened (quoted), then what the lesson says."""
    quoted = "\n".join(f"> {line}" for line in shown.happened)
    body = f"{quoted}\n\n{shown.text}" if quoted else shown.text
    embed = discord.Embed(title=shown.title, description=body[:4096],
                          colour=discord.Colour.dark_green())
    embed.set_image(url=f"attachment://{IMAGE_NAME}")
    embed.set_footer(text=t("learn.scripted", lang))
    return embed


class LearnCog(commands.Cog):
    """The /learn command and the lesson's buttons."""

    dynamic_items = (LessonButton,)

    def __init__(self, bot: StoppaBot) -> None:
        self.bot = bot
        self.lesson = Lesson()

    @member_command
    @app_commands.command(name="learn", description=cmd_str("learn.cmd.description"))
    async def learn(self, interaction: discord.Interaction[StoppaBot]) -> None:
        """Start the guided hand, privately."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = lang_in_memory(interaction)
        shown = await self.payload(self.lesson.at(0), lang, interaction.user.display_name)
        await shown.edit_response(interaction)

    async def payload(self, step: LessonStep, lang: str, name: str,
                      answer: Answer | None = None) -> MessageEdit:
        """The message of a step: embed, the learner's hand as an image, buttons."""
        learner = discord.utils.escape_markdown(name)
        shown = screen(step, lang, learner, answer)
        png = await asyncio.to_thread(
            render_hand, hand_snapshot(step.view, lang=lang, player=name)
        )
        return MessageEdit(
            embed=lesson_embed(shown, lang),
            attachments=[discord.File(io.BytesIO(png), filename=IMAGE_NAME)],
            view=lesson_view(step, shown, lang),
        )

    async def handle_orphan(self, interaction: discord.Interaction[Any]) -> bool:
        """A lesson button that is no longer on its message (a click on an older version of
        it): answered like any lesson click, which shows the step the button names."""
        match = LEARN_PATTERN.fullmatch(custom_id_of(interaction) or "")
        if match is None:
            return False
        mark_handled(interaction)
        await self.on_move(interaction, int(match["step"]), match["move"])
        return True

    async def on_move(self, interaction: discord.Interaction[StoppaBot], index: int,
                      code: str) -> None:
        """A click: judge the move, show the next step (or the same one, explained)."""
        lang = lang_in_memory(interaction)
        own_message = interaction.message is not None and interaction.message.flags.ephemeral
        if own_message:
            await interaction.response.defer()
        else:  # a lesson button on some other message: answer apart, never edit that one
            await interaction.response.defer(ephemeral=True, thinking=True)
        if code == "stop":
            await interaction.edit_original_response(
                content=t("learn.stopped", lang), embed=None, attachments=[], view=None
            )
            return
        if not 0 <= index < len(self.lesson.steps):
            step, answer = self.lesson.at(0), None
        else:
            step = self.lesson.at(index)
            move = move_of(step, code)
            answer = self.lesson.answer(index, move) if move is not None else Answer.stale(step)
            step = answer.next
        shown = await self.payload(step, lang, interaction.user.display_name, answer)
        await replace(shown, content=None).edit_response(interaction)


async def setup(bot: StoppaBot) -> None:
    """Load the cog."""
    await bot.add_cog(LearnCog(bot))
