"""Per-server settings: defaults and validation of changes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, replace
from typing import Any

from bot.store.errors import InvalidSetting
from bot.store.models import ServerSettings

LANGUAGES: tuple[str, ...] = ("en", "it")
MAX_CHIPS = 1_000_000_000
MAX_COOLDOWN = 30 * 86_400.0
MAX_TURN_TIMEOUT = 86_400.0
#: the longest pause between two hands a manager may set (a pause, not a break)
MAX_HAND_PAUSE = 30.0
MAX_MIN_AGE = 365 * 86_400.0
MAX_CURRENCY_NAME = 32
MAX_CURRENCY_EMOJI = 64

#: the `servers` columns of the settings, in the order of `ServerSettings`' fields
SETTINGS_COLUMNS: tuple[str, ...] = (
    "starting_balance",
    "daily_amount",
    "daily_cooldown",
    "language",
    "turn_timeout",
    "currency_name",
    "currency_emoji",
    "balance_cap",
    "daily_min_age",
    "give_enabled",
    "give_daily_limit",
    "tournaments_open",
    "hand_pause",
)
#: the economy settings (issue 20), validated by `_economy`
ECONOMY_COLUMNS: tuple[str, ...] = SETTINGS_COLUMNS[5:12]


def _number(key: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        raise InvalidSetting("setting_bad_value", {"key": key, "value": value})
    return float(value)


def _chips(key: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_CHIPS:
        raise InvalidSetting("setting_bad_value", {"key": key, "value": value})
    return value


def _bad(key: str, value: Any) -> InvalidSetting:
    return InvalidSetting("setting_bad_value", {"key": key, "value": value})


def _text(key: str, value: Any, longest: int) -> str | None:
    """None, or a non-blank one-line text of at most `longest` characters (stripped)."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise _bad(key, value)
    text = value.strip()
    if not text or len(text) > longest or any(not c.isprintable() for c in text):
        raise _bad(key, value)
    if key == "currency_emoji" and any(c.isspace() for c in text):
        raise _bad(key, value)
    return text


def _optional_chips(key: str, value: Any) -> int | None:
    """None, or a whole number of chips from 1 to MAX_CHIPS."""
    if value is None:
        return None
    if _chips(key, value) == 0:
        raise _bad(key, value)
    return int(value)


def _economy(key: str, value: Any) -> Any:
    """A validated value of one of the economy settings (issue 20)."""
    if key == "currency_name":
        return _text(key, value, MAX_CURRENCY_NAME)
    if key == "currency_emoji":
        return _text(key, value, MAX_CURRENCY_EMOJI)
    if key in ("balance_cap", "give_daily_limit"):
        return _optional_chips(key, value)
    if key == "daily_min_age":
        seconds = _number(key, value)
        if not 0 <= seconds <= MAX_MIN_AGE:
            raise _bad(key, value)
        return seconds
    if not isinstance(value, bool):  # give_enabled, tournaments_open
        raise _bad(key, value)
    return value


def _pause(value: Any) -> float | None:
    """None (the bot's default) or seconds from 0 to MAX_HAND_PAUSE."""
    if value is None:
        return None
    seconds = _number("hand_pause", value)
    if not 0 <= seconds <= MAX_HAND_PAUSE:
        raise _bad("hand_pause", value)
    return seconds


def apply_changes(current: ServerSettings, changes: Mapping[str, Any]) -> ServerSettings:
    """`current` with `changes` applied, each validated; raises InvalidSetting.

    starting_balance and daily_amount: integers 0..1e9; daily_cooldown: seconds, > 0 and at
    most 30 days; language: None, "en" or "it"; turn_timeout: None or seconds in (0, 86400];
    currency_name: None or 1..32 printable characters; currency_emoji: None or 1..64
    without spaces; balance_cap and give_daily_limit: None or 1..1e9 chips; daily_min_age:
    seconds 0..365 days; give_enabled and tournaments_open: bools; hand_pause: None or
    seconds 0..30.
    """
    known = asdict(current)
    clean: dict[str, Any] = {}
    for key, value in changes.items():
        if key not in known:
            raise InvalidSetting("setting_unknown", {"key": key})
        if key in ("starting_balance", "daily_amount"):
            clean[key] = _chips(key, value)
        elif key == "daily_cooldown":
            seconds = _number(key, value)
            if not 0 < seconds <= MAX_COOLDOWN:
                raise InvalidSetting("setting_bad_value", {"key": key, "value": value})
            clean[key] = seconds
        elif key in ECONOMY_COLUMNS:
            clean[key] = _economy(key, value)
        elif key == "hand_pause":
            clean[key] = _pause(value)
        elif key == "language":
            if value is not None and value not in LANGUAGES:
                raise InvalidSetting("setting_bad_value", {"key": key, "value": value})
            clean[key] = value
        else:  # turn_timeout
            if value is not None:
                seconds = _number(key, value)
                if not 0 < seconds <= MAX_TURN_TIMEOUT:
                    raise InvalidSetting("setting_bad_value", {"key": key, "value": value})
                value = seconds
            clean[key] = value
    return replace(current, **clean)
