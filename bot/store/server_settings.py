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


def _number(key: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        raise InvalidSetting("setting_bad_value", {"key": key, "value": value})
    return float(value)


def _chips(key: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_CHIPS:
        raise InvalidSetting("setting_bad_value", {"key": key, "value": value})
    return value


def apply_changes(current: ServerSettings, changes: Mapping[str, Any]) -> ServerSettings:
    """`current` with `changes` applied, each validated; raises InvalidSetting.

    starting_balance and daily_amount: integers 0..1e9; daily_cooldown: seconds, > 0 and at
    most 30 days; language: None, "en" or "it"; turn_timeout: None or seconds in (0, 86400].
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
