"""Each server's own economy through the real bot and store (issue 20): /settings economy,
the currency in every amount, /daily's minimum time in the server, /give."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.i18n import t
from bot.i18n.currency import Currency
from bot.render import LeaderboardSnapshot, LeaderRowInfo, leaderboard_text, table_alt_text
from bot.render.snapshots import SeatInfo, TableSnapshot
from tests.harness import FakeMember, Harness

GOLD = Currency("coin/coins", "🪙")


def _iso(delta: timedelta) -> str:
    return (datetime.now(UTC) - delta).isoformat()


def _descriptions(value: Any) -> list[str]:
    """Every attachment description (an image's alt text) in a REST call's JSON."""
    if isinstance(value, dict):
        found = [str(value["description"])] if "description" in value and "filename" in value \
            else []
        return found + [d for v in value.values() for d in _descriptions(v)]
    if isinstance(value, list):
        return [d for v in value for d in _descriptions(v)]
    return []


async def test_settings_economy_set_kept_in_memory_and_shown(
    h: Harness, boss: FakeMember, bob: FakeMember
) -> None:
    r = await h.slash(boss, "settings economy", currency_name="coin/coins", currency_emoji="🪙",
                      starting_balance=500, daily_amount=50, daily_hours=2.0, balance_cap=5000,
                      min_age_hours=1.0, give=True, give_limit=300)
    assert r.ephemeral
    saved = await h.store.server_settings(h.guild_id)
    assert (saved.currency_name, saved.currency_emoji, saved.starting_balance) == (
        "coin/coins", "🪙", 500)
    assert (saved.daily_amount, saved.daily_cooldown, saved.balance_cap) == (50, 7200.0, 5000)
    assert (saved.daily_min_age, saved.give_enabled, saved.give_daily_limit) == (
        3600.0, True, 300)
    assert h.bot.languages.settings(h.guild_id) == saved  # answers read memory, not the store
    shown = await h.slash(boss, "settings show")
    assert shown.ephemeral
    assert "🪙 500 coins" in shown.text and "🪙 5,000 coins" in shown.text
    assert t("server_economy.on_limit", "en", limit=300, currency=GOLD) in shown.text
    balance = await h.slash(bob, "balance")
    assert balance.text == "You have **🪙 500 coins** on this server."
    # the reset puts the bot's own words back
    await h.slash(boss, "settings economy", reset="currency_name")
    await h.slash(boss, "settings economy", reset="currency_emoji")
    assert (await h.slash(bob, "balance")).text == t("economy.balance_self", "en", balance=500)


async def test_settings_economy_refusals_are_localised_and_change_nothing(
    h: Harness, boss: FakeMember
) -> None:
    italian = h.member("Capo", locale="it", manage_guild=True)
    before = await h.store.server_settings(h.guild_id)
    r = await h.slash(italian, "settings economy", currency_emoji="soldi")
    assert r.ephemeral and r.text == t("server_economy.bad_emoji", "it", value="soldi")
    r = await h.slash(boss, "settings economy", currency_name="a\tb")
    assert r.ephemeral  # a control character in any free text (bot.discord_utils.text)
    assert r.text == t("input.control_character", "en")
    assert "currency_name" not in r.text  # no identifier in what a person reads
    r = await h.slash(boss, "settings economy", currency_name="x" * 33)
    assert r.ephemeral and "32" in r.text
    r = await h.slash(italian, "settings economy", balance_cap=10, reset="balance_cap")
    assert r.text == t("server_economy.reset_conflict", "it",
                       setting=t("server_economy.label.balance_cap", "it"))
    member = h.member("Member")
    r = await h.slash(member, "settings economy", give=True)
    assert r.ephemeral
    assert await h.store.server_settings(h.guild_id) == before


async def test_daily_refused_before_the_minimum_time_in_the_server_and_paid_after(
    h: Harness, boss: FakeMember
) -> None:
    await h.slash(boss, "settings economy", min_age_hours=24.0)
    newcomer = h.member("Newcomer", joined_at=_iso(timedelta(hours=2)))
    r = await h.slash(newcomer, "daily")
    assert r.ephemeral and r.text.startswith(t("store.daily_member_too_new", "en", hours=22,
                                                 minutes=0)[:40])
    assert await h.store.balance(h.guild_id, newcomer.id) == 1000
    newcomer.joined_at = _iso(timedelta(hours=25))  # a day later, as Discord now says
    r = await h.slash(newcomer, "daily")
    assert r.ephemeral and "1,200" in r.text
    assert await h.store.balance(h.guild_id, newcomer.id) == 1200


async def test_give_refusals(h: Harness, boss: FakeMember, bob: FakeMember,
                             anna: FakeMember) -> None:
    r = await h.slash(bob, "give", member=anna, amount=10)
    assert r.ephemeral and r.text == t("store.give_disabled", "en")
    await h.slash(boss, "settings economy", give=True, give_limit=100)
    r = await h.slash(bob, "give", member=bob, amount=10)
    assert r.ephemeral and r.text == t("store.give_self", "en")
    robot = h.member("Robot", bot=True)
    r = await h.slash(anna, "give", member=robot, amount=10)
    assert r.ephemeral and r.text == t("server_economy.give_bot", "it")
    r = await h.slash(bob, "give", member=anna, amount=101)
    assert r.ephemeral and r.text == t("store.give_limit", "en", limit=100, left=100)
    await h.store.grant(h.guild_id, bob.id, -950, reason="test", by=boss.id)
    r = await h.slash(bob, "give", member=anna, amount=60)
    assert r.ephemeral and r.text == t("server_economy.give_too_few", "en", balance=50,
                                       amount=60)
    assert await h.store.balance(h.guild_id, anna.id) == 1000
    assert await h.store.audit() == []


async def test_give_is_public_names_the_receiver_in_the_currency(
    h: Harness, boss: FakeMember, bob: FakeMember, anna: FakeMember
) -> None:
    await h.slash(boss, "settings economy", give=True, give_limit=100,
                  currency_name="coin/coins", currency_emoji="🪙")
    r = await h.slash(bob, "give", member=anna, amount=1)
    public = [m for m in r.messages if anna.mention in m.content]
    assert public and "🪙 1 coin" in public[0].content
    assert t("server_economy.give_left_limit", "en", balance=999, left=99, currency=GOLD) \
        in r.text
    assert await h.store.balance(h.guild_id, anna.id) == 1001


async def test_fifty_concurrent_gifts_never_overdraw_nor_pass_the_daily_limit(
    h: Harness, boss: FakeMember
) -> None:
    await h.slash(boss, "settings economy", give=True, give_limit=600)
    giver = h.member("Giver")
    receivers = [h.member(f"R{i}") for i in range(5)]
    await h.store.grant(h.guild_id, giver.id, -300, reason="test", by=boss.id)  # 700 left
    for i in range(50):
        h.send_nowait(h.slash_payload(giver, "give", member=receivers[i % 5], amount=25))
    await h.settle(timeout=60.0)
    given = 1000 - 300 - await h.store.balance(h.guild_id, giver.id)
    assert given == 600  # the limit, not the balance (700), nor 50 x 25
    received = await asyncio.gather(*(h.store.balance(h.guild_id, r.id) for r in receivers))
    assert sum(received) - 5 * 1000 == 600
    assert await h.store.audit() == []


async def test_the_currency_in_the_table_image_alt_text(
    h: Harness, boss: FakeMember, bob: FakeMember
) -> None:
    await h.slash(boss, "settings economy", currency_name="gold", currency_emoji="🪙")
    await h.slash(bob, "stoppa new")
    await h.slash(boss, "stoppa join")
    alts = [d for c in h.calls if isinstance(c.json, dict) for d in _descriptions(c.json)]
    assert any("🪙 1000 gold" in d or "🪙 1,000 gold" in d for d in alts), alts
    layouts = [c.json for c in h.calls if isinstance(c.json, dict)
               and int(c.json.get("flags") or 0) & (1 << 15)]
    assert any("🪙 1,000 gold" in str(e) for e in layouts)  # the seat lines of the layout


def test_alt_text_and_leaderboard_name_the_currency() -> None:
    seat = SeatInfo(name="Anna", chips=1, cards=3, status="in")
    snap = TableSnapshot(seats=(seat,), phase="stoppa", lang="it",
                         currency_name="moneta/monete", currency_emoji="🪙")
    assert "🪙 1 moneta" in table_alt_text(snap)
    default = TableSnapshot(seats=(seat,), phase="stoppa", lang="en")
    assert "1 chip," in table_alt_text(default)
    board = LeaderboardSnapshot(rows=(LeaderRowInfo(rank=1, name="Anna", value=5),),
                                currency_name="gold", currency_emoji="🪙")
    assert "🪙 gold" in leaderboard_text(board).splitlines()[0]
    assert "chips" in leaderboard_text(LeaderboardSnapshot(rows=())).splitlines()[0]


async def test_the_leaderboard_names_the_currency(
    h: Harness, boss: FakeMember, bob: FakeMember
) -> None:
    await h.slash(boss, "settings economy", currency_name="gold", currency_emoji="🪙")
    await h.store.grant(h.guild_id, bob.id, 500, reason="test", by=boss.id)
    reply = await h.slash(bob, "leaderboard", by="balance")
    message = reply.message
    assert message is not None and not message.ephemeral
    header = message.content.splitlines()[0]
    assert "🪙 gold" in header and t("render.lb.by.balance", "en") not in header
    (png,) = message.files
    assert png.is_png


def test_hand_over_and_event_lines_in_the_currency() -> None:
    from bot.tables import Notice
    from bot.tables.updates import HandOver, Payment, PotWon
    from cogs.table_hand_over import hand_over_lines
    from cogs.table_text import notice_text

    last = HandOver(
        hand_no=3, turn=40, pots=(PotWon(1, "big", None, 120, True, None),), closer=2,
        payments=(Payment(1, 2, 1, 1),), carry=30,
    )
    names = {1: "Anna", 2: "Bob"}
    lines = hand_over_lines(last, "en", names, GOLD)
    assert "Anna won the big pot: 🪙 120 coins" in lines
    assert "Anna paid Bob: 🪙 1 coin" in lines
    assert any("🪙 30 coins" in line for line in lines)
    assert "Anna paid Bob: 1 chip" in hand_over_lines(last, "en", names)  # today's words
    assert "Anna ha pagato a Bob: 1 fiche" in hand_over_lines(last, "it", names)
    notice = Notice("table.event.payment", {"player": 1, "amount": 5, "to": 2}, ("player", "to"))
    assert notice_text(notice, "en", names, GOLD) == "Anna pays 🪙 5 coins to Bob."
    assert notice_text(notice, "it", names) == "Anna paga 5 fiches a Bob."


async def test_the_cap_refusals_name_the_currency(
    h: Harness, boss: FakeMember, bob: FakeMember, anna: FakeMember
) -> None:
    gold = Currency("gold")
    await h.slash(boss, "settings economy", give=True, balance_cap=1100, currency_name="gold")
    r = await h.slash(anna, "give", member=bob, amount=200)
    assert r.ephemeral and r.text == t("store.give_cap", "it", cap=1100, currency=gold)
    assert "1.100 gold" in r.text
    await h.store.grant(h.guild_id, bob.id, 100, reason="test", by=boss.id)
    r = await h.slash(bob, "daily")
    assert r.ephemeral and r.text == t("store.daily_at_cap", "en", cap=1100, currency=gold)
    assert await h.store.balance(h.guild_id, bob.id) == 1100
