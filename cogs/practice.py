"""`/practice`: the member against CPU players, in one ephemeral message their clicks update.

Why one ephemeral message (and not a private thread): a practice table is one person's, so it
needs no channel, no thread and no permission, works in any channel and clutters nothing.
Each click is a new interaction with its own 15-minute token, and the click's own response
updates the message, so the member may take as long as they like; if the message is gone (or
the bot restarted), `/practice` again shows their table where it was (the table lives in the
database like every table: `bot.tables.policies.practice`).

A click is deferred first (Discord's 3 seconds), then the service plays the member's move and
the CPU seats' moves at once (no turn clock, no CPU pause at a practice table: the member
alone waits for themselves), so the message shows the member's next decision, or the hand's
end with a Next hand button. The moves reuse the table's private action panel
(`cogs.table_items.action_panel`) with practice custom ids, plus Hint (a separate ephemeral
line, from the member's own seat view only) and Leave (closes the table; no server chip was
ever at stake, so nothing is refunded).
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import StoppaBot
from bot.discord_utils import (
    UserFacingError,
    choice,
    cmd_str,
    guarded,
    lang_in_memory,
    mark_handled,
    report_interaction_error,
    send_ephemeral,
    spoken,
    submitted_values,
)
from bot.discord_utils.components import custom_id_of, selected_values
from bot.discord_utils.errors import refusal_code, refusal_text
from bot.discord_utils.installs import bot_is_here, member_command
from bot.discord_utils.numbers import typed_number
from bot.engine import Action, Call, Declare, Pass, parse_action
from bot.engine.moves import wager_of
from bot.i18n import t
from bot.players.hint import hint
from bot.render import hand_alt_text, render_hand
from bot.render.from_view import hand_snapshot
from bot.tables import PracticeTable, TableError, TableService, TableState
from bot.tables.policies.practice import DEFAULT_CPUS, MAX_CPUS, MIN_CPUS, STACK_ANTES
from cogs.practice_layout import (
    ALT_LIMIT,
    IMAGE_NAME,
    PracticeBody,
    hand_moves,
    layout,
    seat_names,
    table_text,
)
from cogs.table import CPU_LEVELS
from cogs.table_items import AmountModal, PickSelect, TableButton, action_panel
from cogs.table_text import action_words, discord_time, hand_text, key_of, phase_text

_log = logging.getLogger("stoppa.practice")

COG_NAME = "PracticeCog"
#: the moves of the table's panel, and the practice table's own buttons
MOVES = ("pass", "call", "bet", "other", "best")
OWN = ("hint", "next", "leave")
_PREFIX = r"stoppa:practice:(?P<table>\d+):"  # i18n: not user-facing
_TOKENS = r"(?P<hand>\d+):(?P<turn>\d+)"  # i18n: not user-facing
PRACTICE_TEMPLATE = (
    _PREFIX + "(?P<action>" + "|".join(MOVES + OWN) + ")(?::" + _TOKENS + r"(?::(?P<arg>\d+))?)?"
)
PICK_TEMPLATE = _PREFIX + "pick:" + _TOKENS
AMOUNT_PATTERN = re.compile(_PREFIX + "amount:" + _TOKENS)
BUTTON_PATTERN = re.compile(PRACTICE_TEMPLATE)
PICK_PATTERN = re.compile(PICK_TEMPLATE)
#: a hint's separate private line
CONTENT_LIMIT = 2000


def practice_id(table: int, action: str, hand: int | None = None, turn: int | None = None,
                arg: int | None = None) -> str:
    """The custom id of a practice component."""
    parts: list[object] = ["stoppa", "practice", table, action]
    if hand is not None and turn is not None:
        parts += [hand, turn]
        if arg is not None:
            parts.append(arg)
    return ":".join(map(str, parts))


def _opt(value: str | None) -> int | None:
    return int(value) if value is not None else None


class PracticeButton(discord.ui.DynamicItem[discord.ui.Button], template=PRACTICE_TEMPLATE):
    """A button of a practice table, rebuilt from its custom id (after a restart too)."""

    def __init__(self, table: int, action: str, hand: int | None = None,
                 turn: int | None = None, arg: int | None = None, *, label: str | None = None,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 row: int | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=label, style=style, row=row,
            custom_id=practice_id(table, action, hand, turn, arg),
        ))
        self.table, self.action = table, action
        self.hand, self.turn, self.arg = hand, turn, arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str], /
    ) -> PracticeButton:
        """Rebuild the button from a click."""
        return cls(int(match["table"]), match["action"], _opt(match["hand"]),
                   _opt(match["turn"]), _opt(match["arg"]))

    @guarded
    async def callback(
        self, interaction: discord.Interaction[StoppaBot]
    ) -> None:
        await cog_of(interaction).on_button(interaction, self.table, self.action, self.hand,
                                            self.turn, self.arg)


class PracticeSelect(discord.ui.DynamicItem[discord.ui.Select], template=PICK_TEMPLATE):
    """The select of a declaration or a stoppa opening at a practice table."""

    def __init__(self, table: int, hand: int, turn: int,
                 options: list[discord.SelectOption] | None = None, *,
                 placeholder: str | None = None) -> None:
        super().__init__(discord.ui.Select(
            custom_id=practice_id(table, "pick", hand, turn), options=list(options or []),
            placeholder=placeholder, min_values=1, max_values=1,
        ))
        self.table, self.hand, self.turn = table, hand, turn

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str], /
    ) -> PracticeSelect:
        """Rebuild the select from a choice."""
        return cls(int(match["table"]), int(match["hand"]), int(match["turn"]))

    @guarded
    async def callback(
        self, interaction: discord.Interaction[StoppaBot]
    ) -> None:
        await cog_of(interaction).on_pick(interaction, self.table, self.hand, self.turn,
                                          list(self.item.values))


class PracticeAmountModal(AmountModal):
    """The table's bet-amount modal, with a practice custom id."""

    def __init__(self, table: int, hand: int, turn: int, low: int, high: int,
                 lang: str) -> None:
        super().__init__(table, hand, turn, low, high, lang)
        self.custom_id = practice_id(table, "amount", hand, turn)

    @guarded
    async def on_submit(self, interaction: discord.Interaction[StoppaBot], /) -> None:
        """Play the amount typed (`guarded`: the submit is answered whatever happens)."""
        await cog_of(interaction).on_amount(interaction, self.table, self.hand, self.turn,
                                            self.amount.value or "")


