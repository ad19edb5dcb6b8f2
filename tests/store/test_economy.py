"""Each server's own economy (issue 20) on both backends: the settings validated and stored,
the cap and the minimum account age in /daily, and /give (atomic, ledgered, refused when
disabled, to oneself or over the daily limit; 50 concurrent gifts never overdraw nor pass it)."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import (
    CooldownActive,
    DailyRefused,
    GiveRefused,
    InsufficientFunds,
    InvalidSetting,
    ServerSettings,
    StoreContract,
)

from .conftest import GUILD, OTHER_GUILD

T0 = 2_000_000.0
DAY = 86_400.0


async def test_economy_settings_stored_per_server(store: StoreContract) -> None:
    new = await store.update_server_settings(
        GUILD,
        by=9,
        currency_name=" Lire ",
        currency_emoji="💰",
        balance_cap=5000,
        daily_min_age=3 * DAY,
        give_enabled=True,
        give_daily_limit=300,
    )
    assert (new.currency_name, new.currency_emoji, new.balance_cap) == ("Lire", "💰", 5000)
    assert await store.server_settings(GUILD) == new
    assert (new.daily_min_age, new.give_enabled, new.give_daily_limit) == (3 * DAY, True, 300)
    assert await store.server_settings(OTHER_GUILD) == ServerSettings()  # untouched
    cleared = await store.update_server_settings(GUILD, by=9, balance_cap=None, currency_name=None)
    assert (cleared.balance_cap, cleared.currency_name) == (None, None)
    assert cleared.currency_emoji == "💰"


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("currency_name", ""),
        ("currency_name", "x" * 33),
        ("currency_name", "two\nlines"),
        ("currency_emoji", "a b"),
        ("balance_cap", 0),
        ("balance_cap", -5),
        ("balance_cap", 1.5),
        ("daily_min_age", -1),
        ("daily_min_age", 400 * DAY),
        ("give_enabled", "yes"),
        ("give_daily_limit", 0),
        ("give_daily_limit", True),
    ],
)
async def test_bad_economy_setting_names_the_setting_and_changes_nothing(
    store: StoreContract, key: str, value: object
) -> None:
    with pytest.raises(InvalidSetting) as refused:
        await store.update_server_settings(GUILD, by=9, **{"currency_emoji": "🪙", key: value})
    assert refused.value.params["key"] == key and key in refused.value.message("it")
    assert await store.server_settings(GUILD) == ServerSettings()


async def test_daily_stops_at_the_cap_and_does_not_use_the_cooldown(store: StoreContract) -> None:
    await store.update_server_settings(GUILD, by=9, balance_cap=1150, daily_amount=200)
    first = await store.claim_daily(GUILD, 1, now=T0)
    assert (first.amount, first.balance) == (150, 1150)  # 1000 + 200 stopped at 1150
    with pytest.raises(DailyRefused) as at_cap:
        await store.claim_daily(GUILD, 1, now=T0 + DAY)
    assert at_cap.value.code == "daily_at_cap" and "1,150" in at_cap.value.message("en")
    await store.grant(GUILD, 1, -100, reason="spent", by=0)
    again = await store.claim_daily(GUILD, 1, now=T0 + DAY + 1)  # the refusal cost no cooldown
    assert (again.amount, again.balance) == (100, 1150)
    assert await store.total_chips(GUILD) == (1150, 0, 1150)


async def test_daily_needs_the_minimum_time_in_the_server(store: StoreContract) -> None:
    await store.update_server_settings(GUILD, by=9, daily_min_age=2 * DAY)
    joined = T0 - DAY - 1800
    with pytest.raises(DailyRefused) as too_new:
        await store.claim_daily(GUILD, 1, now=T0, joined_at=joined)
    assert too_new.value.code == "daily_member_too_new"
    assert too_new.value.retry_at == joined + 2 * DAY
    assert too_new.value.params == {"hours": 23, "minutes": 30}
    assert await store.balance(GUILD, 1) == 1000  # nothing paid
    paid = await store.claim_daily(GUILD, 1, now=joined + 2 * DAY, joined_at=joined)
    assert paid.amount == 200
    with pytest.raises(CooldownActive):
        await store.claim_daily(GUILD, 1, now=joined + 2 * DAY + 1, joined_at=joined)


async def test_give_moves_chips_with_a_ledger_row(store: StoreContract) -> None:
    await store.update_server_settings(GUILD, by=9, give_enabled=True)
    result = await store.give(GUILD, 1, 2, 250, now=T0)
    assert (result.amount, result.giver_balance, result.receiver_balance) == (250, 750, 1250)
    assert result.left_today is None
    assert await store.balances(GUILD, [1, 2]) == {1: 750, 2: 1250}
    assert await store.total_chips(GUILD) == (2000, 0, 2000)  # nothing minted nor burned
    rows = await store.query(  # type: ignore[attr-defined]
        "SELECT src_kind, src_id, dst_kind, dst_id, amount FROM ledger WHERE reason = 'give'"
    )
    assert [tuple(r) for r in rows] == [("user", 1, "user", 2, 250)]


@pytest.mark.parametrize(
    ("giver", "receiver", "amount", "code"),
    [(1, 1, 10, "give_self"), (1, -3, 10, "give_not_member"), (1, 2, 0, "give_bad_amount")],
)
async def test_give_refusals_change_nothing(
    store: StoreContract, giver: int, receiver: int, amount: int, code: str
) -> None:
    with pytest.raises(GiveRefused) as disabled:
        await store.give(GUILD, 1, 2, 10, now=T0)
    assert disabled.value.code == "give_disabled"
    await store.update_server_settings(GUILD, by=9, give_enabled=True)
    with pytest.raises(GiveRefused) as refused:
        await store.give(GUILD, giver, receiver, amount, now=T0)
    assert refused.value.code == code and refused.value.message("it")
    with pytest.raises(InsufficientFunds):
        await store.give(GUILD, 1, 2, 1001, now=T0)
    assert await store.total_chips(GUILD) in ((0, 0, 0), (1000, 0, 1000), (2000, 0, 2000))
    assert all(b == 1000 for b in (await store.balances(GUILD, [1, 2])).values())


async def test_give_daily_limit_over_a_rolling_day_and_the_receivers_cap(
    store: StoreContract,
) -> None:
    await store.update_server_settings(GUILD, by=9, give_enabled=True, give_daily_limit=300)
    assert (await store.give(GUILD, 1, 2, 200, now=T0)).left_today == 100
    with pytest.raises(GiveRefused) as over:
        await store.give(GUILD, 1, 3, 101, now=T0 + 60)
    assert over.value.params == {"limit": 300, "left": 100}
    assert (await store.give(GUILD, 1, 3, 100, now=T0 + 60)).left_today == 0
    assert (await store.give(GUILD, 2, 1, 300, now=T0 + 61)).left_today == 0  # own limit
    assert (await store.give(GUILD, 1, 2, 200, now=T0 + DAY + 1)).left_today == 0  # day passed
    await store.update_server_settings(GUILD, by=9, balance_cap=1000, give_daily_limit=None)
    with pytest.raises(GiveRefused) as capped:
        await store.give(GUILD, 2, 3, 1, now=T0 + DAY + 2)  # 3 holds 1100 > cap already
    assert capped.value.code == "give_cap"


async def test_50_concurrent_gives_never_overdraw_nor_pass_the_limit(
    two_stores: tuple[StoreContract, StoreContract],
) -> None:
    a, b = two_stores
    await a.update_server_settings(GUILD, by=9, give_enabled=True, give_daily_limit=700)
    await a.grant(GUILD, 1, -400, reason="spent", by=0)  # 600 chips: balance binds first

    async def gift(i: int) -> str:
        try:
            await (a if i % 2 else b).give(GUILD, 1, 10 + i % 5, 70, now=T0 + i)
        except InsufficientFunds:
            return "broke"
        except GiveRefused as error:
            return error.code
        return "ok"

    outcomes = await asyncio.gather(*(gift(i) for i in range(50)))
    assert outcomes.count("ok") == 600 // 70
    assert await a.balance(GUILD, 1) == 600 - 70 * (600 // 70)
    await a.grant(GUILD, 1, 5000, reason="refill", by=0)  # now the limit binds
    outcomes = await asyncio.gather(*(gift(i) for i in range(50)))
    assert outcomes.count("ok") == (700 - 70 * (600 // 70)) // 70
    assert set(outcomes) == {"ok", "give_limit"}
    given = await a.query(  # type: ignore[attr-defined]
        "SELECT SUM(amount), COUNT(*) FROM ledger WHERE reason = 'give' AND src_id = 1"
    )
    assert tuple(given[0]) == (700, 10)
    balances = await a.balances(GUILD, [1, 10, 11, 12, 13, 14])
    assert sum(balances.values()) == (await a.total_chips(GUILD))[0]
