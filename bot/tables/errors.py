"""Errors of the table service: `TableError(code, params)` with messages in `tables.toml`.

The engine's `IllegalAction` (an action refused by the rules) passes through unchanged; its
messages live in `engine.toml` under the same `code`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.i18n import t

#: Every code the service raises; each has a message `tables.errors.<code>` in both catalogues.
CODES: tuple[str, ...] = (
    "no_table",
    "table_exists",
    "table_resuming",
    "table_closed",
    "already_seated",
    "seated_elsewhere",
    "table_full",
    "not_enough_chips",
    "hand_in_progress",
    "not_seated",
    "not_your_turn",
    "not_in_hand",
    "stale_button",
    "not_enough_players",
    "already_started",
    "bad_level",
    "bad_stakes",
    "busy",
    "bad_action",
    "no_hand",
    "not_enough_chips_now",
    "tournament_table",
    "entrant_seated_elsewhere",
)


class TableError(Exception):
    """A request the table service refuses, with a code and the params of its message."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params: Mapping[str, Any] = params
        super().__init__(self.message("en"))

    @property
    def key(self) -> str:
        """The catalogue key of the message."""
        return f"tables.errors.{self.code}"

    def message(self, lang: str = "en") -> str:
        """The message in `lang` ("en"/"it")."""
        try:
            return t(self.key, lang, **self.params)
        except (KeyError, IndexError):
            return f"{self.code} {self.params}"

    def __repr__(self) -> str:
        return f"TableError({self.code!r}, {self.params!r})"


class UnknownKind(Exception):
    """A stored table of a kind this service was not given a policy for."""
