"""Accounts per server, daily claims, admin grants and removals, server settings."""

from __future__ import annotations

import pytest

from bot.store import (
    CooldownActive,
    InsufficientFunds,
    InvalidSetting,
    ServerSettings,
    Store,
)

from .conftest import GUILD, OTHER_GUILD


async def _ledger(store: Store, sql: str, *params: object) -> list[tuple]:
    return [tuple(r) for r in await store.query(sql, params)]


async def test_account_created_lazily_with_starting_balance_per_server(store: Store) -> None:
    await store.update_server_settings(OTHER_GUILD, by=1, starting_balance=300)
    assert await store.balance(GUILD, 7) == 1000
    assert await store.balance(OTHER_GUILD, 7) == 300
    assert await store.balances(GUILD, [7, 8, 8, -3]) == {7: 1000, 8: 1000, -3: 1000}
    assert await store.total_chips(GUILD) == (3000, 0, 3000)
    rows = await _ledger(store, "SELECT reason, amount FROM ledger WHERE guild_id = ?", GUILD)
    assert rows == [("start", 1000)] * 3


async def test_daily_claim_and_cooldown_from_server_settings(store: Store) -> None:
    claim = await store.claim_daily(GUILD, 7, now=10_000.0)
    assert (claim.amount, claim.balance, claim.next_at) == (200, 1200, 10_000.0 + 72_000.0)
    with pytest.raises(CooldownActive) as info:
        await store.claim_daily(GUILD, 7, now=10_000.0 + 71_999.0)
    assert info.value.retry_at == 82_000.0
    assert info.value.params == {"hours": 0, "minutes": 1}
    assert "0 h 1 min" in str(info.value)
    assert await store.balance(GUILD, 7) == 1200  # a refused claim changes nothing
    again = await store.claim_daily(GUILD, 7, now=82_000.0)
    assert again.balance == 1400
    await store.update_server_settings(GUILD, by=1, daily_amount=50, daily_cooldown=60)
    third = await store.claim_daily(GUILD, 7, now=82_060.0)
    assert (third.amount, third.balance, third.next_at) == (50, 1450, 82_120.0)
    assert await store.total_chips(GUILD) == (1450, 0, 1450)


async def test_cooldown_message_rounds_up_and_is_in_italian() -> None:
    error = CooldownActive(3_600 * 5 + 61, now=0.0)
    assert error.params == {"hours": 5, "minutes": 2}
    assert error.message("it") == "Hai già ritirato le fiches giornaliere: riprova tra 5 h 2 min."


async def test_grant_and_removal_with_reason(store: Store) -> None:
    assert await store.grant(GUILD, 7, 500, reason="tournament prize", by=99) == 1500
    assert await store.grant(GUILD, 7, -1200, reason="cheating", by=99) == 300
    with pytest.raises(InsufficientFunds) as info:
        await store.grant(GUILD, 7, -301, reason="too much", by=99)
    assert (info.value.needed, info.value.balance) == (301, 300)
    assert await store.balance(GUILD, 7) == 300
    rows = await _ledger(
        store,
        "SELECT src_kind, dst_kind, amount, reason, note, by FROM ledger"
        " WHERE reason IN ('grant', 'remove') ORDER BY id",
    )
    assert rows == [
        ("mint", "user", 500, "grant", "tournament prize", 99),
        ("user", "mint", 1200, "remove", "cheating", 99),
    ]
    assert await store.total_chips(GUILD) == (300, 0, 300)
    with pytest.raises(ValueError):
        await store.grant(GUILD, 7, 0, reason="nothing", by=99)


async def test_removal_from_a_new_account_counts_its_starting_balance(store: Store) -> None:
    assert await store.grant(GUILD, 8, -1000, reason="all of it", by=1) == 0
    with pytest.raises(InsufficientFunds):
        await store.grant(GUILD, 9, -1001, reason="too much", by=1)
    assert await store.balance(GUILD, 9) == 1000  # the failed removal left the account as new


async def test_server_settings_defaults_and_validated_update(store: Store) -> None:
    assert await store.server_settings(GUILD) == ServerSettings(1000, 200, 72000.0, None, None)
    new = await store.update_server_settings(GUILD, by=5, language="it", turn_timeout=45)
    assert new == ServerSettings(1000, 200, 72000.0, "it", 45.0)
    assert await store.server_settings(GUILD) == new
    new = await store.update_server_settings(GUILD, by=5, turn_timeout=None)
    assert new.turn_timeout is None
    assert await store.server_settings(OTHER_GUILD) == ServerSettings()


async def test_hand_pause_is_stored_from_zero_to_thirty_seconds(store: Store) -> None:
    assert (await store.server_settings(GUILD)).hand_pause is None  # the bot's default
    assert (await store.update_server_settings(GUILD, by=5, hand_pause=0)).hand_pause == 0.0
    assert (await store.server_settings(GUILD)).hand_pause == 0.0  # 0 is kept, not "unset"
    await store.update_server_settings(GUILD, by=5, hand_pause=30)
    assert (await store.server_settings(GUILD)).hand_pause == 30.0
    await store.update_server_settings(GUILD, by=5, hand_pause=None)
    assert (await store.server_settings(GUILD)).hand_pause is None


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"colour": "red"}, "setting_unknown"),
        ({"language": "fr"}, "setting_bad_value"),
        ({"starting_balance": -1}, "setting_bad_value"),
        ({"starting_balance": 10.5}, "setting_bad_value"),
        ({"daily_amount": True}, "setting_bad_value"),
        ({"daily_cooldown": 0}, "setting_bad_value"),
        ({"turn_timeout": -3}, "setting_bad_value"),
        ({"turn_timeout": float("nan")}, "setting_bad_value"),
        ({"hand_pause": -1}, "setting_bad_value"),
        ({"hand_pause": 30.5}, "setting_bad_value"),
        ({"hand_pause": True}, "setting_bad_value"),
    ],
)
async def test_bad_server_settings_are_refused(store: Store, changes: dict, code: str) -> None:
    with pytest.raises(InvalidSetting) as info:
        await store.update_server_settings(GUILD, by=1, **{"daily_amount": 5, **changes})
    assert info.value.code == code
    assert await store.server_settings(GUILD) == ServerSettings()  # nothing half-applied
