"""Server rules for everyone (`/stakes`, `/variants`) and managers' commands (`/settings ...`,
`/chips grant`).

Discord honours `default_permissions` only on top-level commands and groups, and applies it
to the whole group: so the read-only `/stakes` and `/variants` are top-level commands every
member sees (`ServerRulesCog`), while changing them is `/settings stakes` and
`/settings variants`, in the managers' `/settings` group beside `/settings language` and
`/settings timeout`. Every manager group carries `default_permissions(manage_guild=True)` and
is `guild_only`; `AdminCog.interaction_check` checks Manage Server again in code, since a
server can override the default in its integration settings.
Replies are ephemeral except `/chips grant`, which is public so that the member sees it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import StoppaBot
from bot.discord_utils import (
    NotManager,
    UserFacingError,
    choice,
    cmd_str,
    defer_if_slow,
    for_stoppa_bot,
    is_manager,
    key,
    lang_for,
    lang_in_memory,
    remember_language,
    remember_settings,
    send_ephemeral,
    send_public,
    server_currency,
)
from bot.discord_utils.installs import server_command
from bot.i18n import has, t
from bot.i18n.currency import Currency
from bot.i18n.numbers import format_number
from bot.store import STAKES_CHOICES, InvalidStakes, Stakes, StoreContract
from bot.store.errors import InvalidSetting
from bot.store.models import ServerSettings
from bot.store.stakes import INTEGER_STAKES

MANAGER = discord.Permissions(manage_guild=True)

#: The stakes of R-4, in the order the embed shows them (the store's integer stakes).
STAKE_KEYS: tuple[str, ...] = INTEGER_STAKES
#: Variants whose values are True/False in the store, offered as yes/no choices.
BOOLEAN_VARIANTS = frozenset(
    name for name, values in STAKES_CHOICES.items() if set(values) == {False, True}
)
#: Each variant and its values, in the order they are offered: the store's allowed values,
#: which are the engine's (booleans shown as yes/no).
VARIANTS: dict[str, tuple[str, ...]] = {
    name: ("yes", "no") if name in BOOLEAN_VARIANTS else tuple(str(v) for v in values)
    for name, values in STAKES_CHOICES.items()
    if name not in STAKE_KEYS
}
LANGUAGE_CHOICES: tuple[str, ...] = ("it", "en", "auto")
#: `/settings tournaments who:` (stored as `ServerSettings.tournaments_open`)
TOURNAMENT_OPENERS: tuple[str, ...] = ("managers", "everyone")

Chips = app_commands.Range[int, 1, 1_000_000]
Amount = app_commands.Range[int, -1_000_000, 1_000_000]
Seconds = app_commands.Range[int, 10, 3600]
#: `/settings pause seconds:` (the store's bound: `MAX_HAND_PAUSE`)
PauseSeconds = app_commands.Range[int, 0, 30]
Balance = app_commands.Range[int, 0, 1_000_000_000]
Limit = app_commands.Range[int, 1, 1_000_000_000]
#: a server setting's value as `/settings economy` passes it to the store (None: reset)
Setting = str | int | float | bool | None
#: economy settings `/settings economy reset:` sets back to None (the default / no limit)
RESETTABLE: tuple[str, ...] = ("currency_name", "currency_emoji", "balance_cap", "give_daily_limit")
#: a custom emoji of a server, as Discord writes it in a message (ASCII only: `\w` and `\d`
#: would take any script's letters and digits, which Discord never writes there)
CUSTOM_EMOJI = re.compile(r"<a?:[A-Za-z0-9_]{2,32}:[0-9]{15,21}>")


def is_emoji(text: str) -> bool:
    """Whether `text` can be a currency emoji: a custom emoji, or a few characters without
    letters or digits (Unicode emoji, sequences and flags)."""
    text = text.strip()
    if CUSTOM_EMOJI.fullmatch(text):
        return True
    return 0 < len(text) <= 16 and not any(c.isalnum() or c.isspace() for c in text)


def setting_refusal(error: InvalidSetting, lang: str) -> str:
    """Why the store refused an economy setting, naming the setting as `/settings show` does
    (the store's params carry the column's identifier)."""
    name = str(error.params.get("key", ""))
    label_key, hint_key = key("server_economy.label", name), key("server_economy.hint", name)
    if error.code != "setting_bad_value" or not has(label_key, lang):
        return error.message(lang)
    return t(
        "server_economy.bad_value", lang, value=error.params.get("value"),
        setting=t(label_key, lang), hint=t(hint_key, lang),
    )


def economy_fields(settings: ServerSettings, lang: str) -> list[tuple[str, str]]:
    """The economy rows of `/settings show`: the currency and the rules of /daily and /give,
    each amount written in the server's currency."""
    currency = Currency(settings.currency_name, settings.currency_emoji)
    none = t("server_economy.none", lang)

    def hours(seconds: float) -> str:
        return t("server_economy.hours", lang, hours=f"{seconds / 3600:g}")

    if not settings.give_enabled:
        give = t("server_economy.off", lang)
    elif settings.give_daily_limit is None:
        give = t("server_economy.on_no_limit", lang)
    else:
        give = t("server_economy.on_limit", lang, currency=currency,
                 limit=settings.give_daily_limit)
    cap = settings.balance_cap
    return [
        (t("server_economy.label.currency_name", lang),
         t("server_economy.example", lang, currency=currency, amount=2)),
        (t("server_economy.label.balance_cap", lang),
         none if cap is None else currency.amount(cap, lang)),
        (t("server_economy.label.daily_min_age", lang),
         hours(settings.daily_min_age) if settings.daily_min_age else none),
        (t("server_economy.label.give_enabled", lang), give),
    ]


