"""`STOPPA_METRICS_PORT` and `STOPPA_METRICS_HOST`, and each cluster process's own port.

Metrics are off unless `STOPPA_METRICS_PORT` is set. The server binds 127.0.0.1 by default
(a scraper on the same machine, or a sidecar); `STOPPA_METRICS_HOST=0.0.0.0` opens it to the
network (a Kubernetes pod scraped by its IP). `python -m bot cluster` runs several processes
on one machine: it gives process i the port `STOPPA_METRICS_PORT + i` (`cluster_environment`),
so with 9100 and three processes they serve 9100, 9101 and 9102.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.digits import plain_int

PORT_VARIABLE = "STOPPA_METRICS_PORT"
HOST_VARIABLE = "STOPPA_METRICS_HOST"
DEFAULT_HOST = "127.0.0.1"
MAX_PORT = 65_535


class MetricsSettingError(ValueError):
    """A metrics variable has a bad value; the message is one line naming it."""


@dataclass(frozen=True)
class MetricsSettings:
    """Where the metrics server listens (port 0: any free port, for tests)."""

    port: int
    host: str = DEFAULT_HOST


def _port(raw: str) -> int:
    port = plain_int(raw)
    if port is None or port > MAX_PORT:
        raise MetricsSettingError(
            f"{PORT_VARIABLE} must be a port number from 1 to {MAX_PORT} (got {raw!r})"
        )
    return port


def load_metrics(env: Mapping[str, str]) -> MetricsSettings | None:
    """The metrics settings of `env`, or None when metrics are off (no port)."""
    raw_port = (env.get(PORT_VARIABLE) or "").strip()
    if not raw_port:
        return None
    port = _port(raw_port)
    if port == 0:
        raise MetricsSettingError(
            f"{PORT_VARIABLE} must be a port number from 1 to {MAX_PORT} (got {raw_port!r})"
        )
    host = (env.get(HOST_VARIABLE) or "").strip() or DEFAULT_HOST
    return MetricsSettings(port=port, host=host)


def cluster_environment(base: Mapping[str, str], index: int) -> dict[str, str]:
    """The metrics variables of cluster process `index` (0, 1, ...): its own port, the base
    port plus its index; nothing when metrics are off (or the base port is bad: the child
    then refuses it with the one-line message)."""
    raw = (base.get(PORT_VARIABLE) or "").strip()
    port = plain_int(raw)
    if port is None or not 0 < port + index <= MAX_PORT:
        return {}
    return {PORT_VARIABLE: str(port + index)}
