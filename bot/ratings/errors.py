"""The typed refusal of ranked play: an i18n key and its values, for a polite reply."""

from __future__ import annotations

from typing import Any


class RankedError(ValueError):
    """A refused request (bad season name, full tournament...).

    `key` is a catalogue key of `bot/i18n/locales/*/ranked.toml` and `params` its values;
    the cog answers `t(error.key, lang, **error.params)` ephemerally. Nothing was changed.
    """

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params