def seconds_text(value: float | None, default: float, lang: str) -> str:
    """A time setting of `/settings show`: its seconds, or the bot's `default` when unset."""
    if value is None:
        return t("admin.settings_timeout_default", lang, seconds=f"{default:g}")
    return t("admin.settings_seconds", lang, seconds=f"{value:g}")


def _manager_group(name: str) -> app_commands.Group:
    """A `/name` command group for server managers only (Manage Server, in servers)."""
    return server_command(app_commands.Group(
        name=name,
        description=cmd_str(key("commands", name, "description")),
        default_permissions=MANAGER,
    ))


def _variant_choices(name: str) -> list[app_commands.Choice]:
    return [choice(key("commands.variants.choices", v), v) for v in VARIANTS[name]]


def variant_text(name: str, value: object, lang: str) -> str:
    """The readable value of a variant (`True` -> "Yes", "carry" -> "It carries ...")."""
    if name in BOOLEAN_VARIANTS:
        value = "yes" if value else "no"
    name_key = key("commands.variants.choices", value)
    return t(name_key, lang) if has(name_key, lang) else str(value)


def _stake_text(value: object, lang: str) -> str:
    """A stake as the embed shows it: a number written the language's way, "?" if unset."""
    if isinstance(value, int) and not isinstance(value, bool):
        return format_number(value, lang)
    return "?" if value is None else str(value)


def stakes_embed(stakes: Stakes, lang: str, *, note: str | None = None) -> discord.Embed:
    """The stakes of a server as an embed."""
    embed = discord.Embed(title=t("admin.stakes_title", lang), colour=discord.Colour.blue())
    if note:
        embed.description = note
    for stake in STAKE_KEYS:
        embed.add_field(
            name=t(key("admin.stake", stake), lang), value=_stake_text(getattr(stakes, stake), lang)
        )
    return embed


def variants_embed(stakes: Stakes, lang: str, *, note: str | None = None) -> discord.Embed:
    """The rule variants of a server as an embed."""
    embed = discord.Embed(title=t("admin.variants_title", lang), colour=discord.Colour.purple())
    if note:
        embed.description = note
    for variant in VARIANTS:
        embed.add_field(
            name=t(key("admin.variant", variant), lang),
            value=variant_text(variant, getattr(stakes, variant), lang),
            inline=False,
        )
    return embed


def setting_name(name: str, lang: str) -> str:
    """A stake's or variant's name as the embeds show it ("max_bet" -> "Maximum bet")."""
    for kind in ("stake", "variant"):
        name_key = key("admin", kind, name)
        if has(name_key, lang):
            return t(name_key, lang)
    return t("admin.unknown_setting", lang)


def stakes_refusal(error: InvalidStakes, lang: str) -> str:
    """Why the store refused some stakes, with every stake, variant and value named as the
    embeds name them (the store's params carry the identifiers)."""
    params = dict(error.params)
    name = params.get("key")
    if isinstance(name, str):
        params["key"] = setting_name(name, lang)
        if name in VARIANTS:
            if "value" in params:
                params["value"] = variant_text(name, params["value"], lang)
            if "choices" in params:
                params["choices"] = ", ".join(
                    t(key("commands.variants.choices", value), lang) for value in VARIANTS[name]
                )
    return t(f"store.{error.code}", lang, **params)


