"""`/fair word` and `/fair verify`: a member's word for the fair deal, and the check of a
closed table (docs/fairness.md).

`/fair word` is validated before anything else (`normalise_word`: a refusal in the member's
language changes nothing) and answered privately. `/fair verify` reads only what the store
shows of a table once it closed (its revealed secret, its commitment, its hands with their
words) and recomputes every deck with `bot.fairness.verify_table`; an open table is refused,
its secret still hidden. Both answers are ephemeral.
"""

from __future__ import annotations

import io

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import StoppaBot
from bot.discord_utils import (
    UserFacingError,
    cmd_str,
    defer_if_slow,
    key,
    lang_for,
    send_ephemeral,
)
from bot.fairness import WordError, normalise_word, public_word, verify_table
from bot.i18n import t
from bot.store import StoreContract, TableNotFound, TableRow
from bot.tables.fair import hands_of
from cogs.fair_text import file_line, hand_report

#: the longest embed description Discord takes
DESCRIPTION_LIMIT = 4096
#: The largest value of a Discord INTEGER option (and of its `max_value`): 2**53 - 1. One
#: more and Discord refuses the whole command registration.
INTEGER_OPTION_MAX = 2**53 - 1
#: table numbers as typed
TableNumber = app_commands.Range[int, 1, INTEGER_OPTION_MAX]


@app_commands.guild_only()
class FairCog(
    commands.GroupCog, group_name="fair", group_description=cmd_str("fairness.cmd.group")
):
    """The /fair group: word, verify."""

    def __init__(self, bot: StoppaBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def store(self) -> StoreContract:
        """The bot's open store."""
        return self.bot.open_store

    @app_commands.command(name="word", description=cmd_str("fairness.cmd.word"))
    @app_commands.describe(text=cmd_str("fairness.cmd.word_text"))
    async def word(
        self, interaction: discord.Interaction[StoppaBot], text: str | None = None
    ) -> None:
        """Set (or, empty, clear) the member's word on this server."""
        guild = interaction.guild_id
        if guild is None:
            raise UserFacingError("errors.guild_only")
        try:
            word = normalise_word(text or "")
        except WordError as exc:
            raise UserFacingError(f"fairness.word.{exc.reason}", limit=exc.limit) from None
        async with defer_if_slow(interaction):
            lang = await lang_for(interaction, self.store)
            await self.store.set_word(guild, interaction.user.id, word)
        if word:
            answer = t("fairness.answer.word_set", lang, word=public_word(word))
        else:
            answer = t("fairness.answer.word_cleared", lang)
        await send_ephemeral(interaction, answer)

    @app_commands.command(name="verify", description=cmd_str("fairness.cmd.verify"))
    @app_commands.describe(table=cmd_str("fairness.cmd.verify_table"))
    async def verify(self, interaction: discord.Interaction[StoppaBot], table: TableNumber) -> None:
        """Check a closed table of this server: commitment, secret, words, every deck."""
        guild = interaction.guild_id
        if guild is None:
            raise UserFacingError("errors.guild_only")
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = await lang_for(interaction, self.store)
        try:
            row = await self.store.get_table(table)
        except TableNotFound:
            row = None
        if row is None or row.guild_id != guild:
            raise UserFacingError("fairness.answer.no_table", table=table)
        if row.status != "closed" or not row.revealed:
            raise UserFacingError("fairness.answer.still_open", table=table,
                                  commitment=row.commitment.hex() if row.commitment else "-")
        embed, report = await self.report(row, lang)
        name = t("fairness.answer.filename", lang, table=row.id)
        file = discord.File(io.BytesIO(report.encode("utf-8")), name)
        await interaction.edit_original_response(embed=embed, attachments=[file])

    async def report(self, row: TableRow, lang: str) -> tuple[discord.Embed, str]:
        """The embed of `/fair verify` and the text file of every hand's deck."""
        secret, commitment = row.secret, row.commitment
        if secret is None or commitment is None:
            raise UserFacingError("fairness.answer.no_secret", table=row.id)
        hands = await hands_of(self.store, row)
        checked = verify_table(commitment, secret, row.id, [h.check for h in hands])
        matched = "commitment_ok" if checked.commitment_ok else "commitment_bad"
        lines = [t(key("fairness.answer", matched), lang, commitment=commitment.hex(),
                   secret=secret.hex())]
        body = [hand_report(h.check.hand_no, h.words, c, lang, aborted=h.aborted)
                for h, c in zip(hands, checked.hands, strict=True)]
        lines += body or [t("fairness.answer.no_hands", lang)]
        lines.append(t("fairness.answer.all_ok" if checked.ok else "fairness.answer.some_bad",
                       lang))
        lines.append(t("fairness.answer.file", lang))
        embed = discord.Embed(title=t("fairness.answer.title", lang, table=row.id),
                              description=_clip(lines),
                              colour=discord.Colour.dark_green() if checked.ok
                              else discord.Colour.red())
        report = [t("fairness.table.commitment", lang, table=row.id,
                    commitment=commitment.hex()),
                  t("fairness.table.revealed", lang, table=row.id, secret=secret.hex())]
        report += [file_line(h.check.hand_no, h.words, h.players, c, lang)
                   for h, c in zip(hands, checked.hands, strict=True)]
        return embed, "\n".join(report) + "\n"


def _clip(lines: list[str]) -> str:
    """The lines joined, the middle ones left out (to the file) past Discord's limit."""
    text = "\n".join(lines)
    if len(text) <= DESCRIPTION_LIMIT:
        return text
    head, tail = lines[:1], lines[-2:]
    middle: list[str] = []
    room = DESCRIPTION_LIMIT - len("\n".join([*head, *tail])) - 8
    for line in lines[1:-2]:
        if len(line) + 1 > room:
            break
        middle.append(line)
        room -= len(line) + 1
    return "\n".join([*head, *middle, "…", *tail])


async def setup(bot: StoppaBot) -> None:
    """Load the cog."""
    await bot.add_cog(FairCog(bot))