def cog_of(interaction: discord.Interaction[StoppaBot]) -> PracticeCog:
    """The loaded practice cog."""
    cog = interaction.client.get_cog(COG_NAME)
    assert isinstance(cog, PracticeCog)
    return cog


def practice_rows(table: PracticeTable, lang: str) -> tuple[discord.ui.ActionRow[Any], ...]:
    """The buttons of the member's practice table, in rows: the moves of the table's own
    action panel (with practice custom ids) and Hint on their turn, Next hand between hands,
    Leave."""
    rows: dict[int, list[discord.ui.Item[Any]]] = {}
    tid = table.table_id
    own: list[discord.ui.Item[Any]] = []
    if table.in_hand and table.hand is not None:
        panel = action_panel(tid, table.hand, lang)
        for index, item in enumerate(panel[1].children if panel is not None else ()):
            row = rows.setdefault(item.row if item.row is not None else index, [])
            if isinstance(item, TableButton) and item.hand is not None and item.turn is not None:
                row.append(PracticeButton(tid, item.action, item.hand, item.turn, item.arg,
                                          label=item.item.label, style=item.item.style))
            elif isinstance(item, PickSelect):
                row.append(PracticeSelect(tid, item.hand, item.turn, item.item.options,
                                          placeholder=item.item.placeholder))
        if panel is not None:
            info = table.hand
            own.append(PracticeButton(tid, "hint", info.hand_no, info.turn,
                                      label=t("practice.button.hint", lang)))
    else:
        own.append(PracticeButton(tid, "next", label=t("practice.button.next", lang),
                                  style=discord.ButtonStyle.success))
    own.append(PracticeButton(tid, "leave", label=t("practice.button.leave", lang),
                              style=discord.ButtonStyle.danger))
    moves = [discord.ui.ActionRow(*items) for _, items in sorted(rows.items()) if items]
    return (*moves, discord.ui.ActionRow(*own))


