"""The table log (INFO, logger `stoppa.tables.log`): what each change showed, nothing more.

A line per notice and per public event of a committed change; a special hand's cards are
cut to the proof its holder lays down, as the table showed them.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import Any

from bot.engine import Event
from bot.engine.events import SpecialHand
from bot.logs import log_table_event, table_log
from bot.store import TableRow
from bot.tables.snapshot import special_proof
from bot.tables.updates import Notice, TableEvent


def loggable_data(event: Event, settings: Mapping[str, Any]) -> dict[str, Any]:
    """The data of a public event as the log may hold it: no card the table did not show."""
    data = event.data()
    if isinstance(event, SpecialHand):
        blocked = str(settings.get("blocked_stoppa") or "four_aces")
        data["cards"] = list(special_proof(event.name, event.cards, blocked))
    return data


def log_change(row: TableRow, hand_no: int, events: Iterable[TableEvent],
               notices: Iterable[Notice]) -> None:
    """Log a committed change of the table of `row` (only what the table showed)."""
    if not table_log.isEnabledFor(logging.INFO):
        return
    guild, channel = row.guild_id, row.channel_id
    for notice in notices:
        log_table_event(guild, channel, f"table {row.id}: {notice.text('en')}", table=row.id)
    for event in events:
        data = loggable_data(event.event, row.settings)
        details = " ".join(f"{k}={v}" for k, v in data.items())
        who = event.user
        log_table_event(
            guild,
            channel,
            f"table {row.id} hand {hand_no}: {event.event.kind}"
            + (f" by {who}" if who is not None else "")
            + (f" {details}" if details else ""),
            table=row.id,
        )
