"""/stakes, /variants, /chips, /settings: managers only, validated, readable (issue 7; R-4)."""

from __future__ import annotations

import pytest

from bot.discord_utils import lang_for
from bot.i18n import t
from bot.store import DEFAULT_STAKES, InvalidStakes
from tests.harness import FakeMember, Harness


async def test_R4_stakes_set_refused_to_an_ordinary_member(
    h: Harness, anna: FakeMember, bob: FakeMember
) -> None:
    for user, lang in ((bob, "en"), (anna, "it")):
        reply = await h.slash(user, "settings stakes", ante=80)
        assert reply.ephemeral
        assert reply.text == t("errors.need_manage_guild", lang)
    assert (await h.store.get_stakes(h.guild_id)).ante == DEFAULT_STAKES.ante


async def test_every_admin_command_is_refused_in_code(h: Harness, bob: FakeMember) -> None:
    """Even if a server lifts default_permissions, the code refuses non-managers."""
    for command, options in (
        ("settings stakes", {"ante": 80}),
        ("settings variants", {"ranking": "total"}),
        ("chips grant", {"member": bob, "amount": 100, "reason": "x"}),
        ("settings language", {"value": "it"}),
        ("settings timeout", {"seconds": 30}),
        ("settings pause", {"seconds": 10}),
    ):
        reply = await h.slash(bob, command, **options)
        assert reply.ephemeral and reply.text == t("errors.need_manage_guild", "en"), command
    assert await h.store.balance(h.guild_id, bob.id) == 1000
    assert (await h.store.server_settings(h.guild_id)).language is None
    assert (await h.store.server_settings(h.guild_id)).hand_pause is None


async def test_R4_stakes_set_accepted_for_a_manager(h: Harness, boss: FakeMember) -> None:
    reply = await h.slash(boss, "settings stakes", ante=80, cip=20)
    assert reply.ephemeral
    (embed,) = reply.embeds
    assert t("admin.stakes_updated", "en") in embed["description"]
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields[t("admin.stake.ante", "en")] == "80"
    assert fields[t("admin.stake.cip", "en")] == "20"
    stakes = await h.store.get_stakes(h.guild_id)
    assert (stakes.ante, stakes.cip) == (80, 20)


async def test_owner_and_admin_are_managers(h: Harness) -> None:
    admin = h.member("Admin", admin=True)
    for user in (h.owner, admin):
        reply = await h.slash(user, "settings stakes")
        assert reply.embeds and reply.embeds[0]["title"] == t("admin.stakes_title", "en")


async def test_R4_invalid_stakes_refused_with_the_reason(h: Harness, boss: FakeMember) -> None:
    # 3 players x ante 10 = 30 is not more than 5 small points x 10 = 50
    reply = await h.slash(boss, "settings stakes", ante=10)
    assert reply.ephemeral
    assert reply.text.startswith(t("errors.invalid_stakes", "en", reason=""))
    assert "10" in reply.text and len(reply.text) > len(t("errors.invalid_stakes", "en", reason=""))
    reply = await h.slash(boss, "settings stakes", max_bet=5)
    assert "cip" in reply.text.lower()
    assert (await h.store.get_stakes(h.guild_id)).ante == DEFAULT_STAKES.ante


async def test_out_of_range_option_is_refused_by_the_store_too(
    h: Harness, boss: FakeMember
) -> None:
    """Discord enforces the Range bounds in its client; the command tree checks them again
    (a modified client), and so does the store."""
    reply = await h.slash(boss, "settings stakes", cards_per_payment=7)
    assert reply.ephemeral
    assert reply.text == t("input_numbers.out_of_range", "en", value="`7`", low=1, high=3)
    assert (await h.store.get_stakes(h.guild_id)).cards_per_payment == 1
    with pytest.raises(InvalidStakes):
        await h.store.set_stakes(h.guild_id, {"cards_per_payment": 7}, by=boss.id)


