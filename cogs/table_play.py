"""`TablePlay`: the moves of a hand, by button, select, modal or slash command.

A click carries the table, hand and turn it was drawn for: `precheck` refuses a stranger, a
stale button or a click out of turn before anything is deferred (the service checks it all
again under the table's lock). `act` plays one engine action: a click on the table message is
deferred as an update and its token lent to the publisher, a click in a player's private panel
is deferred as an update of the panel, which then follows the table by itself
(`cogs.table_panel`), a slash command gets a private confirmation. `send_hand` opens the
player's live panel (cards, best point, moves on their turn); a click on an old panel makes it
the current one instead of refusing.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Callable

import discord
from discord import app_commands

from bot.client import StoppaBot
from bot.discord_utils import UserFacingError, lang_in_memory, spoken, submitted_values
from bot.discord_utils.components import carries, custom_id_of, selected_values
from bot.discord_utils.numbers import checked_id, custom_id_number, typed_number
from bot.engine import (
    Action,
    Call,
    Declare,
    IllegalAction,
    Pass,
    Play,
    parse_action,
)
from bot.i18n import t
from bot.i18n.cards import card_name
from bot.tables import PlayerHand, TableError, TableState
from cogs.card_input import typed_amount, typed_play, typed_rank
from cogs.table_items import (
    BUTTON_PATTERN,
    MODAL_TEMPLATE,
    SELECT_PATTERN,
    AmountModal,
    TableButton,
    turn_moves,
)
from cogs.table_lobby import TableLobby, leave_text
from cogs.table_panel import STALE_CODES, PanelBook
from cogs.table_replies import TableReplies, here
from cogs.table_text import done_text, refusal_text

_log = logging.getLogger("stoppa.table")

#: Discord's limit of autocomplete choices.
MAX_CHOICES = 25


class TablePlay:
    """The in-hand handlers of the table cog (and the buttons' dispatch)."""

    def __init__(self, replies: TableReplies, lobby: TableLobby, panels: PanelBook) -> None:
        self.replies = replies
        self.lobby = lobby
        self.panels = panels

    # -- the moves ---------------------------------------------------------------------------
    async def send_hand(self, interaction: discord.Interaction[StoppaBot], lang: str,
                        guild: int, channel: int) -> None:
        """The player's live panel: from the table message or a command, a fresh private
        message (refused when they have no hand); from a panel, that panel, shown again and
        current. Either way it then follows the table by itself."""
        r = self.replies
        state = r.service.table_here(guild, channel)
        if from_panel(interaction, state.table_id):
            if not interaction.response.is_done():
                await interaction.response.defer()
        else:
            r.service.hand_for(guild, channel, interaction.user.id)  # no hand: refused
            await r.think(interaction)
        await self.panels.open(interaction, state.table_id, lang)

    async def prechecked(self, interaction: discord.Interaction[StoppaBot], lang: str,
                         state: TableState, hand: int | None, turn: int | None) -> bool:
        """`precheck`, except that a click on an old panel shows that panel again, current
        (False: the click is answered, nothing more to do)."""
        try:
            self.precheck(state, interaction.user.id, hand, turn)
        except TableError as error:
            if await self.stale_panel(interaction, lang, state, error):
                return False
            raise
        return True

    async def stale_panel(self, interaction: discord.Interaction[StoppaBot], lang: str,
                          state: TableState, error: TableError) -> bool:
        """A click on an old panel (a stale turn, out of turn): that panel is shown again,
        current, instead of a refusal and another message. A turn button of an old table
        message, of a turn gone, pressed by a seated player: their live panel, current from
        then on (the table message's "My cards" does the same). False elsewhere (out of turn
        on the table message: the refusal says whose turn it is)."""
        if error.code not in STALE_CODES:
            return False
        if from_panel(interaction, state.table_id):
            if not interaction.response.is_done():
                await interaction.response.defer()
            await self.panels.open(interaction, state.table_id, lang)
            return True
        if (error.code == "not_your_turn" or state.seat_of(interaction.user.id) is None
                or not carries(interaction.message, f"stoppa:{state.table_id}:")):
            return False
        await self.replies.think(interaction)
        await self.panels.open(interaction, state.table_id, lang,
                               refusal=t("table.hand.moved_on", lang))
        return True

    @contextlib.asynccontextmanager
    async def refused_in_panel(self, interaction: discord.Interaction[StoppaBot], lang: str,
                               table_id: int) -> AsyncIterator[None]:
        """A move refused in a player's panel (an amount out of range, a choice the rules
        refuse) is answered in that panel, updated in place with the refusal in it; elsewhere
        the refusal goes on to `guard` (a private reply)."""
        try:
            yield
        except (TableError, IllegalAction, UserFacingError) as error:
            if not from_panel(interaction, table_id):
                raise
            _log.info("refused in panel user=%s: %s", interaction.user.id,
                      getattr(error, "code", None) or getattr(error, "key", None))
            text = (error.text(lang) if isinstance(error, UserFacingError)
                    else refusal_text(error, lang))
            if not interaction.response.is_done():
                await interaction.response.defer()
            self.panels.refuse(interaction, table_id, lang, text)

    async def act(
        self,
        interaction: discord.Interaction[StoppaBot],
        lang: str,
        guild: int,
        channel: int,
        action: Action,
        *,
        hand: int | None = None,
        turn: int | None = None,
    ) -> None:
        """Play `action` for the user. A component click is acknowledged silently (the table
        message changes); a click in a private panel also closes that panel."""
        r = self.replies
        component = interaction.type in (
            discord.InteractionType.component, discord.InteractionType.modal_submit
        )
        message = interaction.message
        # a click acts on its own message only: the table's, or a panel of this table (a
        # client may send a table's custom id with any message); elsewhere, a fresh answer
        state = r.service.state(channel)
        own = state is not None and carries(message, f"stoppa:{state.table_id}:")
        panel = None
        if state is not None:
            self.panels.decided(state.table_id, interaction.user.id)
        if component and own and state is not None and not interaction.response.is_done():
            await interaction.response.defer()
            if message is not None and message.flags.ephemeral:
                # the panel shows the move's outcome when the service publishes it
                panel = self.panels.adopt(interaction, state.table_id, lang, wake=False,
                                          note=done_text(action, lang))
            else:
                r.publisher.lend(interaction)  # its token edits the table message
        else:
            await r.think(interaction)
        try:
            await r.service.act(guild, channel, interaction.user.id, action,
                                expected_hand=hand, expected_turn=turn, lang=spoken(interaction))
        except BaseException:
            if panel is not None:
                panel.note = None
                panel.wake.set()  # refused: the panel shows the table as it is
            raise
        if not component or not own:
            await r.say(interaction, done_text(action, lang))

    async def command_act(self, interaction: discord.Interaction[StoppaBot], lang: str,
                          move: Action | Callable[[PlayerHand], Action]) -> None:
        """A move by slash command: `move`, or the move it reads from the player's hand (the
        amount of `/stoppa bet` and `/stoppa raise`, `wager`; `/stoppa declare` without cards,
        `best_point`). Someone who may not act now gets the refusal the move would get."""
        guild, channel = here(interaction)
        if callable(move):
            service, user = self.replies.service, interaction.user.id
            service.can_act(guild, channel, user)  # no table, not seated, not their turn...
            move = move(service.hand_for(guild, channel, user))
        await self.act(interaction, lang, guild, channel, move)

    async def play(self, interaction: discord.Interaction[StoppaBot], lang: str,
                   cards: str) -> None:
        """Open the stoppa with typed cards (or a rank alone naming one legal play)."""
        guild, channel = here(interaction)
        legal: list[Action] = []
        if typed_rank(cards) is not None:
            with contextlib.suppress(TableError):
                legal = list(self.replies.service.hand_for(guild, channel,
                                                           interaction.user.id).actions)
        action = typed_play(cards, legal, lang)
        await self.act(interaction, lang, guild, channel, action)

    async def card_choices(
        self, interaction: discord.Interaction[StoppaBot], current: str,
        kind: type[Declare] | type[Play],
    ) -> list[app_commands.Choice[str]]:
        """The player's legal declarations or openings matching what they typed."""
        if interaction.guild_id is None or interaction.channel_id is None:
            return []
        try:
            info = self.replies.service.hand_for(interaction.guild_id, interaction.channel_id,
                                                 interaction.user.id)
        except (TableError, UserFacingError):
            return []
        lang = lang_in_memory(interaction)  # autocomplete never waits for the store
        typed = current.strip().lower()
        out: list[app_commands.Choice[str]] = []
        for action in info.actions:
            if not isinstance(action, kind):
                continue
            codes = " ".join(str(c) for c in action.cards)
            names = ", ".join(card_name(str(c), lang) for c in action.cards)
            if typed and typed not in codes and typed not in names.lower():
                continue
            out.append(app_commands.Choice(name=f"{codes}: {names}"[:100], value=codes))
            if len(out) >= MAX_CHOICES:
                break
        return out

    # -- components --------------------------------------------------------------------------
    def table(self, table_id: int, interaction: discord.Interaction[StoppaBot]) -> TableState:
        """The open table of a component's custom id, which must be the table of the channel
        the interaction comes from (a custom id is data sent by the client)."""
        service = self.replies.service
        state = service.state_by_id(checked_id(table_id))
        if state is None:
            raise service.missing_table(table_id)
        if (state.guild_id, state.channel_id) != (interaction.guild_id, interaction.channel_id):
            raise TableError("no_table")
        return state

    async def button(self, interaction: discord.Interaction[StoppaBot], button: TableButton
                     ) -> None:
        """A table button was pressed (public message or private panel)."""

        async def work(lang: str) -> None:
            state = self.table(button.table, interaction)
            guild, channel = state.guild_id, state.channel_id
            lobby, action = self.lobby, button.action
            if action in ("join", "start") and not from_panel(interaction, state.table_id):
                return await self.seat_in_panel(interaction, lang, guild, channel, action)
            if action in ("leave", "back") and from_panel(interaction, state.table_id):
                return await self.in_panel(interaction, lang, state, action)
            if action == "leave":
                return await lobby.leave(interaction, lang, guild, channel)
            if action == "addcpu":
                return await lobby.add_cpu(interaction, lang, guild, channel, "easy")
            if action in ("hand", "panel"):
                return await self.send_hand(interaction, lang, guild, channel)
            if action == "back":
                return await lobby.back(interaction, lang)
            async with self.refused_in_panel(interaction, lang, state.table_id):
                await self._turn_button(interaction, lang, state, button)

        await self.replies.guard(interaction, work, f"button {button.action}",
                                 table=button.table)

    async def seat_in_panel(self, interaction: discord.Interaction[StoppaBot], lang: str,
                            guild: int, channel: int, action: str) -> None:
        """Join or Start (the table message's button or the slash command): the answer is the
        player's live panel, which then follows the hands, so that their first decision needs
        no "My cards" (a starter who is not seated gets the plain reply). A joiner's language
        is kept with their seat."""
        r, user = self.replies, interaction.user.id
        await r.think(interaction)
        if action == "join":
            state = await r.service.join(guild, channel, user, spoken(interaction))
            note = t("table.reply.joined", lang)
        else:
            state = await r.service.start_game(guild, channel, user)
            note = t("table.reply.started", lang)
        if state.seat_of(user) is None:
            return await r.say(interaction, note)
        await self.panels.open(interaction, state.table_id, lang, note=note)

    async def in_panel(self, interaction: discord.Interaction[StoppaBot], lang: str,
                       state: TableState, action: str) -> None:
        """Leave or "I'm back" pressed in a player's panel: answered in the panel itself (what
        they did, in its text), which is current from then on."""
        r, user = self.replies, interaction.user.id
        seat = state.seat_of(user)
        if action == "back" and (seat is None or not seat.away):
            raise UserFacingError("living.not_away")
        await interaction.response.defer()
        note = (t("living.back_reply", lang) if action == "back"
                else leave_text(state, user, lang))  # until the service answers
        panel = self.panels.adopt(interaction, state.table_id, lang, wake=False, note=note)
        try:
            if action == "back":
                await r.service.back(state.guild_id, user)
            else:  # left (in the lobby), or leaving at the end of the hand
                after = await r.service.leave(state.guild_id, state.channel_id, user)
                panel.note = leave_text(after, user, lang)
        except BaseException:
            panel.note = None
            panel.wake.set()
            raise
        await self.panels.show(panel)  # also once they left (the panel then lets go)

    def precheck(self, state: TableState, user: int, hand: int | None, turn: int | None) -> None:
        """Refuse at once (before deferring) a stranger, a stale button, or out of turn: the
        service's one answer (`can_act`), which it gives again under the table's lock."""
        self.replies.service.can_act(state.guild_id, state.channel_id, user, hand, turn)

    def _my_turn_info(self, state: TableState, user: int, hand: int | None) -> PlayerHand:
        """The private view of `user`, checked: seated, same hand, their turn."""
        if state.seat_of(user) is None:
            raise UserFacingError("table.refuse.not_at_table")
        info = self.replies.service.hand_for(state.guild_id, state.channel_id, user)
        if hand is not None and info.hand_no != hand:
            raise TableError("stale_button")
        if not info.my_turn:
            if state.to_act is None:
                raise TableError("no_hand")
            raise TableError("not_your_turn", player=state.to_act)
        return info

    async def _turn_button(
        self, interaction: discord.Interaction[StoppaBot], lang: str, state: TableState,
        button: TableButton
    ) -> None:
        user = interaction.user.id
        guild, channel = state.guild_id, state.channel_id
        action = button.action
        if not await self.prechecked(interaction, lang, state, button.hand, button.turn):
            return None
        if action in ("pass", "call"):
            chosen: Action = Pass() if action == "pass" else Call()
            return await self.act(interaction, lang, guild, channel, chosen,
                                  hand=button.hand, turn=button.turn)
        info = self._my_turn_info(state, user, button.hand)
        if button.turn is not None and info.turn != button.turn:
            raise TableError("stale_button")
        if action in ("raise", "declare", "play"):  # the table's turn buttons: the panel
            if turn_moves(state.table_id, info, lang) is None:
                raise UserFacingError("table.refuse.nothing_to_choose")
            return await self.send_hand(interaction, lang, guild, channel)
        if action == "other":
            bet_range = info.bet_range
            if not bet_range:
                raise UserFacingError("table.refuse.no_bet_now")
            await interaction.response.send_modal(
                AmountModal(state.table_id, info.hand_no, info.turn, int(bet_range[0]),
                            int(bet_range[1]), lang)
            )
            return None
        if action == "bet":
            chosen = typed_amount(info.seat_view, button.arg or 0)
        elif action == "best":
            declares = [a for a in info.actions if isinstance(a, Declare)]
            if not declares:
                raise UserFacingError("table.refuse.nothing_to_choose")
            chosen = declares[0]
        else:  # pragma: no cover - the template lists every action
            raise UserFacingError("table.refuse.nothing_to_choose")
        await self.act(interaction, lang, guild, channel, chosen, hand=button.hand,
                       turn=button.turn)
        return None

    async def pick(self, interaction: discord.Interaction[StoppaBot], table: int, hand: int,
                   turn: int, values: list[str]) -> None:
        """A declaration or an opening chosen in a private panel (an engine action text)."""

        async def work(lang: str) -> None:
            state = self.table(table, interaction)
            if not await self.prechecked(interaction, lang, state, hand, turn):
                return
            async with self.refused_in_panel(interaction, lang, state.table_id):
                if not values:
                    raise UserFacingError("table.refuse.nothing_to_choose")
                try:
                    action = parse_action(values[0])
                except ValueError:
                    raise TableError("bad_action", text=values[0][:40]) from None
                await self.act(interaction, lang, state.guild_id, state.channel_id, action,
                               hand=hand, turn=turn)

        await self.replies.guard(interaction, work, "pick", table=table)

    async def amount(self, interaction: discord.Interaction[StoppaBot], table: int, hand: int,
                     turn: int, typed: str) -> None:
        """Bet or raise to the typed amount (the modal's custom id gave table, hand, turn, so
        this works for a modal opened before a restart too)."""

        async def work(lang: str) -> None:
            state = self.table(table, interaction)
            if not await self.prechecked(interaction, lang, state, hand, turn):
                return
            async with self.refused_in_panel(interaction, lang, state.table_id):
                info = self._my_turn_info(state, interaction.user.id, hand)
                chips = typed_number(typed)
                if chips is None:
                    low, high = info.bet_range or (0, 0)
                    raise UserFacingError("table.refuse.bad_amount", min=low, max=high)
                action = typed_amount(info.seat_view, chips)
                await self.act(interaction, lang, state.guild_id, state.channel_id, action,
                               hand=hand, turn=turn)

        await self.replies.guard(interaction, work, "amount", table=table)

    async def orphan(self, interaction: discord.Interaction[StoppaBot]) -> bool:
        """A click or modal submit of a table component that discord.py handed to nobody: a
        button of an older version of an edited message or of a closed panel, a modal
        submitted after a restart or after its timeout. The custom id says everything, so it
        is handled as if the component were still there: the checks and the service's tokens
        refuse it politely when it is stale (with a fresh panel when it is now the user's turn).
        Returns False for a custom id that is not the table's (the bot answers it)."""
        custom_id = custom_id_of(interaction) or ""
        if interaction.type is discord.InteractionType.modal_submit:
            found = MODAL_TEMPLATE.fullmatch(custom_id)
            if found is None:
                return False
            typed = submitted_values(interaction).get("amount")
            await self.amount(interaction, custom_id_number(found["table"]),
                              custom_id_number(found["hand"]), custom_id_number(found["turn"]),
                              typed if isinstance(typed, str) else "")
            return True
        found = BUTTON_PATTERN.fullmatch(custom_id)
        if found is not None:
            await self.button(interaction, TableButton.from_match(found))
            return True
        found = SELECT_PATTERN.fullmatch(custom_id)
        if found is not None:
            values = selected_values(interaction)
            await self.pick(interaction, custom_id_number(found["table"]),
                            custom_id_number(found["hand"]), custom_id_number(found["turn"]),
                            values)
            return True
        return False


def wager(amount: int) -> Callable[[PlayerHand], Action]:
    """`/stoppa bet` and `/stoppa raise`: the bet of `amount`, or the raise to it when there is
    a bet, whichever word was typed (`typed_amount`: the one reading of an amount, as in the
    amount modal, at a practice table and in the terminal)."""
    return lambda info: typed_amount(info.seat_view, amount)


def best_point(info: PlayerHand) -> Action:
    """`/stoppa declare` without cards: the player's best point (R-9's default)."""
    declares = [a for a in info.actions if isinstance(a, Declare)]
    return declares[0] if declares else Declare(())


def from_panel(interaction: discord.Interaction[StoppaBot], table_id: int) -> bool:
    """Whether the interaction comes from a private panel of this table."""
    return carries(interaction.message, f"stoppa:{table_id}:", ephemeral=True)

