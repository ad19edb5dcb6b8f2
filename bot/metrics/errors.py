"""Errors by kind, counted from the log records at ERROR and above.

Every failure of the bot is logged once where it is handled (an interaction's error handler,
a table task, the lease beat, discord.py's own "Ignoring exception in ..."), so a logging
handler on the root logger counts them all without a hook at each place: by the class of the
exception the record carries (`logged` for an error line without one) and by the first two
parts of the logger's name (`stoppa.tables`, `discord.client`).
"""

from __future__ import annotations

import logging

import bot.metrics as metrics


def error_kind(record: logging.LogRecord) -> str:
    """The class name of the exception a record carries, or `logged`."""
    if record.exc_info and record.exc_info[0] is not None:
        return record.exc_info[0].__name__
    return "logged"


def logger_family(name: str) -> str:
    """The first two parts of a logger's name (a bounded set of label values)."""
    return ".".join(name.split(".")[:2])


class ErrorCounter(logging.Handler):
    """Counts each record at ERROR or above into `stoppa_errors_total`."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)

    def emit(self, record: logging.LogRecord) -> None:
        recorder = metrics.active()
        if recorder is not None:
            recorder.errors.labels(error_kind(record), logger_family(record.name)).inc()


def count_errors(logger: logging.Logger | None = None) -> ErrorCounter:
    """Attach an `ErrorCounter` to `logger` (the root logger by default); returns it, for
    `logger.removeHandler` when the bot closes."""
    handler = ErrorCounter()
    (logger or logging.getLogger()).addHandler(handler)
    return handler
