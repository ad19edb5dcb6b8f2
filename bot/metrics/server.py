"""The metrics server: `/metrics`, `/livez` and `/readyz`, served on the bot's event loop.

Why aiohttp on the bot's own loop (and not prometheus-client's server thread): a probe must
tell whether the bot can work, and the bot works on its event loop. A thread would keep
answering `/livez` while the loop is stuck, and could read neither the shards nor the
database; here `/livez` answering proves the loop turns, `/readyz` asks the real store, and a
scrape reads the shards and tables on the thread that owns them. aiohttp comes with
discord.py, so nothing is added; a scrape costs the loop about a millisecond.

- `/livez`: 200 while the process and its loop answer. It never looks at the gateway, so a
  reconnect (Discord closes gateway connections routinely) never gets the process restarted.
- `/readyz`: 200 when the bot is ready, every shard of this process is connected and the
  database answers a query within `DB_CHECK_TIMEOUT`; else 503 with the reasons, one a line.
- `/metrics`: the registry in Prometheus's text format, plus the gauges read from the bot
  at that moment (`BotCollector`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

import bot.metrics as metrics
from bot.metrics.errors import ErrorCounter, count_errors
from bot.metrics.settings import MetricsSettings

if TYPE_CHECKING:
    from bot.client import StoppaBot

_log = logging.getLogger("stoppa.metrics")

#: seconds the database may take to answer a readiness check
DB_CHECK_TIMEOUT = 2.0


@runtime_checkable
class Answering(Protocol):
    """A store that runs a plain query (both drivers do: `CopyableStore.query`)."""

    async def query(self, sql: str, params: Sequence[object] = ()) -> Sequence[Sequence[Any]]:
        """Every row of one read statement."""
        ...


class BotCollector(Collector):
    """Gauges read from the running bot at scrape time (nothing is kept between scrapes)."""

    def __init__(self, bot: StoppaBot) -> None:
        self.bot = bot

    def collect(self) -> Iterable[Metric]:
        bot = self.bot
        tables = GaugeMetricFamily("stoppa_open_tables", "Tables this process drives now")
        tables.add_metric([], len(bot.tables.tables()) if bot.tables is not None else 0)
        yield tables
        shards = bot.shards
        ready = GaugeMetricFamily(
            "stoppa_shards_ready", "Shards of this process connected to the gateway"
        )
        ready.add_metric([], sum(not shard.is_closed() for shard in shards.values()))
        yield ready
        total = GaugeMetricFamily("stoppa_shards", "Shards this process runs")
        total.add_metric([], len(shards))
        yield total
        latency = GaugeMetricFamily(
            "stoppa_gateway_latency_seconds",
            "Time from a gateway heartbeat to its acknowledgement, by shard", labels=["shard"],
        )
        for shard_id, seconds in bot.latencies:
            if seconds == seconds and seconds != float("inf"):  # none measured yet: nan / inf
                latency.add_metric([str(shard_id)], seconds)
        yield latency


async def not_ready_reasons(bot: StoppaBot) -> list[str]:
    """Why the bot is not ready to serve (empty when it is)."""
    reasons: list[str] = []
    if not bot.is_ready():
        reasons.append("gateway: not ready yet")
    closed = sorted(shard_id for shard_id, shard in bot.shards.items() if shard.is_closed())
    if closed:
        reasons.append("gateway: shards not connected: " + ", ".join(map(str, closed)))
    store = bot.store
    if not isinstance(store, Answering):
        reasons.append("database: not open")
    else:
        try:
            await asyncio.wait_for(store.query("SELECT 1"), DB_CHECK_TIMEOUT)
        except Exception as error:
            reasons.append(f"database: {type(error).__name__}")
    return reasons


class Pages:
    """The three pages, about one bot."""

    def __init__(self, bot: StoppaBot) -> None:
        self.bot = bot

    def routes(self) -> list[web.RouteDef]:
        return [
            web.get("/metrics", self.metrics),
            web.get("/livez", self.livez),
            web.get("/readyz", self.readyz),
        ]

    async def metrics(self, request: web.Request) -> web.Response:
        recorder = metrics.active()
        body = generate_latest(recorder.registry) if recorder is not None else b""
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def livez(self, request: web.Request) -> web.Response:
        return web.Response(text="ok\n")

    async def readyz(self, request: web.Request) -> web.Response:
        reasons = await not_ready_reasons(self.bot)
        if reasons:
            return web.Response(status=503, text="\n".join(reasons) + "\n")
        return web.Response(text="ready\n")


@dataclass
class MetricsServer:
    """A running metrics server (`stop()` it when the bot closes)."""

    runner: web.AppRunner
    collector: BotCollector
    errors: ErrorCounter
    #: (host, port) it listens on (the port the system chose, when asked for port 0)
    address: tuple[str, int]

    @classmethod
    async def start(cls, bot: StoppaBot, settings: MetricsSettings) -> MetricsServer:
        """Turn recording on, watch `bot` and listen on `settings.host:settings.port`."""
        recorder = metrics.enable()
        app = web.Application()
        app.add_routes(Pages(bot).routes())
        runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await runner.setup()
        try:
            await web.TCPSite(runner, settings.host, settings.port).start()
        except BaseException:
            await runner.cleanup()
            raise
        host, port = runner.addresses[0][:2]
        collector = BotCollector(bot)
        recorder.register(collector)
        _log.info("metrics on http://%s:%s/metrics (probes /livez, /readyz)", host, port)
        return cls(runner, collector, count_errors(), (str(host), int(port)))

    @property
    def url(self) -> str:
        """The base URL (`http://127.0.0.1:9100`)."""
        host, port = self.address
        return f"http://{host}:{port}"

    async def stop(self) -> None:
        """Stop listening, reading the bot and counting errors (the counts stay until
        `bot.metrics.disable`)."""
        logging.getLogger().removeHandler(self.errors)
        recorder = metrics.active()
        if recorder is not None:
            recorder.registry.unregister(self.collector)
        await self.runner.cleanup()


async def start_metrics(bot: StoppaBot, settings: MetricsSettings | None) -> MetricsServer | None:
    """Start the metrics server when `settings` say so (None: metrics off, nothing runs)."""
    return None if settings is None else await MetricsServer.start(bot, settings)