async def test_stakes_set_without_options_shows_current(h: Harness, boss: FakeMember) -> None:
    reply = await h.slash(boss, "settings stakes")
    assert reply.embeds[0]["description"] == t("admin.nothing_given", "en")


async def test_variants_set_and_show(h: Harness, boss: FakeMember) -> None:
    reply = await h.slash(
        boss, "settings variants", ranking="total", three_aces_jump="yes", removed_suit="d"
    )
    assert reply.ephemeral
    stakes = await h.store.get_stakes(h.guild_id)
    assert stakes.ranking == "total"
    assert stakes.three_aces_jump is True
    assert stakes.removed_suit == "d"
    shown = await h.slash(boss, "variants")
    fields = {f["name"]: f["value"] for f in shown.embeds[0]["fields"]}
    assert fields[t("admin.variant.ranking", "en")] == t("commands.variants.choices.total", "en")
    assert fields[t("admin.variant.removed_suit", "en")] == t("commands.variants.choices.d", "en")


async def test_R2_R9_R11_new_variants_set_and_shown_in_both_languages(
    h: Harness, boss: FakeMember
) -> None:
    """show_first (R-9), six_players (R-2) and stoppa_povera (R-11) are server settings."""
    reply = await h.slash(
        boss, "settings variants",
        show_first="last_caller", six_players="jacks", stoppa_povera="off",
    )
    assert reply.ephemeral
    stakes = await h.store.get_stakes(h.guild_id)
    assert (stakes.show_first, stakes.six_players, stakes.stoppa_povera) == (
        "last_caller",
        "jacks",
        "off",
    )
    shown = await h.slash(boss, "variants")
    fields = {f["name"]: f["value"] for f in shown.embeds[0]["fields"]}
    for name, value in (("show_first", "last_caller"), ("six_players", "jacks")):
        assert fields[t(f"admin.variant.{name}", "en")] == t(
            f"commands.variants.choices.{value}", "en"
        )
    for lang in ("en", "it"):
        for name in ("show_first", "six_players", "stoppa_povera"):
            assert t(f"admin.variant.{name}", lang)
            assert t(f"commands.variants.{name}", lang)


async def test_chips_grant_and_remove(h: Harness, boss: FakeMember, anna: FakeMember) -> None:
    reply = await h.slash(boss, "chips grant", member=anna, amount=300, reason="torneo")
    assert not reply.ephemeral  # public, so that the member sees it
    assert anna.mention in reply.text and "1,300" in reply.text
    reply = await h.slash(boss, "chips grant", member=anna, amount=-100, reason="errore")
    assert "1,200" in reply.text
    assert await h.store.balance(h.guild_id, anna.id) == 1200
    too_many = await h.slash(boss, "chips grant", member=anna, amount=-5000, reason="x")
    assert too_many.ephemeral
    assert too_many.text == t("admin.chips_too_few", "en", member="Anna", balance=1200, amount=5000)
    zero = await h.slash(boss, "chips grant", member=anna, amount=0, reason="x")
    assert zero.ephemeral and zero.text == t("admin.chips_zero", "en")
    assert await h.store.balance(h.guild_id, anna.id) == 1200
    assert await h.store.audit() == []


async def test_settings_language_pins_the_server_language(h: Harness, boss: FakeMember) -> None:
    german = h.member("Greta", locale="de")
    before = await h.slash(german, "balance")
    assert before.text == t("economy.balance_self", "en", balance=1000)
    reply = await h.slash(boss, "settings language", value="it")
    assert reply.ephemeral
    assert (await h.store.server_settings(h.guild_id)).language == "it"
    after = await h.slash(german, "balance")
    assert after.text == t("economy.balance_self", "it", balance=1000)
    # the user's own Italian/English locale still wins
    english = await h.slash(h.member("Eve", locale="en-US"), "balance")
    assert english.text == t("economy.balance_self", "en", balance=1000)
    await h.slash(boss, "settings language", value="auto")
    assert (await h.store.server_settings(h.guild_id)).language is None


