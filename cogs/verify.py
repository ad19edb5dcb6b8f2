"""`/verify`: the check of a closed table's fair deal, from anywhere (docs/fairness.md).

Two ways, chosen by what the member gives:

- **the values pasted** (the secret, and the hand, commitment and words as shown): the
  offline `python -m bot verify` on Discord (`bot.fairness.pasted`). It reads no row of any
  server, so it works where the bot is not (a member's own install: DMs, group DMs, other
  servers) and tells nobody more than they pasted.
- **only a table number**, in a server that installed the bot: that server's closed table
  from the store (its revealed secret, commitment and every hand) checked whole with
  `bot.fairness.verify_table`; an open table is refused, its secret still hidden. Anywhere
  else a bare number is refused without any look-up: table numbers are sequential, and a
  look-up by number from anywhere would let anyone read every closed table's hands.

A command of its own (not `/verify`) because install types belong to a top-level
command: `/fair word` keeps a word per server and stays a server command (issue 38).
"""

from __future__ import annotations

import io

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import StoppaBot
from bot.discord_utils import UserFacingError, cmd_str, key, lang_in_memory, send_ephemeral
from bot.discord_utils.installs import bot_is_here, member_command
from bot.engine.rules import MAX_PLAYERS, MIN_PLAYERS
from bot.fairness import (
    Commitment,
    TableSecret,
    WordError,
    normalise_word,
    verify_table,
)
from bot.fairness.pasted import PastedValues, check_pasted
from bot.i18n import t
from bot.store import StoreContract, TableNotFound, TableRow
from bot.tables.fair import hands_of
from cogs.fair_text import file_line, hand_report

#: the longest embed description Discord takes
DESCRIPTION_LIMIT = 4096
#: The largest value of a Discord INTEGER option (and of its `max_value`): 2**53 - 1. One
#: more and Discord refuses the whole command registration.
INTEGER_OPTION_MAX = 2**53 - 1
#: table and hand numbers as typed
Number = app_commands.Range[int, 1, INTEGER_OPTION_MAX]
#: 64 hex digits, a secret or a commitment as shown (spaces around it are forgiven)
Hex = app_commands.Range[str, 1, 100]
#: a player's word as shown (40 characters at most, a little more for quotes pasted with it)
Word = app_commands.Range[str, 1, 50]
Players = app_commands.Range[int, MIN_PLAYERS, MAX_PLAYERS]


class VerifyCog(commands.Cog):
    """The /verify command."""

    def __init__(self, bot: StoppaBot) -> None:
        self.bot = bot

    @property
    def store(self) -> StoreContract:
        """The bot's open store."""
        return self.bot.open_store

    @member_command
    @app_commands.command(name="verify", description=cmd_str("fairness.cmd.verify"))
    @app_commands.describe(
        table=cmd_str("fairness.cmd.verify_table"),
        secret=cmd_str("fairness.cmd.verify_secret"),
        hand=cmd_str("fairness.cmd.verify_hand"),
        commitment=cmd_str("fairness.cmd.verify_commitment"),
        players=cmd_str("fairness.cmd.verify_players"),
        word1=cmd_str("fairness.cmd.verify_word"), word2=cmd_str("fairness.cmd.verify_word"),
        word3=cmd_str("fairness.cmd.verify_word"), word4=cmd_str("fairness.cmd.verify_word"),
        word5=cmd_str("fairness.cmd.verify_word"), word6=cmd_str("fairness.cmd.verify_word"),
    )
    async def verify(
        self, interaction: discord.Interaction[StoppaBot], table: Number,
        secret: Hex | None = None, hand: Number = 1, commitment: Hex | None = None,
        players: Players | None = None,
        word1: Word | None = None, word2: Word | None = None, word3: Word | None = None,
        word4: Word | None = None, word5: Word | None = None, word6: Word | None = None,
    ) -> None:
        """Check pasted values (anywhere), or this server's closed table by its number."""
        lang = lang_in_memory(interaction)
        if secret is not None:
            words = (word1, word2, word3, word4, word5, word6)
            values = pasted(table, hand, secret, commitment, players, words)
            await send_ephemeral(interaction, embed=pasted_embed(values, lang))
            return
        guild = interaction.guild_id
        if guild is None or not bot_is_here(interaction):
            raise UserFacingError("fairness.answer.paste_values", table=table)
        await interaction.response.defer(ephemeral=True, thinking=True)
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
        """The embed of a stored table's check and the text file of every hand's deck."""
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
                              description=_clip(lines), colour=_colour(checked.ok))
        report = [t("fairness.table.commitment", lang, table=row.id,
                    commitment=commitment.hex()),
                  t("fairness.table.revealed", lang, table=row.id, secret=secret.hex())]
        report += [file_line(h.check.hand_no, h.words, h.players, c, lang)
                   for h, c in zip(hands, checked.hands, strict=True)]
        return embed, "\n".join(report) + "\n"


def pasted(
    table: int, hand: int, secret: str, commitment: str | None, players: int | None,
    words: tuple[str | None, ...],
) -> PastedValues:
    """The values as typed, each checked (a polite refusal names the one that is wrong)."""
    try:
        the_secret = TableSecret.from_hex(secret.strip())
    except ValueError:
        raise UserFacingError("fairness.answer.bad_secret") from None
    the_commitment = None
    if commitment is not None:
        try:
            the_commitment = Commitment.from_hex(commitment.strip())
        except ValueError:
            raise UserFacingError("fairness.answer.bad_commitment") from None
    kept: list[str] = []
    for word in words:
        if word is None:
            continue
        try:
            kept.append(normalise_word(_unquoted(word)))
        except WordError as exc:
            raise UserFacingError(f"fairness.word.{exc.reason}", limit=exc.limit) from None
    return PastedValues(the_secret, table, hand, the_commitment, tuple(w for w in kept if w),
                        players)


def _unquoted(word: str) -> str:
    """A word as pasted from the history (`"ciao"`): the quotes around it dropped."""
    word = word.strip()
    if len(word) >= 2 and word[0] == word[-1] == '"':
        return word[1:-1]
    return word


def pasted_embed(values: PastedValues, lang: str) -> discord.Embed:
    """The lines of `python -m bot verify` for `values`, as a private embed."""
    lines: list[str] = []
    ok = check_pasted(values, lang, lines.append)
    lines.append(t("fairness.answer.pasted_only", lang))
    return discord.Embed(title=t("fairness.answer.title", lang, table=values.table),
                         description=_clip(lines), colour=_colour(ok))


def _colour(ok: bool) -> discord.Colour:
    return discord.Colour.dark_green() if ok else discord.Colour.red()


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
    await bot.add_cog(VerifyCog(bot))