def practice_head(state: TableState, lang: str) -> str:
    """The message's head: its title, what practice chips are, then the hand and its phase
    (no turn clock to show, no lobby to fill: the table's own words would speak of both)."""
    lines = [f"## {t('practice.title', lang)}", f"-# {t('practice.chips_note', lang)}"]
    if state.phase is not None and state.phase != "over":
        lines.append(t("table.embed.hand_phase", lang, hand_no=state.hand_no,
                       phase=phase_text(state, lang)))
    return "\n".join(lines)


def practice_text(table: PracticeTable, lang: str) -> str | None:
    """The member's cards and turn, and what to choose (or Next hand between hands)."""
    lines: list[str] = []
    info = table.hand
    if info is not None:
        words = hand_text(info, table.state, lang).split("\n")
        if info.my_turn:  # no turn clock here: the turn's line without a deadline
            actions = ", ".join(action_words(info, lang))
            clocked = t("table.hand.your_turn", lang, deadline=discord_time(None),
                        actions=actions)
            turn = t("practice.your_turn", lang, actions=actions)
            words = [turn if line == clocked else line for line in words]
        lines += words
        panel = action_panel(table.table_id, info, lang) if table.in_hand else None
        if panel is not None:
            lines.append(panel[0])
    if not table.in_hand:
        lines.append(t("practice.between_hands", lang))
    return "\n".join(lines) or None


