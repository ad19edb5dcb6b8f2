"""`TablePublisher`: keeps each table's public message up to date, without flooding Discord.

The table service calls `push(update)` after every committed change (players' actions, CPU
moves, turn timeouts). `push` only records the latest state and the new lines and wakes the
table's worker task; the worker edits the message with the latest state, then waits
`interval` seconds (the bot's `publish_interval`) before the next edit, so a busy table makes at
most one edit per `interval` whatever the number of changes (edits are coalesced, never queued).

One edit: the table image rendered off the event loop (`asyncio.to_thread`), the embed in the
server's language, the buttons of the phase. If the message is gone (or was never posted) a new
one is posted and reported with `service.message_posted`.

Discord's request budget (issue 18): bot-token requests count toward a global limit of ~50 a
second per bot, interaction responses do not. So when a player clicks a component of the table
message itself, the cog `lend`s that interaction (deferred as an update) and the edits go
through its token (`edit_original_response`) while it is fresh; the other requests wait for
room in the bot's one `RequestBudget` (`StoppaBot.requests`, shared by all tables and every
other bot-token request of ours: a longer pause coalesces more changes). The
table image is a palette PNG, uploaded only when its bytes changed (otherwise the edit carries
no attachments and Discord keeps the old one). A human to act is mentioned in a ping message
only once `ping_share` of their turn clock has passed without them acting (an edit never
notifies anybody); a ping is never deleted (that would be a "ghost ping"), is skipped when the
budget is full, and never goes to a user `opted_out` says no to.

When an edit fails for another reason (discord.py gave up after repeated 429s, a 5xx), the
worker wakes itself again after a growing delay (`FAILURE_DELAYS`): the latest state is never
dropped, and nothing of ours retries a request discord.py is still retrying.

When Discord refuses the bot the channel (403, or 404 Unknown Channel), the table's turn clock
is paused at once (no timeout while nobody can see the table) and the worker tries again after
each delay of `RETRY_DELAYS` (on the table service's clock), then gives up: the table is
`hidden` and nothing is sent there any more (repeated 403s count toward Discord's
invalid-request limit). A player's next interaction there calls `retry` (the cog does, when the
bot's permissions look complete again): one attempt, and on success the clock runs again.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import discord

from bot.client import StoppaBot
from bot.discord_utils import server_currency
from bot.discord_utils.edits import MessageEdit
from bot.discord_utils.request_budget import RequestBudget
from bot.i18n import t
from bot.i18n.currency import Currency
from bot.render import table_alt_text
from bot.render.png import encode_png_palette
from bot.render.snapshots import TableSnapshot
from bot.render.table import table_image
from bot.tables import Notice, TableError, TableState, Update
from cogs.member_names import MemberNames
from cogs.table_images import table_snapshot_of
from cogs.table_items import table_buttons
from cogs.table_layout import alt_text, table_layout
from cogs.table_text import (
    RESULT_EVENTS,
    TableTexts,
    discord_time,
    event_notice,
    humans,
    last_lines,
    member_language,
    mention,
    notice_text,
    notice_users,
    table_language,
    table_texts,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

_log = logging.getLogger("stoppa.table.publisher")

#: Lines kept per table for the "last events" field.
KEPT_LINES = 20
#: Lines that name cards: dropped when the next hand starts (they would mislead, and a card
#: shown in one hand may be hidden in a hand of the next deal).
CARD_LINES = frozenset(
    {"table.event.declare", "table.event.play", "tables.timeout.declare", "tables.timeout.play"}
)
IMAGE_NAME = "table.png"
#: A seat's status in a betting round, said by its seat line rather than drawn.
BETTING_STATUSES = frozenset({"passed", "allin"})
#: The line said once when a table message of the embed days is converted to the layout.
CONVERTED = "table.embed.converted"
#: Seconds before each new attempt after Discord refused the channel; then the table is hidden.
RETRY_DELAYS: tuple[float, ...] = (5.0, 30.0, 120.0)
#: Discord's error code of a 404 for a channel that does not exist (any more).
UNKNOWN_CHANNEL = 10003
#: Seconds before the worker tries again after an edit failed otherwise (the last repeats).
FAILURE_DELAYS: tuple[float, ...] = (2.0, 5.0, 15.0, 30.0)
#: Seconds an interaction token may edit its message (Discord: 15 minutes), with a margin.
TOKEN_LIFE = 14 * 60.0
#: Share of a human's turn clock after which they are pinged if they have not acted.
PING_SHARE = 0.4
#: Seconds an edit may take between taking room in the budget and sending its request.
AHEAD_SLACK = 0.1


def render_table_upload(snapshot: TableSnapshot) -> bytes:
    """The table image as uploaded: a palette PNG (a third of the RGB PNG's bytes)."""
    return encode_png_palette(table_image(snapshot))


def image_snapshot(snapshot: TableSnapshot) -> TableSnapshot:
    """What the table message's image draws: the board (seats, chips, cards, pots, points
    shown, the stoppa's cards) without what changes at every move of a betting round and the
    text says above and beside it: the turn marker (the turn line, with its deadline), a
    seat's bet and passed or all-in (its seat line), the bet to match (the pots). A pass or a
    check then leaves the image as it was, and an edit does not upload it again."""
    seats = tuple(
        replace(seat, to_act=False, bet=0,
                status="in" if seat.status in BETTING_STATUSES else seat.status)
        for seat in snapshot.seats
    )
    return replace(snapshot, seats=seats, level=0)


def shown_lines(state: TableState, lines: Sequence[Notice]) -> list[Notice]:
    """The lines the last events may show: while the message shows how the last hand ended
    (its own block), not its pots won and payments a second time."""
    if state.last_hand is None:
        return list(lines)
    return [n for n in lines if n.key not in RESULT_EVENTS]


@dataclass(frozen=True, slots=True)
class TableDraft:
    """One table message, composed: the state shown, its language, texts, image (`compose`)."""

    state: TableState
    lang: str
    texts: TableTexts
    png: bytes
    alt: str

    @property
    def digest(self) -> bytes:
        """The image's digest (an edit uploads it again only when it changed)."""
        return hashlib.sha256(self.png).digest()

    def view(self, *, buttons: bool = True) -> discord.ui.LayoutView:
        """The message's layout, its gallery pointing at the attached image (`buttons`:
        the table message's; a private look has none)."""
        return table_layout(
            self.texts, self.lang, closed=self.state.status == "closed", image=IMAGE_NAME,
            alt=self.alt, buttons=table_buttons(self.state, self.lang) if buttons else None,
        )

    def file(self) -> discord.File:
        """The image as a new attachment."""
        return discord.File(io.BytesIO(self.png), filename=IMAGE_NAME,
                            description=alt_text(self.alt))


async def compose(state: TableState, lang: str, names: Mapping[int, str], lines: Sequence[str],
                  currency: Currency) -> TableDraft:
    """The table message of `state` in `lang` (the table message and `/stoppa status` show
    the same): its texts, with `lines` as the last events, and its image, rendered off the
    event loop without what the texts say (`image_snapshot`), with its alt text."""
    snapshot = table_snapshot_of(
        state, names, lang=lang, title=t("table.embed.title", lang, number=state.table_id)
    )
    snapshot = replace(snapshot, currency_name=currency.name, currency_emoji=currency.emoji)
    png = await asyncio.to_thread(render_table_upload, image_snapshot(snapshot))
    texts = table_texts(state, lang, names, lines, currency)
    return TableDraft(state, lang, texts, png, table_alt_text(snapshot))


#: the table message never pings anyone
NO_MENTIONS = discord.AllowedMentions.none()


class ChannelRefused(Exception):
    """Discord refused the bot the table's channel (403, or the channel is gone)."""


def _refused(error: discord.HTTPException) -> bool:
    """Whether an error means the channel itself is out of reach (not one message)."""
    return isinstance(error, discord.Forbidden) or (
        isinstance(error, discord.NotFound) and error.code == UNKNOWN_CHANNEL
    )


class _Room:
    """Room in the budget for the bot-token requests of one edit: taken ahead (before the
    state is read) or when a request turns out to need it (the lent token failed, or the
    message was gone and a new one is posted). Room taken ahead is used only if the request
    follows within `AHEAD_SLACK` seconds (rendering); after a longer wait (a member's name
    looked up meanwhile) it is taken again, so that requests never bunch beyond the budget."""

    def __init__(self, budget: RequestBudget) -> None:
        self.budget = budget
        self.ahead_at: float | None = None

    async def take_ahead(self) -> None:
        """Wait for room now; the next request of this edit uses it."""
        await self.budget.acquire()
        self.ahead_at = asyncio.get_running_loop().time()

    async def take(self) -> None:
        """Room for the request about to be sent."""
        ahead_at, self.ahead_at = self.ahead_at, None
        if ahead_at is not None and asyncio.get_running_loop().time() - ahead_at <= AHEAD_SLACK:
            return
        await self.budget.acquire()


@dataclass
class _Slot:
    """The publishing state of one table."""

    table_id: int
    guild_id: int
    channel_id: int
    state: TableState
    message_id: int | None = None
    #: the last lines (at most `KEPT_LINES`: the oldest event lines go first, see
    #: `last_lines`)
    lines: list[Notice] = field(default_factory=list)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None
    ping_id: int | None = None
    pinged: tuple[int, int, int] | None = None
    ping_task: asyncio.Task[None] | None = None
    edits: int = 0
    #: A click on the table message, deferred as an update: its token edits the message.
    lent: discord.Interaction[StoppaBot] | None = None
    lent_at: float = 0.0
    #: The digest of the image the message shows (attached as `IMAGE_NAME`).
    image_digest: bytes | None = None
    #: Whether the message is a layout (V2) message: None until known for a message posted
    #: before this run (`_check_format`), False for one of the embed days (converted next).
    v2: bool | None = None
    #: Edits failed in a row for a reason other than a refused channel.
    failures: int = 0
    #: Attempts refused in a row (403 / unknown channel); `hidden` once they are used up.
    refusals: int = 0
    hidden: bool = False


def _users(state: TableState, lines: Iterable[Notice]) -> set[int]:
    """Everyone a table message names: seats, players and the users of its lines."""
    return {s.user_id for s in state.seats} | set(state.players) | notice_users(lines)


def _newer(new: TableState, old: TableState) -> bool:
    """Whether `new` is at least as recent as `old` (a closed table is the last state)."""
    if old.status == "closed":
        return False
    if new.status == "closed":
        return True
    return (new.hand_no, new.turn) >= (old.hand_no, old.turn)


class TablePublisher:
    """One worker task per table editing its public message (see the module docstring)."""

    def __init__(
        self,
        client: StoppaBot,
        names: MemberNames,
        *,
        interval: float | None = None,
        budget: RequestBudget | None = None,
        opted_out: Callable[[int | None, int], bool] | None = None,
        ping_share: float = PING_SHARE,
    ) -> None:
        self.client = client
        self.names = names
        #: The bot-token requests a second the bot allows itself: the bot's one budget,
        #: shared by all tables and every other bot-token request (`StoppaBot.requests`).
        self.budget = budget if budget is not None else client.requests
        #: Whether a user asked not to be pinged on a server, `opted_out(guild_id, user_id)`
        #: (nobody, unless a callable is given).
        self.opted_out: Callable[[int | None, int], bool] = opted_out or (
            lambda _guild, _user: False
        )
        #: Share of the turn clock a human may take before being pinged (0: at once).
        self.ping_share = ping_share
        #: Seconds before trying again after a failed edit (`FAILURE_DELAYS`).
        self.failure_delays: tuple[float, ...] = FAILURE_DELAYS
        #: Seconds between two edits of one table's message: the bot's `publish_interval`
        #: (`create_bot(publish_interval=...)`; the harness uses 0) unless given here.
        self.interval: float = (
            float(interval) if interval is not None
            else float(client.publish_interval)
        )
        self._slots: dict[int, _Slot] = {}
        self._closing = False
        #: awaited with a closed table's last state once its message shows it
        self.after_close: Callable[[TableState], Awaitable[None]] | None = None

    # -- feeding --------------------------------------------------------------------------
    def push(self, update: Update) -> None:
        """Record an update of the service (never blocks: the worker publishes it)."""
        lines: list[Notice] = list(update.notices)
        players = update.state.players
        for event in update.events:
            notice = event_notice(event, players)
            if notice is not None:
                lines.append(notice)
        self._feed(update.state, lines, new_hand=update.kind == "started")

    def refresh(self, state: TableState, *, seed_events: bool = False) -> None:
        """Publish `state` again (e.g. after a restart), optionally seeding the last lines
        from its recorded public events."""
        lines: list[Notice] = []
        if seed_events:
            for event in state.events:
                notice = event_notice(event, state.players)
                if notice is not None and notice.key not in CARD_LINES:
                    lines.append(notice)
        self._feed(state, lines)

    def _feed(
        self, state: TableState, lines: Iterable[Notice], *, new_hand: bool = False
    ) -> None:
        if self._closing:
            return
        slot = self._slots.get(state.table_id)
        if slot is None:
            slot = _Slot(state.table_id, state.guild_id, state.channel_id, state)
            slot.message_id = state.message_id
            self._slots[state.table_id] = slot
        elif _newer(state, slot.state):
            slot.state = state
        if slot.hidden and state.status == "closed":
            self._forget(slot)  # closed where it cannot be shown: nothing left to publish
            return
        if state.message_id is not None and slot.message_id is None:
            slot.message_id = state.message_id
        if new_hand:
            slot.lines = [n for n in slot.lines if n.key not in CARD_LINES]
        slot.lines = last_lines([*slot.lines, *lines], KEPT_LINES)
        if not slot.hidden:  # a hidden table waits for `retry`: no request until then
            slot.wake.set()
        if slot.task is None or slot.task.done():
            slot.task = asyncio.get_running_loop().create_task(
                self._run(slot), name=f"stoppa_publisher_{slot.table_id}"
            )

    def _forget(self, slot: _Slot) -> None:
        for task in (slot.task, slot.ping_task):
            if task is not None:
                task.cancel()
        self._slots.pop(slot.table_id, None)

    def lend(self, interaction: discord.Interaction[StoppaBot]) -> bool:
        """Offer a click on a table message's own component, already deferred as an update:
        the next edits of that table go through its token (free of the global limit).
        Returns whether the click was on a table message the publisher keeps."""
        message = interaction.message
        if message is None:
            return False
        slot = next((s for s in self._slots.values() if s.message_id == message.id), None)
        if slot is None:
            return False
        slot.lent = interaction
        slot.lent_at = asyncio.get_running_loop().time()
        return True

    def hidden(self, table_id: int) -> bool:
        """Whether the table's message cannot be shown (Discord refused the channel)."""
        slot = self._slots.get(table_id)
        return slot is not None and slot.hidden

    def retry(self, table_id: int) -> None:
        """Try once more to show a hidden table (its clock resumes when that works)."""
        slot = self._slots.get(table_id)
        if slot is None or not slot.hidden:
            return
        slot.hidden = False
        slot.refusals = len(RETRY_DELAYS)  # one attempt: refused again, it is hidden again
        slot.wake.set()

    def message_id(self, table_id: int) -> int | None:
        """The public message of a table, as far as the publisher knows."""
        slot = self._slots.get(table_id)
        return slot.message_id if slot is not None else None

    async def close(self) -> None:
        """Stop every worker (pending edits are dropped; the next start refreshes)."""
        self._closing = True
        tasks = [task for s in self._slots.values() for task in (s.task, s.ping_task)
                 if task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        self._slots.clear()

    # -- the worker -----------------------------------------------------------------------
    async def _run(self, slot: _Slot) -> None:
        while True:
            await slot.wake.wait()
            slot.wake.clear()
            state = slot.state
            try:
                state = await self.publish(slot)
            except asyncio.CancelledError:
                raise
            except ChannelRefused as error:
                if state.status != "closed":
                    await self._refused(slot, error)
            except Exception:
                _log.exception("table %s: could not update the table message", slot.table_id)
                self._failed(slot)
            else:
                slot.failures = 0
                self._shown(slot)
            gave_up = slot.failures > len(self.failure_delays)
            if state.status == "closed" and slot.state is state and (
                not slot.failures or gave_up
            ):
                self._forget_closed(slot)
                if self.after_close is not None:
                    await self.after_close(state)
                return
            if self.interval > 0:
                await asyncio.sleep(self.interval)

    def _forget_closed(self, slot: _Slot) -> None:
        if slot.ping_task is not None:
            slot.ping_task.cancel()
        self._slots.pop(slot.table_id, None)

    def _failed(self, slot: _Slot) -> None:
        """Wake the worker again after the next delay of `failure_delays` (the edit that
        failed is not lost: the next one publishes the latest state)."""
        delays = self.failure_delays
        delay = delays[min(slot.failures, len(delays) - 1)]
        slot.failures += 1
        loop = asyncio.get_running_loop()
        loop.call_later(delay, self._wake_again, slot)

    def _wake_again(self, slot: _Slot) -> None:
        if not self._closing and not slot.hidden and self._slots.get(slot.table_id) is slot:
            slot.wake.set()

    async def _refused(self, slot: _Slot, error: ChannelRefused) -> None:
        """Pause the table's clock (nobody sees the table now), wait the next delay of
        `RETRY_DELAYS` and try again; when they are used up, hide the table."""
        service = self.client.tables
        if service is not None:
            service.table_unseen(slot.table_id)
        if slot.refusals < len(RETRY_DELAYS):
            delay = RETRY_DELAYS[slot.refusals]
            slot.refusals += 1
            _log.info("table %s: Discord refused the channel (%s); again in %.0f s",
                      slot.table_id, error, delay)
            if service is not None:
                await service.clock.sleep_until(service.clock.now() + delay)
            else:
                await asyncio.sleep(delay)
            slot.wake.set()
            return
        slot.hidden = True
        slot.wake.clear()
        _log.warning("table %s: Discord refuses the channel (%s); the table is hidden and its"
                     " clock paused until a player uses it again", slot.table_id, error)

    def _shown(self, slot: _Slot) -> None:
        """The message is up to date: forget refusals, run the clock again if it was paused."""
        slot.refusals = 0
        service = self.client.tables
        if service is not None:
            service.table_seen(slot.table_id)

    async def publish(self, slot: _Slot) -> TableState:
        """Edit (or post) the table message with the slot's latest state; the state shown.

        An edit that will go by the bot's token waits for room in the budget before the state
        is read: when the budget is busy, the edit then shows what happened meanwhile
        (coalesced) instead of a state that went stale in the queue."""
        await self._check_format(slot)
        room = _Room(self.budget)
        if not self._token_fresh(slot):
            # members' names first: a look-up is a request of its own, not to be made while
            # the room of this edit is held
            await self.names.names(slot.guild_id, _users(slot.state, slot.lines))
            await room.take_ahead()
            slot.wake.clear()  # the changes pushed while waiting are shown by this edit
        draft = await self._draft(slot)
        message: discord.Message | None = None
        if slot.message_id is not None:
            message = await self._edit(slot, draft, room)
        if message is None:
            message = await self._post(slot, draft, room)
        slot.image_digest = draft.digest
        slot.v2 = True
        slot.edits += 1
        self._ping_later(slot, draft.state, draft.lang)
        return draft.state

    async def _draft(self, slot: _Slot) -> TableDraft:
        """The slot's latest state as the table message shows it, in the table's language."""
        state = slot.state
        client = self.client
        lang = await table_language(client, slot.guild_id, humans(state), state.languages)
        names = await self.names.names(slot.guild_id, _users(state, slot.lines))
        currency = server_currency(client, slot.guild_id)  # in memory: no store read
        lines = [text for n in last_lines(shown_lines(state, slot.lines))
                 if (text := notice_text(n, lang, names, currency))]
        return await compose(state, lang, names, lines, currency)

    async def _edit(self, slot: _Slot, draft: TableDraft, room: _Room) -> discord.Message | None:
        """Edit the table message (through a lent token, else the channel); None when it is
        gone. The image is uploaded only when it changed: the layout's gallery keeps pointing
        at the file attached before (`attachment://table.png`). A message of the embed days
        is converted by the same edit (no content, no embeds, the V2 flag)."""
        assert slot.message_id is not None
        edit = MessageEdit(view=draft.view(), allowed_mentions=NO_MENTIONS)
        if not slot.v2:
            edit = replace(edit, content=None, embed=None)
        if not slot.v2 or slot.image_digest != draft.digest:
            edit = replace(edit, attachments=[draft.file()])
        message = await self._edit_by_token(slot, edit)
        if message is not None:
            return message
        await room.take()
        channel = self.client.get_partial_messageable(slot.channel_id, guild_id=slot.guild_id)
        try:
            return await edit.edit_message(channel.get_partial_message(slot.message_id))
        except discord.HTTPException as error:
            if _refused(error):
                raise ChannelRefused(error.status) from error
            if not isinstance(error, discord.NotFound):
                raise
        _log.info("table %s: its message is gone; posting a new one", slot.table_id)
        slot.lent = None
        return None

    async def _post(self, slot: _Slot, draft: TableDraft, room: _Room) -> discord.Message:
        """Post a new table message (the first, or after the old one was deleted)."""
        await room.take()
        channel = self.client.get_partial_messageable(slot.channel_id, guild_id=slot.guild_id)
        try:
            message = await channel.send(
                view=draft.view(), file=draft.file(), allowed_mentions=NO_MENTIONS
            )
        except discord.HTTPException as error:
            if _refused(error):
                raise ChannelRefused(error.status) from error
            raise
        slot.message_id = message.id
        if draft.state.status != "closed":
            await self._record_message(slot.table_id, message.id)
        return message

    async def _check_format(self, slot: _Slot) -> None:
        """Whether a message the bot did not post in this run is one of the embed days (once
        per table, a bot-token request): its next edit converts it, and the last events say
        so."""
        if slot.v2 is not None or slot.message_id is None:
            return
        channel = self.client.get_partial_messageable(slot.channel_id, guild_id=slot.guild_id)
        await self.budget.acquire()
        try:
            old = await channel.fetch_message(slot.message_id)
        except discord.HTTPException:
            slot.v2 = False  # gone or out of reach: the edit finds out and acts
            return
        slot.v2 = old.flags.components_v2
        if not slot.v2:
            slot.lines = last_lines([*slot.lines, Notice(CONVERTED)], KEPT_LINES)

    def _token_fresh(self, slot: _Slot) -> bool:
        """Whether a lent interaction may still edit the table message (free of the budget)."""
        return slot.lent is not None and (
            asyncio.get_running_loop().time() - slot.lent_at <= TOKEN_LIFE
        )

    async def _edit_by_token(
        self, slot: _Slot, edit: MessageEdit
    ) -> discord.Message | None:
        """Edit the table message through a lent interaction while its token is fresh; None
        when there is none (or it no longer works): the caller edits through the channel."""
        lent = slot.lent
        if lent is None:
            return None
        if not self._token_fresh(slot):
            slot.lent = None
            return None
        try:
            return await edit.edit_response(lent)
        except discord.HTTPException as error:
            _log.info("table %s: the lent interaction could not edit the message (%s)",
                      slot.table_id, error.status)
            if slot.lent is lent:
                slot.lent = None
            return None

    async def _record_message(self, table_id: int, message_id: int) -> None:
        service = self.client.tables
        if service is None:
            return
        with contextlib.suppress(TableError):  # closed meanwhile: the message stays as it is
            await service.message_posted(table_id, message_id)

    def _ping_later(self, slot: _Slot, state: TableState, lang: str) -> None:
        """Plan a ping of the human to act, once `ping_share` of their turn clock has passed
        (once per turn); a change of turn cancels the plan."""
        to_act = state.to_act
        human_turn = state.status != "closed" and to_act is not None and to_act > 0
        key = (to_act or 0, state.hand_no, state.turn)
        if human_turn and slot.pinged == key:
            return
        if slot.ping_task is not None:
            slot.ping_task.cancel()
            slot.ping_task = None
        if not human_turn or to_act is None:
            slot.pinged = None
            return
        slot.pinged = key
        slot.ping_task = asyncio.get_running_loop().create_task(
            self._ping(slot, key, lang), name=f"stoppa_ping_{slot.table_id}"
        )

    async def _ping(self, slot: _Slot, key: tuple[int, int, int], lang: str) -> None:
        """Mention the human to act in a short message if they still have not acted."""
        service = self.client.tables
        deadline = slot.state.deadline
        if service is not None and deadline is not None and self.ping_share > 0:
            now = service.clock.now()
            await service.clock.sleep_until(now + self.ping_share * max(deadline - now, 0.0))
        state = slot.state
        to_act = state.to_act
        if (state.status == "closed" or to_act is None
                or (to_act, state.hand_no, state.turn) != key or slot.hidden):
            return
        if self.opted_out(slot.guild_id, to_act):
            return
        if not self.budget.try_acquire():  # the budget is full: a ping is the first to go
            _log.info("table %s: ping skipped (request budget full)", slot.table_id)
            return
        lang = member_language(self.client, to_act, lang, state.languages)  # the ping's player
        text = t("table.turn_ping.text", lang, player=mention(to_act),
                 deadline=discord_time(state.deadline))
        channel = self.client.get_partial_messageable(slot.channel_id, guild_id=slot.guild_id)
        try:
            message = await channel.send(
                text,
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(id=to_act)]
                ),
            )
        except discord.HTTPException:
            _log.warning("table %s: could not ping the player to act", slot.table_id)
            return
        slot.ping_id = message.id
