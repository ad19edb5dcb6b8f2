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
from bot.discord_utils.edits import MISSING
from bot.i18n import t
from bot.i18n.currency import Currency
from bot.render import hand_alt_text
from bot.render.from_view import hand_snapshot
from bot.render.hand import hand_image
from bot.render.png import encode_png_palette
from bot.render.snapshots import HandSnapshot
from bot.tables import HandOver, PlayerHand, TableError, TableState, Update
from cogs.fair_text import hand_line
from cogs.member_names import MemberNames
from cogs.table_hand_over import hand_over_lines
from cogs.table_items import TableButton, turn_moves
from cogs.table_text import hand_text, phase_text, pot_lines

_log = logging.getLogger("stoppa.table.panel")

#: Seconds of loop time a panel is edited after its token was issued (Discord: 15 minutes;
#: the last edit, saying the panel stopped, must go before the token dies).
PANEL_LIFE = 14 * 60.0
HAND_IMAGE = "hand.png"
#: Discord's limits: the text of a Components V2 message, the alt text of an image.
TEXT_LIMIT = 4000
ALT_LIMIT = 1024
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
    #: what the message's image shows (`image_key`) and its alt text, None without an image
    image: tuple[object, ...] | None = None
    alt: str | None = None
    #: the message is a panel of the legacy layout (content text): the next edit converts it
    legacy: bool = False
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
                      asyncio.get_running_loop().time(), message_id, note=note,
                      legacy=message_id is not None and message is not None
                      and not message.flags.components_v2)
        if old is not None:
            if old.task is not None:
                old.task.cancel()
            if old.message_id is not None and old.message_id == message_id:
                panel.image, panel.alt = old.image, old.alt  # the same message: its image
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
                   lang: str, *, refusal: str | None = None, note: str | None = None) -> None:
        """`adopt` and show the panel now (the click's answer is the panel itself), with
        `refusal` above its moves when the click could not be played (or `note`: what the
        click did)."""
        panel = self.adopt(interaction, table_id, lang, wake=False, note=note)
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
            self._age_notes(panel, state, shown)
            body = await self.body(state, panel.user, panel.lang, panel.note, panel.refusal,
                                   panel.kept)
            image = image_key(shown)
            files: Any = MISSING  # the message keeps its image (the gallery points at it)
            alt = panel.alt if shown.cards else None
            if shown.cards and info is not None and image != panel.image:
                file = await self._hand_image(info, panel)
                files, alt = [file], file.description
            elif not shown.cards and (panel.image is not None or panel.legacy):
                files = []  # no cards: the old image goes
            try:
                message = await self._edit(panel, replace(body, alt=alt), files)
            except discord.HTTPException as error:
                _log.info("panel of user %s at table %s: edit refused (%s)", panel.user,
                          panel.table_id, error.status)
                return False
            panel.message_id = message.id
            panel.refused_on = shown if panel.refusal is not None else None
            panel.image, panel.alt = (image, alt) if alt is not None else (None, None)
            panel.shown = shown
            panel.edits += 1
            return state.status != "closed" and shown.status != "gone"

    @staticmethod
    def _age_notes(panel: Panel, state: TableState, shown: Shown) -> None:
        """Drop what the panel said that is old news now: what the player did (their new
        turn came), a refusal (the table moved on), the result of a hand before the last."""
        if shown.my_turn:
            panel.note = None
        if panel.refused_on not in (None, shown):
            panel.refusal = None
        if state.last_hand is not None:
            panel.kept = state.last_hand
        elif panel.kept is not None and panel.kept.hand_no < state.hand_no - 1:
            panel.kept = None

    @staticmethod
    async def _edit(panel: Panel, body: PanelBody, files: Any) -> discord.InteractionMessage:
        """Edit the panel's message to `body` (Components V2: the whole layout each time).
        `files` MISSING keeps the attachments the message has; a message of the legacy
        panel (content text) is converted in this edit: its content goes."""
        legacy: dict[str, Any] = {"content": None, "embed": None} if panel.legacy else {}
        message = await panel.interaction.edit_original_response(
            attachments=files, view=panel_layout(body),
            allowed_mentions=discord.AllowedMentions.none(), **legacy)
        panel.legacy = False
        return message

    async def _stop(self, panel: Panel) -> None:
        """The token's last edit: the panel says it stopped, with one button to bring it
        back (pressed, it makes this message the current panel again)."""
        self._forget(panel)
        button = t("table.button.panel", panel.lang)
        service = self.client.tables
        state = service.state_by_id(panel.table_id) if service is not None else None
        info = self._info(state, panel.user) if state is not None else None
        # the cards stay readable; the turn and the moves go (nothing here is live any more)
        cards = hand_text(info, state, panel.lang, live=True).splitlines()[:2] if info else []
        stopped = t("table.hand.expired", panel.lang, button=button)
        body = PanelBody(
            "\n".join(cards) or stopped, prompt=stopped if cards else None,
            controls=(TableButton(panel.table_id, "panel", label=button,
                                  style=discord.ButtonStyle.primary),),
            alt=panel.alt if info is not None and panel.image is not None else None)
        with contextlib.suppress(discord.HTTPException):
            await self._edit(panel, body, MISSING)

    async def body(self, state: TableState, user: int, lang: str, note: str | None = None,
                   refusal: str | None = None, kept: HandOver | None = None) -> PanelBody:
        """What the panel shows (no image yet: `show` adds it): the hand, the moves on their
        turn (or what they did, or why a click was refused), the table in one line, how the
        last hand ended; Leave during a hand, and "I'm back" while they are sat out."""
        info = self._info(state, user)
        moves = turn_moves(state.table_id, info, lang) if info is not None else None
        currency = server_currency(self.client, state.guild_id)
        result = await self.result_lines(state, user, lang, currency)
        if state.status == "closed":
            seat = state.seat_of(user)
            chips = seat.chips if seat is not None else None
            return PanelBody(t("table.hand.closed", lang, amount=chips, currency=currency)
                             if chips is not None else t("tables.closed", lang),
                             result=tuple(result))
        prompt = moves.prompt if moves is not None else note
        if refusal:
            prompt = f"{refusal}\n{prompt}" if prompt else refusal
        head = (hand_text(info, state, lang, live=True) if info is not None
                else t(between_key(state, user), lang)).split("\n")
        fair = hand_line(state, lang)  # the deck's commitment: small, under the table's line
        below = [table_line(state, lang), f"-# {fair}" if fair in head else None]
        head = [line for line in head if line != fair]
        if state.last_hand is None and kept is not None:  # the table dropped it: a short
            # note under the new hand's title, above its cards
            note_line = " ".join([f"*{t('handover.title', lang, hand_no=kept.hand_no)}:*",
                                  *net_lines(kept.net_of(user), lang, currency)])
            head = [*head[:1], note_line, *head[1:]]
        if info is None and prompt:  # no cards: what the click did comes first
            head, prompt = [prompt], "\n".join(head)
        return PanelBody("\n".join(head), prompt,
                         tuple(moves.action_rows()) if moves is not None else (),
                         "\n".join(x for x in below if x) or None, tuple(result),
                         panel_controls(state, user, info, lang))

    async def result_lines(self, state: TableState, user: int, lang: str,
                           currency: Currency | None) -> list[str]:
        """How the last hand ended, while the table shows it: its title, the player's net,
        then what happened (none when the table shows no last hand)."""
        last = state.last_hand
        if last is None:
            return []
        users = {p.user for p in last.points} | {w.user for w in last.pots}
        users |= {p.payer for p in last.payments} | {p.to for p in last.payments}
        names = await self.names.names(state.guild_id, users)
        return [f"**{t('handover.title', lang, hand_no=last.hand_no)}**",
                *net_lines(last.net_of(user), lang, currency),
                *hand_over_lines(last, lang, names, currency)]

    async def _hand_image(self, info: PlayerHand, panel: Panel) -> discord.File:
        """The hand image (`image_key`; the text says the rest), its alt text as the file's
        description (Discord's limit: 1,024 characters)."""
        user = self.client.get_user(panel.user)
        snap = hand_snapshot(info.seat_view, lang=panel.lang,
                             player=user.display_name if user is not None else "")
        # the turn and the best point change without the cards: the text says them, and the
        # image is drawn again only when `image_key` changes
        snap = replace(snap, best=None, your_turn=False, phase=image_phase(snap.phase,
                                                                           snap.new_cards))
        png = await asyncio.to_thread(render_hand_upload, snap)
        return discord.File(io.BytesIO(png), filename=HAND_IMAGE,
                            description=hand_alt_text(snap)[:ALT_LIMIT])


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


