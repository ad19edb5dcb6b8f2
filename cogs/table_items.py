"""The table's components: restart-proof buttons and selects (`DynamicItem`), the bet modal,
and the builders of the public table view and of the private action panel.

Custom ids carry everything a click needs, so a button keeps working after a restart:

- `stoppa:<table>:<action>` for table actions (join, leave, start, addcpu, hand, back, and
  panel: the button of a panel that stopped following the table, which brings it back);
- `stoppa:<table>:<action>:<hand>:<turn>[:<amount>]` for actions bound to one turn of one
  hand (pass, call, raise, declare, play, bet, other, best): the service refuses a stale or
  doubled click by these tokens (`expected_hand`, `expected_turn`);
- `stoppa:<table>:pick:<hand>:<turn>` for the select of a declaration or a stoppa opening
  (its values are engine action texts, "declare 7d 6d", "play 5c", "concede");
- `stoppa:<table>:amount:<hand>:<turn>` for the modal of a bet amount.

A click that discord.py hands to no component (a button of an older version of an edited
message, a modal submitted after a restart) reaches `TableCog.handle_orphan`, which parses the
same custom ids (`BUTTON_PATTERN`, `SELECT_PATTERN`, `MODAL_TEMPLATE`).

The callbacks only forward to the cog (`TableCog.on_button`, `on_pick`, `on_amount`), which
checks who clicks and asks the table service: no rules and no state live here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import discord

from bot.client import StoppaBot
from bot.discord_utils import (
    guarded,
)
from bot.discord_utils.numbers import NUMBER, custom_id_number
from bot.engine import MAX_PLAYERS, Bet, Call, Concede, Declare, Pass, Play, Raise
from bot.engine.points import Point
from bot.i18n import t
from bot.i18n.cards import card_name, cards_text
from bot.tables import PlayerHand, TableState

#: The cog's name, to find it from a component callback.
COG_NAME = "TableCog"
#: Actions of the table (not bound to a turn) and of a turn.
TABLE_ACTIONS = ("join", "leave", "start", "addcpu", "hand", "back", "panel")
TURN_ACTIONS = ("pass", "call", "raise", "declare", "play", "bet", "other", "best")
BUTTON_TEMPLATE = (
    f"stoppa:(?P<table>{NUMBER}):(?P<action>" + "|".join(TABLE_ACTIONS + TURN_ACTIONS) + ")"
    f"(?::(?P<hand>{NUMBER}):(?P<turn>{NUMBER})(?::(?P<arg>{NUMBER}))?)?"
)
SELECT_TEMPLATE = f"stoppa:(?P<table>{NUMBER}):pick:(?P<hand>{NUMBER}):(?P<turn>{NUMBER})"
MODAL_TEMPLATE = re.compile(
    f"stoppa:(?P<table>{NUMBER}):amount:(?P<hand>{NUMBER}):(?P<turn>{NUMBER})"
)
#: The templates compiled, to parse a custom id that discord.py handed to nobody.
BUTTON_PATTERN = re.compile(BUTTON_TEMPLATE)
SELECT_PATTERN = re.compile(SELECT_TEMPLATE)
#: Discord's limit of options in a select.
MAX_OPTIONS = 25
BETTING_PHASES = ("small_point", "big_point")


def _opt_int(value: str | None) -> int | None:
    return custom_id_number(value) if value is not None else None


def custom_id(table: int, action: str, hand: int | None = None, turn: int | None = None,
              arg: int | None = None) -> str:
    """The custom id of a table button."""
    parts: list[object] = ["stoppa", table, action]
    if hand is not None and turn is not None:
        parts += [hand, turn]
        if arg is not None:
            parts.append(arg)
    return ":".join(map(str, parts))


@runtime_checkable
class TableClicks(Protocol):
    """What the table's components hand a click to (the table cog)."""

    async def on_button(
        self, interaction: discord.Interaction[StoppaBot], button: TableButton
    ) -> None: ...

    async def on_pick(
        self, interaction: discord.Interaction[StoppaBot], select: PickSelect
    ) -> None: ...

    async def on_amount(
        self, interaction: discord.Interaction[StoppaBot], modal: AmountModal
    ) -> None: ...