def _changed_note(lang: str, done_key: str, labels: list[str]) -> str:
    return f"{t(done_key, lang)}\n{t('admin.changed_by', lang, fields=', '.join(labels))}"



def guild_of(interaction: discord.Interaction[StoppaBot]) -> int:
    """The server of a server-only command (Discord never sends these from a DM)."""
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    return interaction.guild_id

class ServerRulesCog(commands.Cog):
    """`/stakes` and `/variants`: the server's stakes and rule variants, for every member."""

    def __init__(self, bot: StoppaBot) -> None:
        self.bot = bot

    @property
    def store(self) -> StoreContract:
        """The bot's store (open from `setup_hook` to `close`)."""
        return self.bot.open_store

    @server_command
    @app_commands.command(name="stakes", description=cmd_str("commands.stakes.show"))
    async def stakes_show(self, interaction: discord.Interaction[StoppaBot]) -> None:
        """Show the server's stakes."""
        async with defer_if_slow(interaction):
            lang = await lang_for(interaction, self.store)
            stakes = await self.store.get_stakes(guild_of(interaction))
        await send_ephemeral(interaction, embed=stakes_embed(stakes, lang))

    @server_command
    @app_commands.command(name="variants", description=cmd_str("commands.variants.show"))
    async def variants_show(self, interaction: discord.Interaction[StoppaBot]) -> None:
        """Show the server's rule variants."""
        async with defer_if_slow(interaction):
            lang = await lang_for(interaction, self.store)
            stakes = await self.store.get_stakes(guild_of(interaction))
        await send_ephemeral(interaction, embed=variants_embed(stakes, lang))


