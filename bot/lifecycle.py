"""Running the bot as a service: start, stop on SIGINT or SIGTERM, and failures told plainly.

A host (systemd, Docker, a Procfile platform) stops a process with SIGTERM, a terminal with
Ctrl-C (SIGINT); both go through `StoppaBot.close()`, which stops the turn clocks and closes
the database (every table is already stored after each action). A start that cannot work (a
refused token, no network, a locked or unreadable database) ends with one line naming the
problem and the fix and a non-zero exit code; the traceback only with STOPPA_LOG_LEVEL=DEBUG.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sqlite3
import sys
from typing import TYPE_CHECKING

import aiohttp
import discord

from bot.i18n import t
from bot.store.factory import DatabaseOpenError, open_checked, open_failure, parse_database

if TYPE_CHECKING:
    from bot.client import StoppaBot
    from bot.config import Settings

_log = logging.getLogger("stoppa.service")

#: Exit code of a start that failed for a reason `failure_message` knows.
START_FAILED_EXIT = 1

STOP_SIGNALS: tuple[signal.Signals, ...] = (signal.SIGINT, signal.SIGTERM)


def failure_message(
    error: BaseException, database: str, setting: str = "STOPPA_DB"
) -> str | None:
    """One line naming why the bot could not start and what to do, or None when the error is
    not one an operator can fix (then it is a bug and keeps its traceback). `setting` is the
    variable that named the database (STOPPA_DB or STOPPA_DATABASE_URL)."""
    if isinstance(error, discord.LoginFailure):
        return t("service.failure.token")
    if isinstance(error, DatabaseOpenError):
        return str(error)
    if isinstance(error, sqlite3.Error) or (
        isinstance(error, OSError) and error.filename is not None
    ):
        return open_failure(error, parse_database(database), setting)
    if isinstance(error, aiohttp.ClientError | OSError | asyncio.TimeoutError):
        return t("service.failure.network", reason=str(error) or type(error).__name__)
    return None


async def serve(bot: StoppaBot, token: str, *, sync_only: bool = False) -> None:
    """Run `bot` until it stops by itself or SIGINT/SIGTERM arrives, then close it.

    `sync_only` logs in (which runs `setup_hook`, where the commands are synced) and closes.
    A start failure (login, setup_hook) is raised to the caller after the bot is closed.
    """
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    received: list[str] = []

    def on_signal(sig: signal.Signals) -> None:
        received.append(sig.name)
        stop.set()

    handled: list[signal.Signals] = []
    for sig in STOP_SIGNALS:
        try:
            loop.add_signal_handler(sig, on_signal, sig)
        except (NotImplementedError, RuntimeError):  # no signal handlers here (Windows)
            continue
        handled.append(sig)
    try:
        async with bot:
            if sync_only:
                await bot.login(token)
                return
            runner = asyncio.create_task(bot.start(token), name="stoppa-bot")
            waiter = asyncio.create_task(stop.wait(), name="stoppa-stop-signal")
            await asyncio.wait({runner, waiter}, return_when=asyncio.FIRST_COMPLETED)
            if not waiter.done():
                waiter.cancel()
                runner.result()  # a start failure, raised here
                return
            _log.info("%s received: closing the bot", received[0])
            await bot.close()
            if not runner.done():
                runner.cancel()  # e.g. still retrying an unreachable gateway
            with contextlib.suppress(asyncio.CancelledError):
                error = await asyncio.gather(runner, return_exceptions=True)
                if error and isinstance(error[0], Exception):
                    _log.info("connection ended while closing: %s", error[0])
    finally:
        for sig in handled:
            loop.remove_signal_handler(sig)
    _log.info("stopped")


def log_database(settings: Settings) -> None:
    """Say at start where the data lives: the SQLite file, or the PostgreSQL URL (no
    password), never a file that is not in use."""
    where = parse_database(settings.database)
    if where.kind == "sqlite":
        _log.info("database file: %s", where.location)
    else:
        _log.info("database: %s (PostgreSQL)", where)


async def check_database(settings: Settings) -> None:
    """Open (and migrate) the database once and close it, before Discord is contacted: a
    database that cannot be opened is then named as such, not as a network failure."""
    store = await open_checked(settings.database, settings.database_setting, pool_size=1)
    await store.close()


def run_service(bot: StoppaBot, settings: Settings, *, sync_only: bool = False) -> int:
    """Run `serve` on a new event loop; returns the process exit code."""
    log_database(settings)
    try:
        asyncio.run(check_database(settings))
        asyncio.run(serve(bot, settings.token or "", sync_only=sync_only))
    except Exception as error:
        message = failure_message(error, settings.database, settings.database_setting)
        if message is None:
            raise
        if settings.log_level == "DEBUG":
            _log.error("start failed", exc_info=error)
        if settings.log_format == "json":  # a log collector reads JSON lines only
            _log.error("stoppa: %s", message)
        else:
            print(f"stoppa: {message}", file=sys.stderr)
        return START_FAILED_EXIT
    return 0