def table_clicks(bot: StoppaBot) -> TableClicks | None:
    """The loaded cog that handles the table's clicks (None while it is not loaded)."""
    return next((cog for cog in bot.cogs.values() if isinstance(cog, TableClicks)), None)


class TableButton(discord.ui.DynamicItem[discord.ui.Button], template=BUTTON_TEMPLATE):
    """A button of a table (public message or private panel), rebuilt from its custom id."""

    def __init__(
        self,
        table: int,
        action: str,
        hand: int | None = None,
        turn: int | None = None,
        arg: int | None = None,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=style, row=row,
                custom_id=custom_id(table, action, hand, turn, arg),
            )
        )
        self.table = table
        self.action = action
        self.hand = hand
        self.turn = turn
        self.arg = arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str], /
    ) -> TableButton:
        """Rebuild the button from a click (after a restart too)."""
        if isinstance(item, discord.ui.Button):
            return cls.from_match(match, label=item.label, style=item.style)
        return cls.from_match(match)

    @classmethod
    def from_match(
        cls,
        match: re.Match[str],
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> TableButton:
        """The button of a custom id matched by `BUTTON_PATTERN`."""
        return cls(
            custom_id_number(match["table"]), match["action"], _opt_int(match["hand"]),
            _opt_int(match["turn"]), _opt_int(match["arg"]), label=label, style=style,
        )

    @guarded
    async def callback(
        self, interaction: discord.Interaction[StoppaBot]
    ) -> None:
        """Forward to the cog (`guarded`: whatever happens, the click gets an answer)."""
        cog = table_clicks(interaction.client)
        if cog is not None:
            await cog.on_button(interaction, self)


class PickSelect(discord.ui.DynamicItem[discord.ui.Select], template=SELECT_TEMPLATE):
    """The select of a declaration or a stoppa opening (values: engine action texts)."""

    def __init__(
        self,
        table: int,
        hand: int,
        turn: int,
        options: list[discord.SelectOption] | None = None,
        *,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=custom_id(table, "pick", hand, turn),
                options=list(options or []),
                placeholder=placeholder,
                min_values=1,
                max_values=1,
            )
        )
        self.table = table
        self.hand = hand
        self.turn = turn

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str], /
    ) -> PickSelect:
        """Rebuild the select from a choice."""
        select = item if isinstance(item, discord.ui.Select) else None
        return cls(
            custom_id_number(match["table"]), custom_id_number(match["hand"]),
            custom_id_number(match["turn"]),
            list(select.options) if select is not None else [],
            placeholder=select.placeholder if select is not None else None,
        )

    @property
    def values(self) -> list[str]:
        """The chosen values."""
        return list(self.item.values)

    @guarded
    async def callback(
        self, interaction: discord.Interaction[StoppaBot]
    ) -> None:
        """Forward to the cog (`guarded`: whatever happens, the choice gets an answer)."""
        cog = table_clicks(interaction.client)
        if cog is not None:
            await cog.on_pick(interaction, self)


class AmountModal(discord.ui.Modal):
    """The amount of a bet or raise, typed by the player."""

    def __init__(
        self, table: int, hand: int, turn: int, low: int, high: int, lang: str
    ) -> None:
        super().__init__(
            title=t("table.modal.title", lang),
            custom_id=custom_id(table, "amount", hand, turn),
            timeout=600,
        )
        self.table = table
        self.hand = hand
        self.turn = turn
        self.low = low
        self.high = high
        self.amount: discord.ui.TextInput[AmountModal] = discord.ui.TextInput(
            label=t("table.modal.amount", lang, min=low, max=high),
            custom_id="amount",
            placeholder=str(low),
            min_length=1,
            max_length=9,
        )
        self.add_item(self.amount)

    @guarded
    async def on_submit(self, interaction: discord.Interaction[StoppaBot], /) -> None:
        """Forward to the cog (`guarded`: the submit is answered whatever happens, an error
        logged and answered politely)."""
        cog = table_clicks(interaction.client)
        if cog is not None:
            await cog.on_amount(interaction, self)


