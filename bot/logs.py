"""Logging set-up: stdlib logging with discord.py's formatter, one line per table event."""

from __future__ import annotations

import logging

import discord.utils

table_log = logging.getLogger("stoppa.table")


def setup_logging(level: int | str = logging.INFO) -> None:
    """Configure the root logger with discord.py's formatter (colours on a terminal)."""
    discord.utils.setup_logging(level=level, root=True)


def log_table_event(guild_id: int, channel_id: int, message: str) -> None:
    """Log one table event at INFO. Never pass anything secret (cards in a hand) here."""
    table_log.info("guild=%s channel=%s %s", guild_id, channel_id, message)
