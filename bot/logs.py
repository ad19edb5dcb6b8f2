"""Logging set-up: stdlib logging with discord.py's formatter, one line per table event."""

from __future__ import annotations

import logging

import discord.utils

table_log = logging.getLogger("stoppa.table")

#: discord.py loggers whose DEBUG lines print raw gateway payloads: a button's interaction
#: carries the message it was pressed on, and a private hand reply lists the player's cards.
#: They stay at INFO or above, so no log level ever writes a card the table did not show.
QUIET_AT_DEBUG: tuple[str, ...] = ("discord.gateway",)


def setup_logging(level: int | str = logging.INFO) -> None:
    """Configure the root logger with discord.py's formatter (colours on a terminal)."""
    # discord.py types `level` as int, but logging takes level names ("INFO") too
    discord.utils.setup_logging(level=level, root=True)  # type: ignore[arg-type]
    floor = max(logging.getLogger().getEffectiveLevel(), logging.INFO)
    for name in QUIET_AT_DEBUG:
        logging.getLogger(name).setLevel(floor)


def log_table_event(guild_id: int, channel_id: int, message: str) -> None:
    """Log one table event at INFO. Never pass anything secret (cards in a hand) here."""
    table_log.info("guild=%s channel=%s %s", guild_id, channel_id, message)
