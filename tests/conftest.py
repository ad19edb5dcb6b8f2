"""What every test shares: Discord's published API spec checked on every request the harness
captured (after each phase of each test), and the members most Discord tests use, each made
in the harness `h` that the test's own folder provides (its conftest chooses the seed).

The spec check (`tests.harness.contract`) fails the phase of the test whose requests differ
from Discord's OpenAPI document, naming the route and the JSON path. `STOPPA_SPEC_CHECK=0`
turns it off (to time what it costs); `STOPPA_SPEC_REPORT=1` lists every route it saw.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import AsyncIterator, Generator
from pathlib import Path
from typing import ClassVar

import pytest

from tests.harness import FakeMember, Harness
from tests.harness.backends import BACKENDS, harness_on
from tests.harness.contract import DiscordSpec
from tests.harness.transport import RECORDED

SPEC_CHECK = os.environ.get("STOPPA_SPEC_CHECK", "1") != "0"


class Tally:
    """What the spec check saw in this run (the terminal summary prints it)."""

    requests = 0
    violations = 0
    seconds = 0.0
    routes: ClassVar[Counter[str]] = Counter()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """After each phase (setup, call, teardown): check the requests captured meanwhile; a
    request outside the spec fails that phase of this test."""
    report = yield
    if not RECORDED:
        return report
    calls = list(RECORDED)
    RECORDED.clear()
    if not SPEC_CHECK:
        return report
    started = time.perf_counter()
    spec = DiscordSpec.load()
    problems = [str(v) for c in calls for v in spec.check(c)]
    Tally.routes.update(spec.route(c) for c in calls)
    Tally.seconds += time.perf_counter() - started
    Tally.requests += len(calls)
    Tally.violations += len(problems)
    if problems and not report.failed:
        shown = sorted(set(problems))
        report.outcome = "failed"
        report.longrepr = (
            f"{len(problems)} request(s) of {item.nodeid} ({call.when}) differ from Discord's "
            "API spec (tests/harness/discord_spec):\n  " + "\n  ".join(shown[:40])
        )
    return report


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One line: how many requests were checked, on how many routes, in how long."""
    if not SPEC_CHECK or not Tally.requests:
        return
    terminalreporter.write_line(
        f"Discord API spec: {Tally.requests} requests checked on {len(Tally.routes)} routes, "
        f"{Tally.violations} violations, {Tally.seconds:.1f} s"
    )
    if os.environ.get("STOPPA_SPEC_REPORT") == "1":
        for route, count in sorted(Tally.routes.items()):
            terminalreporter.write_line(f"  {count:7d}  {route}")


@pytest.fixture
def anna(h: Harness) -> FakeMember:
    """An ordinary member whose Discord is in Italian."""
    return h.member("Anna", locale="it")


@pytest.fixture
def bob(h: Harness) -> FakeMember:
    """An ordinary member whose Discord is in English."""
    return h.member("Bob", locale="en-GB")


@pytest.fixture
def boss(h: Harness) -> FakeMember:
    """A member with the Manage Server permission (through a role), Discord in English."""
    return h.member("Boss", locale="en-US", manage_guild=True)


@pytest.fixture(params=BACKENDS)
async def hdb(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Harness]:
    """A ready bot on each database (SQLite, then PostgreSQL when a server is given)."""
    async with harness_on(request.param, tmp_path, seed=1) as harness:
        yield harness
