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
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable
from typing import TYPE_CHECKING, Any, TypeVar

import discord

if TYPE_CHECKING:  # the client imports this package: the bot's type is for mypy only
    from bot.client import StoppaBot

_log = logging.getLogger("stoppa.discord")

#: Seconds of work after which an interaction is deferred: Discord allows 3, and the answer
#: must leave in under 1 s whatever the store is doing (a quick store still answers at once).
DEFER_AFTER = 0.5

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
    interaction: discord.Interaction,
    content: str | None = None,
    *,
    embed: discord.Embed | None = None,
    allowed_mentions: discord.AllowedMentions | None = None,
) -> None:
    """Answer `interaction` publicly, whether or not it was deferred (then the "thinking"
    message becomes the answer)."""
    extra: dict[str, Any] = {}
    if allowed_mentions is not None:
        extra["allowed_mentions"] = allowed_mentions
    embeds = [embed] if embed is not None else []
    if not interaction.response.is_done():
        await interaction.response.send_message(content, embeds=embeds, **extra)
    else:
        await interaction.edit_original_response(content=content, embeds=embeds, **extra)


async def within_autocomplete(read: Awaitable[T], fallback: T) -> T:
    """`await read`, or `fallback` if it takes longer than `AUTOCOMPLETE_WAIT` (the store being
    slow must not make a suggestion list arrive after Discord gave up on it)."""
    try:
        return await asyncio.wait_for(read, AUTOCOMPLETE_WAIT)
    except TimeoutError:
        _log.info("autocomplete: the store took over %.1f s; no suggestions", AUTOCOMPLETE_WAIT)
        return fallback
