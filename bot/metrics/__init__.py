"""What a running bot tells its operator: Prometheus metrics, and live/ready probes.

Off by default. With `STOPPA_METRICS_PORT` set (`bot.metrics.settings`), the bot serves on
127.0.0.1 (or `STOPPA_METRICS_HOST`), on its own event loop (`bot.metrics.server`):
`/metrics` (Prometheus text), `/livez` and `/readyz`.

The rest of the bot records through the functions below, one line at one place each (the
store's transaction runners, the request budget, the table session, the lease keeper). While
metrics are off they return at the first test of a module variable, so the hooks cost nothing
measurable; `enable()` makes them record into a `StoppaMetrics` (`bot.metrics.registry`).
What no hook of ours sees is read elsewhere: Discord's 429s and the interaction answers from
discord.py's HTTP session (`bot.metrics.discord_http`), errors from the log records
(`bot.metrics.errors`), open tables, shards and gateway latency from the bot at scrape time
(`bot.metrics.server`).

Metrics are per process (Prometheus scrapes processes), so the recorder is one per process.
"""

from __future__ import annotations

import time

import prometheus_client

from bot.metrics.registry import StoppaMetrics

_active: StoppaMetrics | None = None


def enable() -> StoppaMetrics:
    """Start recording (idempotent); the process's `StoppaMetrics`."""
    global _active
    if _active is None:
        # no `*_created` series (the start time of each counter): clutter to a scraper
        prometheus_client.disable_created_metrics()
        _active = StoppaMetrics()
    return _active


def disable() -> None:
    """Stop recording and forget what was recorded (tests, benchmarks)."""
    global _active
    _active = None


def active() -> StoppaMetrics | None:
    """The recorder while metrics are on, else None."""
    return _active


def started() -> float:
    """A start time for `transaction_committed` (0.0 while off: no clock read)."""
    return time.perf_counter() if _active is not None else 0.0


def transaction_committed(driver: str, since: float) -> None:
    """A store transaction of `driver` ("sqlite", "postgres") committed; `since` is `started()`."""
    if _active is not None:
        _active.transaction_committed(driver, time.perf_counter() - since)


def transaction_retried(driver: str) -> None:
    """The database aborted a transaction of `driver`, which runs again."""
    if _active is not None:
        _active.transaction_retries.labels(driver).inc()


def budget_waited(seconds: float) -> None:
    """A bot-token request waited `seconds` for room in the request budget."""
    if _active is not None:
        _active.budget_waits.inc()
        _active.budget_wait_seconds.observe(seconds)


def action_applied(action: object) -> None:
    """The engine applied `action` (an engine action object: its class names the kind)."""
    if _active is not None:
        _active.action_applied(type(action).__name__.lower())


def hand_finished() -> None:
    """A hand was played to its end and committed."""
    if _active is not None:
        _active.hands_finished.inc()


def lease_taken_over() -> None:
    """This process took over a table whose owner's lease expired."""
    if _active is not None:
        _active.lease_takeovers.inc()


__all__ = [
    "StoppaMetrics",
    "action_applied",
    "active",
    "budget_waited",
    "disable",
    "enable",
    "hand_finished",
    "lease_taken_over",
    "started",
    "transaction_committed",
    "transaction_retried",
]