class AdminCog(commands.Cog):
    """Changing stakes and variants, chip grants and settings, for server managers."""

    chips = _manager_group("chips")
    settings = _manager_group("settings")

    def __init__(self, bot: StoppaBot) -> None:
        self.bot = bot

    @property
    def store(self) -> StoreContract:
        """The bot's store (open from `setup_hook` to `close`)."""
        return self.bot.open_store

    @for_stoppa_bot
    async def interaction_check(self, interaction: discord.Interaction[StoppaBot], /) -> bool:
        """Every command of this cog needs Manage Server, checked here in code as well."""
        if not is_manager(interaction):
            raise NotManager("Manage Server permission required")
        return True

    async def _private(
        self, interaction: discord.Interaction[StoppaBot], embed: discord.Embed | None = None,
        content: str | None = None,
    ) -> None:
        await send_ephemeral(interaction, content, embed=embed)

    async def _apply(
        self,
        interaction: discord.Interaction[StoppaBot],
        lang: str,
        changes: Mapping[str, int | str | bool],
        kind: str,
        embed: Callable[..., discord.Embed],
    ) -> None:
        """Save `changes` to the server's stakes (the store validates them) and answer with
        `embed` of the result, naming what changed ("stake" or "variant" labels)."""
        async with defer_if_slow(interaction):
            if changes:
                try:
                    stakes = await self.store.set_stakes(
                        guild_of(interaction), changes, by=interaction.user.id
                    )
                except InvalidStakes as error:
                    raise UserFacingError(
                        "errors.invalid_stakes", reason=stakes_refusal(error, lang)
                    ) from error
            else:
                stakes = await self.store.get_stakes(guild_of(interaction))
        if changes:
            labels = [t(key("admin", kind, k), lang) for k in changes]
            note = _changed_note(lang, f"admin.{kind}s_updated", labels)
        else:
            note = t("admin.nothing_given", lang)
        await self._private(interaction, embed(stakes, lang, note=note))

    # /settings stakes ------------------------------------------------------------------
    @settings.command(name="stakes", description=cmd_str("commands.stakes.set"))
    @app_commands.describe(**{k: cmd_str(key("commands.stakes", k)) for k in STAKE_KEYS})
    async def stakes_set(
        self,
        interaction: discord.Interaction[StoppaBot],
        ante: Chips | None = None,
        small_point: Chips | None = None,
        cip: Chips | None = None,
        max_bet: Chips | None = None,
        card_rate: Chips | None = None,
        cards_per_payment: app_commands.Range[int, 1, 3] | None = None,
    ) -> None:
        """Change some stakes; the store validates the whole set (R-4) or refuses with why."""
        async with defer_if_slow(interaction):
            lang = await lang_for(interaction, self.store)
        given = {
            "ante": ante,
            "small_point": small_point,
            "cip": cip,
            "max_bet": max_bet,
            "card_rate": card_rate,
            "cards_per_payment": cards_per_payment,
        }
        changes = {k: v for k, v in given.items() if v is not None}
        await self._apply(interaction, lang, changes, "stake", stakes_embed)

    # /settings variants ----------------------------------------------------------------
    @settings.command(name="variants", description=cmd_str("commands.variants.set"))
    @app_commands.describe(**{k: cmd_str(key("commands.variants", k)) for k in VARIANTS})
    @app_commands.choices(**{k: _variant_choices(k) for k in VARIANTS})
    async def variants_set(
        self,
        interaction: discord.Interaction[StoppaBot],
        three_players: str | None = None,
        ranking: str | None = None,
        unclaimed_big_pot: str | None = None,
        blocked_stoppa: str | None = None,
        special_payout: str | None = None,
        three_aces_jump: str | None = None,
        removed_suit: str | None = None,
        show_first: str | None = None,
        six_players: str | None = None,
        stoppa_povera: str | None = None,
    ) -> None:
        """Change some variants; the store validates them."""
        async with defer_if_slow(interaction):
            lang = await lang_for(interaction, self.store)
        given = {
            "three_players": three_players,
            "ranking": ranking,
            "unclaimed_big_pot": unclaimed_big_pot,
            "blocked_stoppa": blocked_stoppa,
            "special_payout": special_payout,
            "three_aces_jump": three_aces_jump,
            "removed_suit": removed_suit,
            "show_first": show_first,
            "six_players": six_players,
            "stoppa_povera": stoppa_povera,
        }
        changes: dict[str, str | bool] = {k: v for k, v in given.items() if v is not None}
        for flag in BOOLEAN_VARIANTS & changes.keys():
            changes[flag] = changes[flag] == "yes"
        await self._apply(interaction, lang, changes, "variant", variants_embed)

    # /chips ------------------------------------------------------------------------------
    @chips.command(name="grant", description=cmd_str("commands.chips.grant"))
    @app_commands.describe(
        member=cmd_str("commands.chips.member"),
        amount=cmd_str("commands.chips.amount"),
        reason=cmd_str("commands.chips.reason"),
    )
    async def chips_grant(
        self,
        interaction: discord.Interaction[StoppaBot],
        member: discord.Member,
        amount: Amount,
        reason: app_commands.Range[str, 1, 200],
    ) -> None:
        """Give chips to a member (or remove them with a negative amount), with a reason."""
        from bot.store import InsufficientFunds

        if amount == 0:
            raise UserFacingError("admin.chips_zero")
        if member.bot:
            raise UserFacingError("admin.chips_no_bots")
        # a public answer, but nothing public before the checks: a slow store defers
        # privately (a refusal stays private) and `send_public` then posts the answer
        async with defer_if_slow(interaction):
            lang = await lang_for(interaction, self.store)
            try:
                balance = await self.store.grant(
                    guild_of(interaction), member.id, amount, reason=reason,
                    by=interaction.user.id,
                )
            except InsufficientFunds as exc:
                raise UserFacingError(
                    "admin.chips_too_few", member=member.display_name, balance=exc.balance,
                    amount=-amount,
                ) from exc
        key = "admin.chips_granted" if amount > 0 else "admin.chips_removed"
        text = t(key, lang, amount=abs(amount), member=member.mention, balance=balance,
                 currency=server_currency(interaction.client, interaction.guild_id))
        await send_public(
            interaction,
            f"{text}\n-# {reason}",
            allowed_mentions=discord.AllowedMentions(users=[member], roles=False, everyone=False),
        )

    # /settings ---------------------------------------------------------------------------
    async def _settings_embed(
        self, interaction: discord.Interaction[StoppaBot], lang: str, note: str | None = None
    ) -> discord.Embed:
        settings = await self.store.server_settings(guild_of(interaction))
        embed = discord.Embed(title=t("admin.settings_title", lang), colour=discord.Colour.teal())
        if note:
            embed.description = note
        language = (
            t(key("commands.settings.choices", settings.language), lang)
            if settings.language
            else t("admin.settings_language_auto", lang)
        )
        embed.add_field(name=t("admin.settings_language", lang), value=language, inline=False)
        embed.add_field(name=t("admin.settings_timeout", lang), value=seconds_text(
            settings.turn_timeout or None, self.bot.turn_timeout, lang))
        embed.add_field(name=t("admin.settings_pause", lang), value=seconds_text(
            settings.hand_pause, self.bot.table_options.hand_pause, lang))
        currency = Currency(settings.currency_name, settings.currency_emoji)
        embed.add_field(
            name=t("admin.settings_starting_balance", lang),
            value=currency.amount(settings.starting_balance, lang),
        )
        embed.add_field(
            name=t("admin.settings_daily", lang),
            value=t(
                "admin.settings_daily_value",
                lang,
                amount=currency.amount(settings.daily_amount, lang),
                hours=f"{settings.daily_cooldown / 3600:g}",
            ),
        )
        for name, value in economy_fields(settings, lang):
            embed.add_field(name=name, value=value)
        opener = TOURNAMENT_OPENERS[1] if settings.tournaments_open else TOURNAMENT_OPENERS[0]
        embed.add_field(name=t("tournaments.settings_label", lang),
                        value=t(key("tournaments.who", opener), lang))
        return embed

    @settings.command(name="show", description=cmd_str("commands.settings.show"))
    async def settings_show(self, interaction: discord.Interaction[StoppaBot]) -> None:
        """Show the server's settings."""
        async with defer_if_slow(interaction):
            lang = await lang_for(interaction, self.store)
            embed = await self._settings_embed(interaction, lang)
        await self._private(interaction, embed)

    @settings.command(name="language", description=cmd_str("commands.settings.language"))
    @app_commands.describe(value=cmd_str("commands.settings.language_value"))
    @app_commands.choices(
        value=[choice(key("commands.settings.choices", v), v) for v in LANGUAGE_CHOICES]
    )
    async def settings_language(
        self, interaction: discord.Interaction[StoppaBot], value: str
    ) -> None:
        """Pin the server's language (it / en), or go back to automatic."""
        language = None if value == "auto" else value
        async with defer_if_slow(interaction):
            saved = await self.store.update_server_settings(
                guild_of(interaction), by=interaction.user.id, language=language
            )
            remember_language(interaction.client, interaction.guild_id, language)
            remember_settings(interaction.client, interaction.guild_id, saved)
            lang = await lang_for(interaction, self.store)
            note = t("admin.settings_updated", lang)
            embed = await self._settings_embed(interaction, lang, note)
        await self._private(interaction, embed)

    @settings.command(name="timeout", description=cmd_str("commands.settings.timeout"))
    @app_commands.describe(seconds=cmd_str("commands.settings.seconds"))
    async def settings_timeout(
        self, interaction: discord.Interaction[StoppaBot], seconds: Seconds
    ) -> None:
        """Set the seconds each player has for a turn on this server."""
        await self._save_time(interaction, turn_timeout=float(seconds))

    @settings.command(name="pause", description=cmd_str("commands.settings.pause"))
    @app_commands.describe(seconds=cmd_str("commands.settings.pause_seconds"))
    async def settings_pause(
        self, interaction: discord.Interaction[StoppaBot], seconds: PauseSeconds
    ) -> None:
        """Set the pause between the end of a hand and the next deal on this server (from
        the next hand that ends; practice tables deal when their member asks)."""
        await self._save_time(interaction, hand_pause=float(seconds))

    async def _save_time(self, interaction: discord.Interaction[StoppaBot],
                         **change: float) -> None:
        """Save a time setting (validated by the store, Discord bounds the option first) and
        answer with the settings."""
        async with defer_if_slow(interaction):
            saved = await self.store.update_server_settings(
                guild_of(interaction), by=interaction.user.id, **change
            )
            remember_settings(interaction.client, interaction.guild_id, saved)
            lang = await lang_for(interaction, self.store)
            note = t("admin.settings_updated", lang)
            embed = await self._settings_embed(interaction, lang, note)
        await self._private(interaction, embed)

    @settings.command(name="tournaments", description=cmd_str("tournaments.cmd.settings"))
    @app_commands.describe(who=cmd_str("tournaments.cmd.settings_who"))
    @app_commands.choices(
        who=[choice(key("tournaments.who", v), v) for v in TOURNAMENT_OPENERS]
    )
    async def settings_tournaments(
        self, interaction: discord.Interaction[StoppaBot], who: str
    ) -> None:
        """Who may open a tournament (`/tournament new`): managers only, or every member."""
        async with defer_if_slow(interaction):
            saved = await self.store.update_server_settings(
                guild_of(interaction), by=interaction.user.id,
                tournaments_open=who == "everyone",
            )
            remember_settings(interaction.client, interaction.guild_id, saved)
            lang = await lang_for(interaction, self.store)
            note = t("tournaments.reply.settings", lang, who=t(key("tournaments.who", who), lang))
            embed = await self._settings_embed(interaction, lang, note)
        await self._private(interaction, embed)

    @settings.command(name="economy", description=cmd_str("server_economy.cmd.economy"))
    @app_commands.describe(
        currency_name=cmd_str("server_economy.cmd.currency_name"),
        currency_emoji=cmd_str("server_economy.cmd.currency_emoji"),
        starting_balance=cmd_str("server_economy.cmd.starting_balance"),
        daily_amount=cmd_str("server_economy.cmd.daily_amount"),
        daily_hours=cmd_str("server_economy.cmd.daily_hours"),
        balance_cap=cmd_str("server_economy.cmd.balance_cap"),
        min_age_hours=cmd_str("server_economy.cmd.min_age_hours"),
        give=cmd_str("server_economy.cmd.give"),
        give_limit=cmd_str("server_economy.cmd.give_limit"),
        reset=cmd_str("server_economy.cmd.reset"),
    )
    @app_commands.choices(
        reset=[choice(key("server_economy.reset", name), name) for name in RESETTABLE]
    )
    async def settings_economy(
        self,
        interaction: discord.Interaction[StoppaBot],
        currency_name: app_commands.Range[str, 1, 32] | None = None,
        currency_emoji: app_commands.Range[str, 1, 64] | None = None,
        starting_balance: Balance | None = None,
        daily_amount: Balance | None = None,
        daily_hours: app_commands.Range[float, 0.01, 720.0] | None = None,
        balance_cap: Limit | None = None,
        min_age_hours: app_commands.Range[float, 0.0, 8760.0] | None = None,
        give: bool | None = None,
        give_limit: Limit | None = None,
        reset: str | None = None,
    ) -> None:
        """Change the server's economy; the store validates each value (and refuses with why),
        the new settings are kept in memory for every later answer."""
        given: dict[str, Setting] = {
            "currency_name": currency_name,
            "currency_emoji": currency_emoji,
            "starting_balance": starting_balance,
            "daily_amount": daily_amount,
            "daily_cooldown": None if daily_hours is None else daily_hours * 3600,
            "balance_cap": balance_cap,
            "daily_min_age": None if min_age_hours is None else min_age_hours * 3600,
            "give_enabled": give,
            "give_daily_limit": give_limit,
        }
        changes: dict[str, Setting] = {
            name: value for name, value in given.items() if value is not None
        }
        if reset is not None and reset in RESETTABLE:
            if reset in changes:
                label = t(key("server_economy.label", reset), lang_in_memory(interaction))
                raise UserFacingError("server_economy.reset_conflict", setting=label)
            changes[reset] = None
        if currency_emoji is not None and not is_emoji(currency_emoji):
            raise UserFacingError("server_economy.bad_emoji", value=currency_emoji.strip())
        guild = guild_of(interaction)
        async with defer_if_slow(interaction):
            lang = await lang_for(interaction, self.store)
            if changes:
                try:
                    saved = await self.store.update_server_settings(
                        guild, by=interaction.user.id, **changes
                    )
                except InvalidSetting as error:
                    raise UserFacingError(
                        "server_economy.invalid", reason=setting_refusal(error, lang)
                    ) from error
                remember_settings(interaction.client, guild, saved)
                labels = [t(key("server_economy.label", name), lang) for name in changes]
                note = t("server_economy.updated", lang, fields=", ".join(labels))
            else:
                note = t("admin.nothing_given", lang)
            embed = await self._settings_embed(interaction, lang, note)
        await self._private(interaction, embed)


async def setup(bot: StoppaBot) -> None:
    """Extension entry point."""
    await bot.add_cog(ServerRulesCog(bot))
    await bot.add_cog(AdminCog(bot))