class PracticeCog(commands.Cog):
    """The /practice command and the buttons of the practice tables."""

    dynamic_items = (PracticeButton, PracticeSelect)

    def __init__(self, bot: StoppaBot) -> None:
        self.bot = bot

    @property
    def service(self) -> TableService:
        """The table service (a missing one is refused politely by the caller's guard)."""
        service = self.bot.tables
        if service is None:
            raise TableError("busy")
        return service

    @member_command
    @app_commands.command(name="practice", description=cmd_str("practice.cmd.description"))
    @app_commands.describe(players=cmd_str("practice.cmd.players"),
                           level=cmd_str("practice.cmd.level"))
    @app_commands.choices(level=[choice(key_of("table.cmd.level", k), k) for k in CPU_LEVELS])
    async def practice(
        self, interaction: discord.Interaction[StoppaBot],
        players: app_commands.Range[int, MIN_CPUS, MAX_CPUS] = DEFAULT_CPUS,
        level: str = "easy",
    ) -> None:
        """Open the member's practice table (or show the one they have), privately."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = lang_in_memory(interaction)
        user = interaction.user.id

        async def show() -> list[str]:
            existing = self.service.practice(user) is not None
            # a server's stakes only where the bot is in it; elsewhere the defaults (guild 0)
            here = interaction.guild_id if bot_is_here(interaction) else None
            state = await self.service.open_practice(here or 0, user, players, level,
                                                     spoken(interaction))
            stakes = self.stakes_line(state.guild_id, lang)
            if existing:
                return [t("practice.reopened", lang), stakes]
            return [t("practice.opened", lang, cpus=players, antes=STACK_ANTES,
                      stack=STACK_ANTES * state.stakes.ante), stakes]

        await self.answer(interaction, lang, show)

    def stakes_line(self, guild: int, lang: str) -> str:
        """Where the practice table's stakes and variants come from: the server it was opened
        in (named when the bot knows it), or the defaults (opened where the bot is not)."""
        if not guild:
            return t("practice.stakes_default", lang)
        server = self.bot.get_guild(guild)
        if server is None:
            return t("practice.stakes_server_unnamed", lang)
        return t("practice.stakes_server", lang,
                 server=discord.utils.escape_markdown(server.name))

    # -- clicks ---------------------------------------------------------------------------
    async def on_button(self, interaction: discord.Interaction[StoppaBot], table: int,
                        action: str, hand: int | None, turn: int | None,
                        arg: int | None) -> None:
        """A practice button: a move, Hint, Next hand or Leave."""
        lang = lang_in_memory(interaction)
        user = interaction.user.id
        if action == "hint":
            await self.send_hint(interaction, lang, table)
            return
        if action == "other":
            await self.ask_amount(interaction, lang, table, hand, turn)
            return
        await self.defer_click(interaction)
        if action == "leave":
            await self.answer(interaction, lang, lambda: self.leave(user, table, lang))
            return
        if action == "next":
            await self.answer(interaction, lang, lambda: self.deal_next(user, table))
            return
        move = self.button_move(interaction, action, arg, table)
        await self.answer(interaction, lang, lambda: self.play(user, table, move, hand, turn))

    async def on_pick(self, interaction: discord.Interaction[StoppaBot], table: int,
                      hand: int, turn: int, values: list[str]) -> None:
        """A declaration or an opening chosen in the select."""
        lang = lang_in_memory(interaction)
        await self.defer_click(interaction)
        try:
            move = parse_action(values[0]) if values else None
        except ValueError:
            move = None
        await self.answer(interaction, lang,
                          lambda: self.play(interaction.user.id, table, move, hand, turn))

    async def on_amount(self, interaction: discord.Interaction[StoppaBot], table: int,
                        hand: int, turn: int, text: str) -> None:
        """An amount typed in the modal: a bet, or a raise when there is a bet to call."""
        lang = lang_in_memory(interaction)
        await self.defer_click(interaction)
        user = interaction.user.id
        await self.answer(interaction, lang, lambda: self.play(
            user, table, self.amount_move(user, text.strip(), typed=True), hand, turn))

    async def handle_orphan(self, interaction: discord.Interaction[StoppaBot]) -> bool:
        """A practice component discord.py handed to nobody: a modal submitted after a
        restart, or a button of an older version of the message (answered as a click)."""
        custom_id = custom_id_of(interaction) or ""
        if (match := AMOUNT_PATTERN.fullmatch(custom_id)) is not None:
            mark_handled(interaction)
            text = str(submitted_values(interaction).get("amount") or "")
            await self.on_amount(interaction, int(match["table"]), int(match["hand"]),
                                 int(match["turn"]), text)
            return True
        if (match := BUTTON_PATTERN.fullmatch(custom_id)) is not None:
            mark_handled(interaction)
            await self.on_button(interaction, int(match["table"]), match["action"],
                                 _opt(match["hand"]), _opt(match["turn"]), _opt(match["arg"]))
            return True
        if (match := PICK_PATTERN.fullmatch(custom_id)) is not None:
            mark_handled(interaction)
            values = selected_values(interaction)
            await self.on_pick(interaction, int(match["table"]), int(match["hand"]),
                               int(match["turn"]), values)
            return True
        return False

    # -- the changes ----------------------------------------------------------------------
    async def play(self, user: int, table_id: int, move: Action | None, hand: int | None,
                   turn: int | None) -> list[str]:
        """The member's move, then the CPU seats' (the service's `practice_act`)."""
        await self.service.practice_act(user, table_id, move, hand, turn)
        return []

    async def deal_next(self, user: int, table_id: int) -> list[str]:
        """Next hand (a second click while the hand plays is stale, not a new deal)."""
        await self.service.practice_next(user, table_id)
        return []

    async def leave(self, user: int, table_id: int, lang: str) -> list[str]:
        """Close the practice table."""
        await self.service.practice_leave(user, table_id)
        return [t("practice.closed", lang)]

    def button_move(self, interaction: discord.Interaction[StoppaBot], action: str,
                    arg: int | None, table_id: int) -> Action | None:
        """The engine move of a panel button (None: not a move the table can take now)."""
        if action == "pass":
            return Pass()
        if action == "call":
            return Call()
        if action == "bet" and arg is not None:
            return self.amount_move(interaction.user.id, str(arg))
        if action == "best":
            table = self.service.practice(interaction.user.id)
            if table is None or table.table_id != table_id or not table.in_hand:
                return None
            actions = table.hand.actions if table.hand is not None else ()
            return next((a for a in actions if isinstance(a, Declare)), None)
        return None

    def amount_move(self, user: int, text: str, *, typed: bool = False) -> Action | None:
        """A bet of `text` chips, or a raise to it when there is a bet (`wager_of`, the one
        reading of a move); one the table cannot take now is refused by it, with why. A
        `typed` amount that is no whole number is refused as at a real table."""
        chips = typed_number(text)
        table = self.service.practice(user)
        info = table.hand if table is not None and table.in_hand else None
        if chips is None and typed and info is not None and info.bet_range is not None:
            low, high = info.bet_range
            raise UserFacingError("table.refuse.bad_amount", min=low, max=high)
        if chips is None or info is None:
            return None
        return wager_of(info.seat_view, chips)

    # -- answers --------------------------------------------------------------------------
    async def defer_click(self, interaction: discord.Interaction[StoppaBot]) -> None:
        """Acknowledge a click at once: its own (ephemeral) message is updated later."""
        if interaction.response.is_done():
            return
        own = interaction.message is not None and interaction.message.flags.ephemeral
        if own:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)

    async def answer(self, interaction: discord.Interaction[StoppaBot], lang: str,
                     change: Callable[[], Awaitable[list[str]]]) -> None:
        """Run `change` (its lines head the message), then show the member's table: a
        refusal (worded by the one place, `refusal_text`, as at a real table) is shown above
        the table as it is now, so the message stays usable; anything else is a bug,
        reported."""
        user = interaction.user.id
        try:
            try:
                top = await change()
            except Exception as error:
                top = self.refused(error, lang, user)
            layout, files = await self.payload(user, interaction.user.display_name, lang, top)
            await interaction.edit_original_response(
                content=None, embeds=[], attachments=files, view=layout,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except Exception as error:
            await report_interaction_error(interaction, error, where="practice")

    @staticmethod
    def refused(error: Exception, lang: str, user: int) -> list[str]:
        """The lines of a refusal (`refusal_text`); a "no table" says how to open one. Not a
        refusal: raised again."""
        text = refusal_text(error, lang)
        if text is None:
            raise error
        _log.info("practice refused user=%s: %s", user, refusal_code(error))
        if isinstance(error, TableError) and error.code == "no_table":
            return [text, t("practice.none", lang)]
        return [text]

    async def payload(self, user: int, name: str, lang: str,
                      top: list[str]) -> tuple[discord.ui.LayoutView, list[discord.File]]:
        """The message of the member's practice table (`cogs.practice_layout`) and its hand
        image (or the lines alone, without a table)."""
        table = self.service.practice(user)
        shown = "\n".join(top) or None
        if table is None:
            return layout(PracticeBody(head=f"## {t('practice.title', lang)}", top=shown),
                          lang), []
        files: list[discord.File] = []
        alt = moves = None
        if table.hand is not None:
            snap = hand_snapshot(table.hand.seat_view, lang=lang, player=name)
            png = await asyncio.to_thread(render_hand, snap)
            alt = hand_alt_text(snap)[:ALT_LIMIT]
            files.append(discord.File(io.BytesIO(png), filename=IMAGE_NAME, description=alt))
            moves = hand_moves(table.hand, seat_names(table, user, name), lang)
        body = PracticeBody(
            head=practice_head(table.state, lang), top=shown, moves=moves, alt=alt,
            hand=practice_text(table, lang), rows=practice_rows(table, lang),
            table=table_text(table, lang, {user: name}),
        )
        return layout(body, lang), files

    async def send_hint(self, interaction: discord.Interaction[StoppaBot], lang: str,
                        table_id: int) -> None:
        """The expert CPU's move in the member's seat and why: a separate ephemeral line,
        computed from the member's own seat view (thought off the event loop, where the CPU
        seats think: `bot.thinking`)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            table = self.service.practice_table(interaction.user.id, table_id)
            info = table.hand
            if not table.in_hand or info is None:
                raise TableError("no_hand")
            if not info.my_turn:
                raise TableError("stale_button")
            advice = await self.service.thinker.run(hint, info.seat_view, info.actions,
                                                     info.events)
            text = advice.text(lang)
        except Exception as error:
            refused = refusal_text(error, lang)
            if refused is None:
                raise
            text = refused
        await send_ephemeral(interaction, text[:CONTENT_LIMIT])

    async def ask_amount(self, interaction: discord.Interaction[StoppaBot], lang: str,
                         table_id: int, hand: int | None, turn: int | None) -> None:
        """Other amount: the bet modal, with the member's range."""
        table = self.service.practice(interaction.user.id)
        info = table.hand if table is not None and table.in_hand else None
        if table is None or table.table_id != table_id or info is None or info.bet_range is None \
                or hand is None or turn is None:
            await self.defer_click(interaction)
            await self.answer(interaction, lang, self._stale)
            return
        low, high = info.bet_range
        await interaction.response.send_modal(
            PracticeAmountModal(table_id, hand, turn, int(low), int(high), lang)
        )

    @staticmethod
    async def _stale() -> list[str]:
        raise TableError("stale_button")


async def setup(bot: StoppaBot) -> None:
    """Load the cog."""
    await bot.add_cog(PracticeCog(bot))