def table_line(state: TableState, lang: str) -> str | None:
    """The table in one line during a hand: the phase and the pots."""
    if state.phase in (None, "over"):
        return None
    return " · ".join([t("table.hand.table_line", lang, phase=phase_text(state, lang)),
                       *pot_lines(state, lang)])


def between_key(state: TableState, user: int) -> str:
    """What a panel without cards says: no hand running, or (a player who sat down during a
    hand) theirs starts with the next one."""
    seat = state.seat_of(user)
    waiting = seat is not None and seat.status == "waiting" and state.phase not in (None, "over")
    return "table.hand.waiting_next" if waiting else "table.hand.between"


def panel_controls(state: TableState, user: int, info: PlayerHand | None, lang: str
                   ) -> tuple[discord.ui.Item[Any], ...]:
    """The player's own table buttons: "I'm back" while sat out, Leave (not once leaving,
    nor while waiting for the next hand)."""
    seat = state.seat_of(user)
    out: list[discord.ui.Item[Any]] = []
    if seat is not None and seat.away:
        out.append(TableButton(state.table_id, "back", label=t("living.back_button", lang),
                               style=discord.ButtonStyle.success))
    if seat is not None and seat.status not in ("leaving", "waiting"):
        out.append(TableButton(state.table_id, "leave", label=t("table.button.leave", lang)))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class PanelBody:
    """What a panel shows, in the order a player reads it (laid out by `panel_layout`)."""

    #: the hand: its title, the cards, the best point, whether it is their turn
    head: str
    #: what to choose (or what they just did, or why their click was refused)
    prompt: str | None = None
    moves: tuple[discord.ui.ActionRow[Any], ...] = ()
    #: the table in one line (the phase and the pots), and the deck's commitment
    table: str | None = None
    #: how the last hand ended: its title, their net, what happened
    result: tuple[str, ...] = ()
    #: their own table buttons (Leave, I'm back; or the one that brings the panel back)
    controls: tuple[discord.ui.Item[Any], ...] = ()
    #: the alt text of the hand image the message carries (None: no image shown)
    alt: str | None = None

    def texts(self) -> list[str]:
        """The text displays, in order (clipped so that they fit `TEXT_LIMIT` together: the
        result's last lines go first)."""
        texts = [self.head, *([self.prompt] if self.prompt else []),
                 *([self.table] if self.table else [])]
        room = TEXT_LIMIT - sum(len(x) for x in texts)
        result = "\n".join(self.result)
        if len(result) > room:
            result = result[: max(room - 1, 0)].rsplit("\n", 1)[0] + "…"
        return [*texts, *([result] if self.result and room > 1 else [])]


def panel_layout(body: PanelBody) -> discord.ui.LayoutView:
    """The panel as Discord's layout components (Components V2; discord.py sets the flag): one
    container of the hand's text, its image (`attachment://hand.png`, already attached or
    uploaded with this edit), what to choose and the moves, then (below a divider) the
    table's line and the last hand's result, and the player's own table buttons."""
    texts = body.texts()
    box: discord.ui.Container[Any] = discord.ui.Container()
    box.add_item(discord.ui.TextDisplay(texts[0]))
    if body.alt is not None:
        box.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem(
            f"attachment://{HAND_IMAGE}", description=body.alt or None)))
    rest = texts[1:]
    if body.prompt:
        box.add_item(discord.ui.TextDisplay(rest.pop(0)))
    for row in body.moves:
        box.add_item(row)
    if rest:
        box.add_item(discord.ui.Separator())
        for text in rest:
            box.add_item(discord.ui.TextDisplay(text))
    if body.controls:
        box.add_item(discord.ui.ActionRow(*body.controls))
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(box)
    return view