# ---------------------------------------------------------------------- views


def table_buttons(state: TableState, lang: str) -> discord.ui.ActionRow | None:
    """The buttons of the public table message (None once the table is closed): only what
    anyone may use (issue 36).

    In the lobby and between hands: Join, Leave, Start, Add CPU, I'm back; during a hand only
    My cards, which opens a seated player's live panel (their moves, Leave and I'm back are
    there: a button only one player may use is not on the shared message). The turn buttons
    of a table message posted before the change keep working (their custom ids are parsed).
    """
    if state.status == "closed":
        return None
    row: discord.ui.ActionRow = discord.ui.ActionRow()
    # a tournament seats its entrants and deals by itself: nobody joins, adds a CPU or starts
    open_seats = state.tournament is None and len(state.seats) < MAX_PLAYERS
    if state.phase is not None and state.phase != "over":
        row.add_item(TableButton(state.table_id, "hand", label=t("table.button.hand", lang),
                                 style=discord.ButtonStyle.primary))
    else:
        lobby_buttons(row, state, lang, open_seats)
    return row


def lobby_buttons(row: discord.ui.ActionRow, state: TableState, lang: str, open_seats: bool
                  ) -> None:
    """The table message's buttons in the lobby and between hands: Join, Leave, Start, Add
    CPU, and I'm back while a player is sat out."""
    tid = state.table_id
    green, blue = discord.ButtonStyle.success, discord.ButtonStyle.primary
    if open_seats:
        row.add_item(TableButton(tid, "join", label=t("table.button.join", lang), style=green))
    row.add_item(TableButton(tid, "leave", label=t("table.button.leave", lang)))
    if state.tournament is None:
        row.add_item(TableButton(tid, "start", label=t("table.button.start", lang), style=blue))
    if open_seats:
        row.add_item(TableButton(tid, "addcpu", label=t("table.button.addcpu", lang)))
    if any(seat.away for seat in state.seats):  # a sat-out player presses "I'm back"
        row.add_item(TableButton(tid, "back", label=t("living.back_button", lang), style=green))


def bet_amounts(low: int, high: int) -> list[int]:
    """Quick amounts of a bet panel: the minimum, twice it, and the maximum (distinct)."""
    out: list[int] = []
    for amount in (low, low * 2, high):
        if low <= amount <= high and amount not in out:
            out.append(amount)
    return out


def point_label(cards: tuple[Any, ...], lang: str) -> tuple[str, str]:
    """The label ("39: 7s 6s") and description (the card names) of a point option."""
    codes = [str(c) for c in cards]
    value = Point.of(cards).total
    label = t("table.select.point", lang, value=value, cards=" ".join(codes))
    names = ", ".join(card_name(c, lang) for c in codes)
    return label[:100], names[:100]


#: The items of one row of moves.
Row = tuple[discord.ui.Item[Any], ...]


@dataclass(frozen=True, slots=True)
class Moves:
    """What a player may do on their turn: the prompt above the moves, and their rows."""

    prompt: str
    rows: tuple[Row, ...]

    def action_rows(self) -> list[discord.ui.ActionRow[Any]]:
        """The rows as the `ActionRow`s of a Components V2 layout (a DynamicItem works inside
        one)."""
        return [discord.ui.ActionRow(*row) for row in self.rows]

    def view(self) -> discord.ui.View:
        """The rows as a legacy view (row 0, 1...), for the practice table's message."""
        view = discord.ui.View(timeout=None)
        for number, row in enumerate(self.rows):
            for item in row:
                item.row = number
                view.add_item(item)
        return view


def turn_moves(table_id: int, info: PlayerHand, lang: str) -> Moves | None:
    """The moves of a player whose turn it is (None when it is not their turn).

    Betting: Pass, Call, quick amounts (min / x2 / max) and "Other amount" (a modal).
    Showdown: "Declare best" and a select of every declarable point (best first) + concede.
    Stoppa: a select of the legal openings.
    """
    if not info.my_turn:
        return None
    if info.phase in BETTING_PHASES:
        return betting_moves(table_id, info, lang)
    if info.phase == "showdown":
        return showdown_moves(table_id, info, lang)
    if info.phase == "stoppa":
        return stoppa_moves(table_id, info, lang)
    return None


