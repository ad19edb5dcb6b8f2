"""`PanelBook`: one live private panel per seated player, edited as their hand changes (issue 36).

An ephemeral message can be edited only through the interaction token it came with (15
minutes). So the interaction that opened a player's panel (a click on the table message's
"My cards", a turn button, or any click in the panel itself) is `adopt`ed: from then on, each
update of the table service that changes what that player sees (`Shown`: their cards, their
turn, the phase, the end of a hand, away or not) wakes the panel's worker, which edits the
panel through that token. Like the table message's publisher, a worker edits at most once per
`interval` and shows the latest state (coalesced, never queued).

- Every click in the panel is answered by updating the panel itself (a deferred update, then
  the worker's edit): the click's fresh token replaces the old one. A click on an old panel
  (another message, a stale turn) makes that message the current panel.
- The hand image is uploaded only when the player's cards change (`Shown.cards`); later
  edits send no attachments and Discord keeps the one the message has.
- Before the token expires (`PANEL_LIFE`, loop time) the worker makes a last edit: the panel
  says it no longer follows the table and keeps one button that brings it back.
- Tokens live here, in memory only, never in the database: after a restart a panel stays as it
  was until its player clicks it (the click adopts it again).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from dataclasses import dataclass, field, replace
from typing import Any

import discord

from bot.client import StoppaBot
from bot.discord_utils import UserFacingError, server_currency
from bot.discord_utils.edits import MISSING, MessageEdit
from bot.i18n import t
from bot.i18n.currency import Currency
from bot.render import hand_alt_text
from bot.render.from_view import hand_snapshot
from bot.render.hand import hand_image
from bot.render.png import encode_png_palette
from bot.render.snapshots import HandSnapshot
from bot.tables import HandOver, PlayerHand, TableError, TableState, Update
from cogs.member_names import MemberNames
from cogs.table_hand_over import hand_over_lines
from cogs.table_items import TableButton, action_panel
from cogs.table_text import hand_text, phase_text, pot_lines

_log = logging.getLogger("stoppa.table.panel")

#: Seconds of loop time a panel is edited after its token was issued (Discord: 15 minutes;
#: the last edit, saying the panel stopped, must go before the token dies).
PANEL_LIFE = 14 * 60.0
HAND_IMAGE = "hand.png"
#: Discord's limit of a message's content.
CONTENT_LIMIT = 2000
#: Refusals of a click that a panel answers by showing itself again, current.
STALE_CODES = frozenset({"stale_button", "not_your_turn", "no_hand"})


@dataclass(frozen=True, slots=True)
class Shown:
    """What a panel shows of the table: an edit is due only when this changes (so another
    player's move edits only the panels of the players it concerns)."""

    status: str
    hand_no: int
    cards: tuple[str, ...]
    new_cards: tuple[str, ...]
    my_turn: bool
    turn: int | None
    phase: str | None
    result: int | None
    away: bool


def shown_of(state: TableState, user: int, info: PlayerHand | None) -> Shown:
    """What `user`'s panel shows of `state` (their private view `info`, None between hands)."""
    seat = state.seat_of(user)
    view = info.seat_view if info is not None else None
    my_turn = info is not None and info.my_turn
    return Shown(
        status=state.status if seat is not None else "gone",
        hand_no=state.hand_no,
        cards=tuple(c.code for c in view.hand) if view is not None else (),
        new_cards=tuple(c.code for c in view.eligible)
        if view is not None and view.deal_no is not None else (),
        my_turn=my_turn,
        turn=info.turn if info is not None and my_turn else None,
        phase=state.phase,
        result=state.last_hand.hand_no if state.last_hand is not None else None,
        away=seat is not None and seat.away,
    )


@dataclass(eq=False)
class Panel:
    """One player's live panel: the interaction whose token edits it, and what it shows."""

    table_id: int
    user: int
    lang: str
    interaction: discord.Interaction[StoppaBot]
    since: float
    message_id: int | None = None
    shown: Shown | None = None
    #: what the message's image shows (`image_key`), None without an image
    image: tuple[object, ...] | None = None
    #: what the player just did ("You passed."), shown until their next turn
    note: str | None = None
    #: why their last click was refused, shown above the moves while the panel shows what it
    #: was refused on (`refused_on`; None until that edit)
    refusal: str | None = None
    refused_on: Shown | None = None
    #: how the last hand ended, kept (in short) above the next hand until the player decides
    kept: HandOver | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    task: asyncio.Task[None] | None = None
    edits: int = 0


class PanelBook:
    """The live panels of every table (see the module docstring)."""

    def __init__(self, client: StoppaBot, names: MemberNames, *, interval: float | None = None,
                 life: float = PANEL_LIFE) -> None:
        self.client = client
        self.names = names
        self.interval = float(interval if interval is not None else client.publish_interval)
        self.life = life
        self._panels: dict[tuple[int, int], Panel] = {}
        #: the last state of a table that closed, while a panel of it still has to say so
        self._closed: dict[int, TableState] = {}

    def panel(self, table_id: int, user: int) -> Panel | None:
        """The live panel of `user` at a table, if any."""
        return self._panels.get((table_id, user))

    # -- adopting an interaction ------------------------------------------------------------
    def adopt(self, interaction: discord.Interaction[StoppaBot], table_id: int,
              lang: str, *, wake: bool = True, note: str | None = None) -> Panel:
        """The message of `interaction` (answered or deferred already) is now its user's
        panel at `table_id`, edited through its fresh token; shown at once, or (`wake`
        False: a move about to be played) at the next update of the table."""
        key = (table_id, interaction.user.id)
        old = self._panels.get(key)
        message = interaction.message
        ephemeral = message is not None and message.flags.ephemeral
        message_id = message.id if ephemeral and message is not None else None
        panel = Panel(table_id, interaction.user.id, lang, interaction,
                      asyncio.get_running_loop().time(), message_id, note=note)
        if old is not None:
            if old.task is not None:
                old.task.cancel()
            if old.message_id is not None and old.message_id == message_id:
                panel.image = old.image  # the same message: its image stays
            panel.kept = old.kept  # until their decision (`decided`)
        self._panels[key] = panel
        if wake:
            panel.wake.set()
        panel.task = asyncio.get_running_loop().create_task(
            self._run(panel), name=f"stoppa_panel_{table_id}_{interaction.user.id}")
        return panel

    def decided(self, table_id: int, user: int) -> None:
        """The player made a decision: the last hand's result has been read."""
        panel = self._panels.get((table_id, user))
        if panel is not None:
            panel.kept = None

    async def open(self, interaction: discord.Interaction[StoppaBot], table_id: int,
                   lang: str, *, refusal: str | None = None) -> None:
        """`adopt` and show the panel now (the click's answer is the panel itself), with
        `refusal` above its moves when the click could not be played."""
        panel = self.adopt(interaction, table_id, lang, wake=False)
        panel.refusal = refusal
        if not await self.show(panel):
            self._forget(panel)

    def refuse(self, interaction: discord.Interaction[StoppaBot], table_id: int, lang: str,
               refusal: str) -> None:
        """A click in the panel was refused (answered by a deferred update already): the
        panel shows why, in place, current (never another private message)."""
        panel = self._panels.get((table_id, interaction.user.id))
        if panel is None or panel.interaction is not interaction:
            panel = self.adopt(interaction, table_id, lang, wake=False)
        panel.note, panel.refusal, panel.refused_on = None, refusal, None
        panel.wake.set()

    def push(self, update: Update) -> None:
        """An update of the service: wake the panels of its table whose view changed."""
        state = update.state
        if state.status == "closed" and any(t == update.table_id for t, _ in self._panels):
            self._closed[update.table_id] = state
        for (table_id, user), panel in list(self._panels.items()):
            if table_id != update.table_id:
                continue
            if shown_of(state, user, self._info(state, user)) != panel.shown:
                panel.wake.set()

    async def close(self) -> None:
        """Stop every worker (the tokens are forgotten: panels stay as they are)."""
        tasks = [p.task for p in self._panels.values() if p.task is not None]
        self._panels.clear()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task

    # -- the worker -------------------------------------------------------------------------
    async def _run(self, panel: Panel) -> None:
        loop = asyncio.get_running_loop()
        while self._panels.get((panel.table_id, panel.user)) is panel:
            left = panel.since + self.life - loop.time()
            if left <= 0:
                await self._stop(panel)
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(panel.wake.wait(), left)
            if not panel.wake.is_set():
                continue
            panel.wake.clear()
            if not await self.show(panel):
                self._forget(panel)
                return
            if self.interval > 0:
                await asyncio.sleep(self.interval)

    def _forget(self, panel: Panel) -> None:
        if self._panels.get((panel.table_id, panel.user)) is panel:
            del self._panels[(panel.table_id, panel.user)]
        if not any(t == panel.table_id for t, _ in self._panels):
            self._closed.pop(panel.table_id, None)

    def _latest_state(self, table_id: int) -> TableState | None:
        """The table's latest state: open, or closed while its panels say so."""
        service = self.client.tables
        state = service.state_by_id(table_id) if service is not None else None
        return state if state is not None else self._closed.get(table_id)

    def _info(self, state: TableState, user: int) -> PlayerHand | None:
        service = self.client.tables
        if service is None or state.seat_of(user) is None or state.status == "closed":
            return None
        try:
            return service.hand_for(state.guild_id, state.channel_id, user)
        except (TableError, UserFacingError):
            return None

    async def show(self, panel: Panel) -> bool:
        """Edit the panel with the table's latest state; False once it cannot be edited any
        more (the token refused, the table gone): the panel is then forgotten."""
        async with panel.lock:
            state = self._latest_state(panel.table_id)
            if state is None:
                return False
            info = self._info(state, panel.user)
            shown = shown_of(state, panel.user, info)
            if shown.my_turn:
                panel.note = None  # their new turn: what they did before is old news
            if panel.refused_on not in (None, shown):
                panel.refusal = None  # the table moved on: the refusal is old news
            if state.last_hand is not None:
                panel.kept = state.last_hand
            elif panel.kept is not None and panel.kept.hand_no < state.hand_no - 1:
                panel.kept = None  # a hand older than the last one
            text, view = await self.content(state, panel.user, panel.lang, panel.note,
                                            panel.refusal, panel.kept)
            files: Any = MISSING
            image = image_key(shown)
            if shown.cards and image != panel.image:
                files = [await self._hand_image(info, panel)] if info is not None else MISSING
            elif not shown.cards and panel.image is not None:
                files = []  # no cards: the old image goes
            edit = MessageEdit(content=text[:CONTENT_LIMIT], attachments=files, view=view,
                               allowed_mentions=discord.AllowedMentions.none())
            try:
                message = await edit.edit_response(panel.interaction)
            except discord.HTTPException as error:
                _log.info("panel of user %s at table %s: edit refused (%s)", panel.user,
                          panel.table_id, error.status)
                return False
            panel.message_id = message.id
            panel.refused_on = shown if panel.refusal is not None else None
            panel.image = image if shown.cards else None
            panel.shown = shown
            panel.edits += 1
            return state.status != "closed" and shown.status != "gone"

    async def _stop(self, panel: Panel) -> None:
        """The token's last edit: the panel says it stopped, with one button to bring it
        back (pressed, it makes this message the current panel again)."""
        self._forget(panel)
        button = t("table.button.panel", panel.lang)
        view = discord.ui.View(timeout=None)
        view.add_item(TableButton(panel.table_id, "panel", label=button,
                                  style=discord.ButtonStyle.primary))
        service = self.client.tables
        state = service.state_by_id(panel.table_id) if service is not None else None
        info = self._info(state, panel.user) if state is not None else None
        # the cards stay readable; the turn and the moves go (nothing here is live any more)
        cards = hand_text(info, state, panel.lang, live=True).splitlines()[:2] if info else []
        text = "\n".join([*cards, t("table.hand.expired", panel.lang, button=button)])
        with contextlib.suppress(discord.HTTPException):
            await MessageEdit(content=text[:CONTENT_LIMIT], view=view).edit_response(
                panel.interaction)

    async def content(self, state: TableState, user: int, lang: str, note: str | None = None,
                      refusal: str | None = None, kept: HandOver | None = None
                      ) -> tuple[str, discord.ui.View]:
        """The panel's text and components: the moves on their turn; during a hand Leave, and
        "I'm back" while they are sat out (see `panel_lines` for the text)."""
        info = self._info(state, user)
        moves = action_panel(state.table_id, info, lang) if info is not None else None
        view = moves[1] if moves is not None else discord.ui.View(timeout=None)
        seat = state.seat_of(user)
        if seat is not None and seat.away:
            view.add_item(TableButton(state.table_id, "back", label=t("living.back_button", lang),
                                      style=discord.ButtonStyle.success, row=4))
        if seat is not None and info is not None and seat.status not in ("leaving", "waiting"):
            view.add_item(TableButton(state.table_id, "leave", label=t("table.button.leave", lang),
                                      row=4))
        result: list[str] = []
        last = state.last_hand
        currency = server_currency(self.client, state.guild_id)
        if last is not None:
            users = {p.user for p in last.points} | {w.user for w in last.pots}
            users |= {p.payer for p in last.payments} | {p.to for p in last.payments}
            names = await self.names.names(state.guild_id, users)
            result = [t("handover.title", lang, hand_no=last.hand_no),
                      *net_lines(last.net_of(user), lang, currency),
                      *hand_over_lines(last, lang, names, currency)]
        if state.status == "closed":
            chips = seat.chips if seat is not None else None
            closed = [t("table.hand.closed", lang, amount=chips, currency=currency)
                      if chips is not None else t("tables.closed", lang)]
            return "\n".join([*closed, *(["", f"**{result[0]}**", *result[1:]] if result
                                          else [])]), discord.ui.View(timeout=None)
        prompt = moves[0] if moves is not None else note
        if refusal:
            prompt = f"{refusal}\n{prompt}" if prompt else refusal
        lines = "\n".join(panel_lines(state, info, lang, prompt, result)).split("\n")
        if last is None and kept is not None:  # the table dropped it: a short note under
            # the new hand's title, above its cards
            note_line = " ".join([f"*{t('handover.title', lang, hand_no=kept.hand_no)}:*",
                                  *net_lines(kept.net_of(user), lang, currency)])
            lines = [*lines[:1], note_line, *lines[1:]]
        return "\n".join(lines), view

    async def _hand_image(self, info: PlayerHand, panel: Panel) -> discord.File:
        """The hand image (`image_key`; the text says the rest)."""
        user = self.client.get_user(panel.user)
        snap = hand_snapshot(info.seat_view, lang=panel.lang,
                             player=user.display_name if user is not None else "")
        # the turn and the best point change without the cards: the text says them, and the
        # image is drawn again only when `image_key` changes
        snap = replace(snap, best=None, your_turn=False, phase=image_phase(snap.phase,
                                                                           snap.new_cards))
        png = await asyncio.to_thread(render_hand_upload, snap)
        return discord.File(io.BytesIO(png), filename=HAND_IMAGE,
                            description=hand_alt_text(snap)[:1000])


def net_lines(net: int | None, lang: str, currency: Currency | None) -> list[str]:
    """What the hand won or cost the player, in one line (none when they were not dealt in)."""
    if net is None:
        return []
    if net > 0:
        return [t("table.hand.net_won", lang, amount=net, currency=currency)]
    if net < 0:
        return [t("table.hand.net_lost", lang, amount=-net, currency=currency)]
    return [t("table.hand.net_even", lang)]


def image_key(shown: Shown) -> tuple[object, ...]:
    """What the panel's hand image shows: the cards, the deal's new ones, the phase's name."""
    return (shown.cards, shown.new_cards, image_phase(shown.phase, shown.new_cards))


def image_phase(phase: str | None, new_cards: tuple[str, ...]) -> str:
    """The phase the hand image names: a small point's showdown is still its small point, the
    big point's showdown its big point (so the image changes only a few times a hand)."""
    if phase in ("stoppa", "over"):
        return phase
    return "small_point" if new_cards else "big_point"


def render_hand_upload(snap: HandSnapshot) -> bytes:
    """The hand image as uploaded: a palette PNG, as the table image is (under half the
    bytes of the RGB PNG, the same picture)."""
    return encode_png_palette(hand_image(snap))


def panel_lines(state: TableState, info: PlayerHand | None, lang: str, prompt: str | None,
                result: list[str]) -> list[str]:
    """The panel's text: the hand (cards, best point, their turn), what to choose, the table in
    one line, and how the last hand ended while the table shows it."""
    lines = [hand_text(info, state, lang, live=True) if info is not None
             else t("table.hand.between", lang)]
    if prompt:
        lines.append(prompt)
    if state.phase not in (None, "over"):
        lines.append(" · ".join([t("table.hand.table_line", lang,
                                   phase=phase_text(state, lang)), *pot_lines(state, lang)]))
    if result:
        lines += ["", f"**{result[0]}**", *result[1:]]
    return lines
