"""Logging set-up: stdlib logging, plain or JSON lines, one line per table event.

Colours only on a terminal (discord.py's own check also colours any output inside Docker,
so a pipe to a log collector would carry ANSI codes); `STOPPA_LOG_FORMAT=json` writes one
JSON object per line (time, level, logger, message, and server, channel and table when the
line is about a table) for log collectors. The bot uses no voice, so discord.py's warnings
about missing voice libraries (PyNaCl, davey) are switched off.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from datetime import UTC, datetime
from typing import TextIO

import discord
import discord.utils

table_log = logging.getLogger("stoppa.table")

#: discord.py loggers whose DEBUG lines print raw gateway payloads: a button's interaction
#: carries the message it was pressed on, and a private hand reply lists the player's cards.
#: They stay at INFO or above, so no log level ever writes a card the table did not show.
QUIET_AT_DEBUG: tuple[str, ...] = ("discord.gateway",)

LOG_FORMATS = ("text", "json")
#: the plain line, as discord.py writes it without colours
TEXT_FORMAT = "[{asctime}] [{levelname:<8}] {name}: {message}"
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"
#: what a table line may carry besides its message (`log_table_event`)
TABLE_FIELDS = ("server", "channel", "table")


class JsonLineFormatter(logging.Formatter):
    """One JSON object per record, on one line (a newline in a message is escaped)."""

    def format(self, record: logging.LogRecord) -> str:
        data: dict[str, object] = {  # one JSON object: the values are only serialised
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for field in TABLE_FIELDS:
            value = getattr(record, field, None)
            if value is not None:
                data[field] = value
        if record.exc_info:
            data["exception"] = self.formatException(record.exc_info)
        return json.dumps(data, ensure_ascii=False)


def wants_colour(stream: TextIO) -> bool:
    """Colours only on a terminal, and never with NO_COLOR set (https://no-color.org)."""
    return stream.isatty() and not os.environ.get("NO_COLOR")


def silence_voice_warnings() -> None:
    """discord.py warns at every client it builds that voice will not work without PyNaCl
    and davey; the bot has no voice, so the warnings are noise."""
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False


def setup_logging(level: int | str = logging.INFO, log_format: str = "text") -> None:
    """Configure the root logger: JSON lines, or discord.py's lines (coloured on a terminal)."""
    handler = logging.StreamHandler(sys.stderr)
    formatter: logging.Formatter | None
    if log_format == "json":
        formatter = JsonLineFormatter()
    elif wants_colour(handler.stream):
        formatter = None  # discord.py's colour formatter
    else:
        formatter = logging.Formatter(TEXT_FORMAT, DATE_FORMAT, style="{")
    # discord.py types `level` as int, but logging takes level names ("INFO") too
    discord.utils.setup_logging(
        handler=handler,
        level=level,  # type: ignore[arg-type]
        root=True,
        **({"formatter": formatter} if formatter is not None else {}),
    )
    silence_voice_warnings()
    floor = max(logging.getLogger().getEffectiveLevel(), logging.INFO)
    for name in QUIET_AT_DEBUG:
        logging.getLogger(name).setLevel(floor)


def log_table_event(
    guild_id: int, channel_id: int, message: str, *, table: int | None = None
) -> None:
    """Log one table event at INFO. Never pass anything secret (cards in a hand) here."""
    table_log.info(
        "guild=%s channel=%s %s", guild_id, channel_id, message,
        extra={"server": guild_id, "channel": channel_id, "table": table},
    )