async def test_settings_timeout(h: Harness, boss: FakeMember) -> None:
    reply = await h.slash(boss, "settings timeout", seconds=45)
    assert reply.ephemeral and "45 s" in reply.text
    assert (await h.store.server_settings(h.guild_id)).turn_timeout == 45.0


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_settings_pause_from_the_bot_default_to_zero(h: Harness, lang: str) -> None:
    boss = h.member("Capo", manage_guild=True, locale="it" if lang == "it" else "en-US")
    shown = await h.slash(boss, "settings show")
    fields = {f["name"]: f["value"] for f in shown.embeds[0]["fields"]}
    default = f"{h.bot.table_options.hand_pause:g}"  # unset: the bot's default, said so
    assert fields[t("admin.settings_pause", lang)] == t(
        "admin.settings_timeout_default", lang, seconds=default)
    reply = await h.slash(boss, "settings pause", seconds=0)
    assert reply.ephemeral
    fields = {f["name"]: f["value"] for f in reply.embeds[0]["fields"]}
    assert fields[t("admin.settings_pause", lang)] == t("admin.settings_seconds", lang, seconds="0")
    assert (await h.store.server_settings(h.guild_id)).hand_pause == 0.0


async def test_guild_locale_is_the_last_fallback(tmp_path) -> None:
    async with Harness.create(tmp_path, guild_locale="it") as h:
        german = h.member("Greta", locale="de")
        reply = await h.slash(german, "balance")
        assert reply.text == t("economy.balance_self", "it", balance=1000)


async def test_lang_for_order(h: Harness) -> None:
    class Fake:
        def __init__(self, locale: str, guild_locale: str | None) -> None:
            self.locale, self.guild_locale, self.guild_id = locale, guild_locale, h.guild_id
            self.client = h.bot
            self.user = h.member("Lia")  # whose language the client remembers for their tables

    assert await lang_for(Fake("it", "en-US")) == "it"  # type: ignore[arg-type]
    assert await lang_for(Fake("fr", "it")) == "it"  # type: ignore[arg-type]
    assert await lang_for(Fake("fr", "de")) == "en"  # type: ignore[arg-type]
    await h.store.update_server_settings(h.guild_id, by=1, language="it")
    # the pinned language is kept in memory; a writer other than /settings language
    # tells the client's copy (the command does it itself)
    assert await lang_for(Fake("fr", "en-US")) == "en"  # type: ignore[arg-type]
    h.bot.languages.forget(h.guild_id)
    assert await lang_for(Fake("fr", "en-US")) == "it"  # type: ignore[arg-type]
    assert await lang_for(Fake("en-GB", "it")) == "en"  # type: ignore[arg-type]


async def test_stakes_and_variants_are_shown_to_every_member(
    h: Harness, anna: FakeMember, bob: FakeMember
) -> None:
    """Issue 15: /stakes and /variants are for everyone; changing them stays managers'."""
    for user, lang in ((bob, "en"), (anna, "it")):
        stakes = await h.slash(user, "stakes")
        assert stakes.ephemeral and stakes.embeds[0]["title"] == t("admin.stakes_title", lang)
        fields = {f["name"]: f["value"] for f in stakes.embeds[0]["fields"]}
        assert fields[t("admin.stake.ante", lang)] == str(DEFAULT_STAKES.ante)
        variants = await h.slash(user, "variants")
        assert variants.ephemeral
        assert variants.embeds[0]["title"] == t("admin.variants_title", lang)


async def test_only_the_setting_commands_are_hidden_from_members(h: Harness) -> None:
    payload = {c["name"]: c for c in await h.sync_commands()}
    for name in ("stakes", "variants"):
        assert payload[name].get("default_member_permissions") is None
        assert "options" not in payload[name] or not payload[name]["options"]
    settings = {o["name"] for o in payload["settings"]["options"]}
    assert {"stakes", "variants", "language", "timeout", "pause", "show"} <= settings
    assert payload["settings"]["default_member_permissions"] is not None
