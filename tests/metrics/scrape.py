"""Reading the metrics server as Prometheus would: a real HTTP GET, the text format parsed by
prometheus-client's own parser."""

from __future__ import annotations

from dataclasses import dataclass

import aiohttp
from prometheus_client.parser import text_string_to_metric_families


@dataclass(frozen=True)
class Page:
    """One answer of the server."""

    status: int
    content_type: str
    text: str


async def get(url: str) -> Page:
    """GET `url` with a fresh aiohttp client."""
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return Page(response.status, response.headers.get("Content-Type", ""),
                    await response.text())


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a Prometheus text page: (name, sorted labels) -> value."""
    out: dict[tuple[str, tuple[tuple[str, str], ...]], float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


async def scrape(base_url: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """The samples of `base_url/metrics` (asserting a 200 in Prometheus's text format)."""
    page = await get(base_url + "/metrics")
    assert page.status == 200, page.text
    assert page.content_type.startswith("text/plain"), page.content_type
    return samples(page.text)


def value(found: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str,
          **labels: str) -> float:
    """One sample's value (0 when the series is not there yet)."""
    return found.get((name, tuple(sorted(labels.items()))), 0.0)
