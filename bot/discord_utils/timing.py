"""Discord's 3 seconds: answer quickly, and defer when the work turns out to be slow.

Most commands answer at once after one short store query, and a defer would cost an extra REST
call and a "thinking..." flicker. But a store query waits for the store's lock, which a table's
transaction may hold; so such work runs inside `defer_if_slow`: if it has not finished after
`after` seconds (the bot's `defer_after`, 0.5 s by default), the interaction is deferred
("thinking"), and the reply then goes out by `send_ephemeral` / `send_public`, which work in
both cases.

    async with defer_if_slow(interaction):
        stakes = await store.get_stakes(guild)
    await send_ephemeral(interaction, embed=stakes_embed(stakes, lang))

Never two answers: the watchdog task defers only while nothing answered yet, and leaving the
block either cancels it while it still sleeps or waits for its defer to finish.

A refusal is always private, so work whose answer is public still defers privately: nothing
public is said before the checks pass. `send_public` then answers in the channel either way
(after a private "thinking", that message says "posted" and the answer is a new message).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable
from typing import TYPE_CHECKING, TypeVar

import discord

from bot.discord_utils.language import lang_in_memory
from bot.i18n import t

if TYPE_CHECKING:  # the client imports this package: the bot's type is for mypy only
    from bot.client import StoppaBot

_log = logging.getLogger("stoppa.discord")

#: Seconds of work after which an interaction is deferred: Discord allows 3, and the answer
#: must leave in under 1 s whatever the store is doing (a quick store still answers at once).
DEFER_AFTER = 0.5

#: Key of `Interaction.extras`: True once `defer_if_slow` deferred it privately.
DEFERRED_PRIVATELY = "stoppa.deferred_privately"

#: Seconds an autocomplete may wait for the store: it cannot be deferred, and Discord drops an
#: answer that comes after 3 s, so a slow store gives no suggestions rather than an error.
AUTOCOMPLETE_WAIT = 1.5

T = TypeVar("T")


def _task_name(interaction: discord.Interaction) -> str:
    return "_".join(("defer_if_slow", str(interaction.id)))


@contextlib.asynccontextmanager
async def defer_if_slow(
    interaction: discord.Interaction[StoppaBot],
    *,
    ephemeral: bool = True,
    after: float | None = None,
) -> AsyncIterator[None]:
    """Defer `interaction` ("thinking", private unless `ephemeral=False`) if the block takes
    longer than `after` seconds (default: the client's `defer_after`)."""
    delay = after if after is not None else interaction.client.defer_after
    deferring = False

    async def later() -> None:
        nonlocal deferring
        await asyncio.sleep(delay)
        if interaction.response.is_done():
            return
        deferring = True
        interaction.extras[DEFERRED_PRIVATELY] = ephemeral
        try:
            await interaction.response.defer(ephemeral=ephemeral, thinking=True)
        except discord.HTTPException:
            _log.warning("could not defer interaction %s", interaction.id, exc_info=True)

    task = asyncio.get_running_loop().create_task(later(), name=_task_name(interaction))
    try:
        yield
    finally:
        if deferring:
            with contextlib.suppress(Exception):
                await task  # the defer is on its way: let it land before answering
        else:
            task.cancel()  # still asleep: it will never answer


async def send_public(
    interaction: discord.Interaction[StoppaBot],
    content: str | None = None,
    *,
    embed: discord.Embed | None = None,
    allowed_mentions: discord.AllowedMentions | None = None,
    file: discord.File | None = None,
    view: discord.ui.View | None = None,
) -> discord.Message | None:
    """Answer `interaction` publicly, whether or not it was deferred: deferred publicly, the
    "thinking" message becomes the answer; deferred privately (its checks were slow), that
    message says the answer was posted and the answer is a new public message. Returns the
    public message when Discord says which it is."""
    mentions = allowed_mentions if allowed_mentions is not None else discord.utils.MISSING
    shown = view if view is not None else discord.utils.MISSING
    embeds = [embed] if embed is not None else []
    if not interaction.response.is_done():
        sent = await interaction.response.send_message(
            content, embeds=embeds, file=file or discord.utils.MISSING,
            allowed_mentions=mentions, view=shown,
        )
        resource = sent.resource if sent is not None else None
        return resource if isinstance(resource, discord.Message) else None
    if interaction.extras.get(DEFERRED_PRIVATELY):
        note = t("input_context.posted", lang_in_memory(interaction))
        await interaction.edit_original_response(content=note, embeds=[], attachments=[])
        return await interaction.followup.send(
            content or "", embeds=embeds, file=file or discord.utils.MISSING,
            allowed_mentions=mentions, view=shown, wait=True,
        )
    return await interaction.edit_original_response(
        content=content, embeds=embeds,
        attachments=[file] if file is not None else discord.utils.MISSING,
        allowed_mentions=mentions, view=shown,
    )


async def within_autocomplete(read: Awaitable[T], fallback: T) -> T:
    """`await read`, or `fallback` if it takes longer than `AUTOCOMPLETE_WAIT` (the store being
    slow must not make a suggestion list arrive after Discord gave up on it)."""
    try:
        return await asyncio.wait_for(read, AUTOCOMPLETE_WAIT)
    except TimeoutError:
        _log.info("autocomplete: the store took over %.1f s; no suggestions", AUTOCOMPLETE_WAIT)
        return fallback