def action_panel(
    table_id: int, info: PlayerHand, lang: str
) -> tuple[str, discord.ui.View] | None:
    """`turn_moves` as a prompt and a legacy view (the practice table's message)."""
    moves = turn_moves(table_id, info, lang)
    return (moves.prompt, moves.view()) if moves is not None else None


def _row(*items: discord.ui.Item[Any]) -> tuple[Row, ...]:
    """One row of `items` (none when there are none)."""
    return (items,) if items else ()


def betting_moves(table_id: int, info: PlayerHand, lang: str) -> Moves:
    """Pass and Call in one row; the quick amounts and "Other amount" in the next."""
    actions = list(info.actions)
    hand, turn = int(info.hand_no), int(info.turn)
    raising = any(isinstance(a, Raise | Call) for a in actions)
    first: list[discord.ui.Item[Any]] = []
    if any(isinstance(a, Pass) for a in actions):
        first.append(TableButton(table_id, "pass", hand, turn, label=t("table.button.pass", lang)))
    if any(isinstance(a, Call) for a in actions):
        first.append(TableButton(table_id, "call", hand, turn, label=t("table.button.call", lang),
                                 style=discord.ButtonStyle.success))
    second: list[discord.ui.Item[Any]] = []
    bet_range = info.bet_range
    if bet_range and any(isinstance(a, Bet | Raise) for a in actions):
        low, high = int(bet_range[0]), int(bet_range[1])
        key = "table.button.raise_amount" if raising else "table.button.bet_amount"
        second += [TableButton(table_id, "bet", hand, turn, amount,
                               label=t(key, lang, amount=amount),
                               style=discord.ButtonStyle.primary)
                   for amount in bet_amounts(low, high)]
        if high > low:
            second.append(TableButton(table_id, "other", hand, turn,
                                      label=t("table.button.other", lang)))
    prompt = (t("table.panel.betting", lang, to_call=info.to_call) if raising
              else t("table.panel.opening", lang))
    return Moves(prompt, _row(*first) + _row(*second))


def showdown_moves(table_id: int, info: PlayerHand, lang: str) -> Moves:
    """"Declare best" in one row; a select of every declarable point (best first, and
    conceding) in the next."""
    hand, turn = int(info.hand_no), int(info.turn)
    points = [a for a in info.actions if isinstance(a, Declare)]
    options: list[discord.SelectOption] = []
    for action in points[: MAX_OPTIONS - 1]:
        label, description = point_label(action.cards, lang)
        options.append(discord.SelectOption(label=label, value=str(action),
                                            description=description))
    if any(isinstance(a, Concede) for a in info.actions):
        options.append(discord.SelectOption(label=t("table.select.concede", lang),
                                            value=str(Concede())))
    rows: tuple[Row, ...] = ()
    if points:
        best_value = Point.of(points[0].cards).total
        rows += _row(TableButton(table_id, "best", hand, turn,
                                 label=t("table.button.best", lang, value=best_value),
                                 style=discord.ButtonStyle.success))
    if options:
        rows += _row(PickSelect(table_id, hand, turn, options,
                                placeholder=t("table.select.declare", lang)))
    return Moves(t("table.panel.showdown", lang), rows)


def stoppa_moves(table_id: int, info: PlayerHand, lang: str) -> Moves | None:
    """A select of the legal openings of the stoppa (None when there is none)."""
    plays = [a for a in info.actions if isinstance(a, Play)][:MAX_OPTIONS]
    if not plays:
        return None
    options = [
        discord.SelectOption(label=cards_text([str(c) for c in a.cards], lang)[:100],
                             value=str(a))
        for a in plays
    ]
    select = PickSelect(table_id, int(info.hand_no), int(info.turn), options,
                        placeholder=t("table.select.play", lang))
    return Moves(t("table.panel.stoppa", lang), _row(select))
