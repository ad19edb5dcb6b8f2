"""`python -m bot` as a service, in a real subprocess (issue 15: start and stop like a service).

The subprocess runs the real entry point (`bot.__main__.main`) with discord.py's REST base URL
pointed at a small fake Discord API served by this test (`FakeApi`): login, the command sync
and `GET /gateway/bot` are answered; the gateway URL it returns is a closed local port, so the
bot keeps retrying the connection, as it would with Discord's gateway down, until it is
signalled.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import sqlite3
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from bot.store import Store
from tests.discord_table.test_game import open_table
from tests.harness import Harness
from tests.test_thinking import gone

ROOT = Path(__file__).resolve().parents[1]
GOOD_TOKEN = "good.token.for-the-fake-api"
APP_ID = 4242

#: Runs the real entry point with discord.py's API base URL moved to the fake API.
LAUNCHER = (
    "import sys, discord.http; discord.http.Route.BASE = sys.argv[1]; "
    "from bot.__main__ import main; sys.exit(main(sys.argv[2:]))"
)


def closed_port() -> int:
    """A local TCP port nothing listens on (connections are refused)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def reply(data: Any, status: int = 200) -> web.Response:
    """A JSON answer with Discord's exact content type (discord.py parses only that one)."""
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


class FakeApi:
    """Discord's REST API as far as a start needs it; records every request."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, str]] = []
        self.gateway_asked = asyncio.Event()
        self.gateway_url = f"ws://127.0.0.1:{closed_port()}"
        self.base = ""

    async def handle(self, request: web.Request) -> web.StreamResponse:
        path = request.path.removeprefix("/api/v10")
        self.requests.append((request.method, path))
        if request.headers.get("Authorization") != f"Bot {GOOD_TOKEN}":
            return reply({"message": "401: Unauthorized", "code": 0}, status=401)
        if path == "/users/@me":
            return reply(
                {"id": str(APP_ID), "username": "Stoppa", "discriminator": "0", "avatar": None,
                 "bot": True}
            )
        if path == "/oauth2/applications/@me":
            return reply(
                {"id": str(APP_ID), "name": "Stoppa", "icon": None, "description": "",
                 "bot_public": True, "bot_require_code_grant": False, "verify_key": "0" * 64,
                 "owner": {"id": "1", "username": "o", "discriminator": "0", "avatar": None},
                 "team": None, "flags": 0}
            )
        if path.startswith(f"/applications/{APP_ID}/") and request.method == "PUT":
            body: list[dict[str, Any]] = await request.json()
            return reply(
                [{**c, "id": str(900 + i), "application_id": str(APP_ID), "version": "1",
                  "type": c.get("type", 1)} for i, c in enumerate(body)]
            )
        if path == "/gateway/bot":
            self.gateway_asked.set()
            return reply(
                {"url": self.gateway_url, "shards": 1,
                 "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0,
                                         "max_concurrency": 1}}
            )
        return reply({"message": "not faked", "code": 0}, status=404)


@pytest.fixture
async def api() -> AsyncIterator[FakeApi]:
    fake = FakeApi()
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", fake.handle)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    fake.base = f"http://127.0.0.1:{port}/api/v10"
    try:
        yield fake
    finally:
        await runner.cleanup()


async def launch(
    base: str, cwd: Path, env_extra: dict[str, str], *args: str
) -> asyncio.subprocess.Process:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "STOPPA_"))}
    env.update(env_extra, PYTHONPATH=str(ROOT))
    return await asyncio.create_subprocess_exec(
        sys.executable, "-c", LAUNCHER, base, *args,
        cwd=cwd, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )


async def started(proc: asyncio.subprocess.Process, api: FakeApi) -> None:
    """Wait until the bot asked for the gateway (store, tables, cogs and sync are done)."""
    exited = asyncio.create_task(proc.wait())
    asked = asyncio.create_task(api.gateway_asked.wait())
    await asyncio.wait({exited, asked}, timeout=60, return_when=asyncio.FIRST_COMPLETED)
    if not asked.done():
        asked.cancel()
        if proc.returncode is None:
            proc.kill()
        _, err = await proc.communicate()
        raise AssertionError(f"the bot did not start; requests {api.requests}; log:\n"
                             + err.decode())
    exited.cancel()


async def finish(proc: asyncio.subprocess.Process, timeout: float = 60) -> tuple[int, str]:
    _, err = await asyncio.wait_for(proc.communicate(), timeout)
    assert proc.returncode is not None
    return proc.returncode, re.sub(r"\x1b\[[0-9;]*m", "", err.decode())  # no colours


async def table_rows(db: Path) -> list[tuple[int, str]]:
    store = await Store.open(str(db))
    try:
        return [(row.id, repr(row)) for row in await store.load_open_tables()]
    finally:
        await store.close()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
async def test_a_stop_signal_closes_the_bot_and_keeps_the_table(
    tmp_path: Path, api: FakeApi, sig: signal.Signals
) -> None:
    async with Harness.create(tmp_path, db_name="stoppa.db") as h:
        await open_table(h, [h.member(name) for name in ("Anna", "Bruno", "Carla")])
    db = tmp_path / "stoppa.db"
    before = await table_rows(db)
    assert len(before) == 1

    proc = await launch(api.base, tmp_path, {"DISCORD_TOKEN": GOOD_TOKEN, "STOPPA_DB": "stoppa.db",
                                             "STOPPA_CPU_PROCESSES": "1"})
    await started(proc, api)
    assert (tmp_path / "stoppa.db-wal").exists()  # the database is open
    proc.send_signal(sig)
    code, log = await finish(proc)

    assert code == 0, log
    worker = re.search(r"CPU players think in 1 worker process \(pids (\d+)\)", log)
    assert worker is not None, log
    assert await gone(int(worker[1])), "the CPU worker outlived the bot"
    frozen = re.search(r"start-up done: (\d+) objects frozen", log)  # bot.heap
    assert frozen is not None and int(frozen[1]) > 10_000, log
    assert f"{sig.name} received: closing the bot" in log
    assert "1 open tables stay in the database" in log
    assert "database closed" in log
    assert "did not stop cleanly" not in log and " ERROR    stoppa" not in log
    assert not (tmp_path / "stoppa.db-wal").exists()  # closed cleanly: WAL checkpointed
    assert await table_rows(db) == before  # the hand in progress, as it was


async def test_the_absolute_database_path_is_logged(tmp_path: Path, api: FakeApi) -> None:
    (tmp_path / "data").mkdir()
    proc = await launch(api.base, tmp_path, {"DISCORD_TOKEN": GOOD_TOKEN, "STOPPA_DB": "data/x.db"})
    await started(proc, api)
    proc.send_signal(signal.SIGTERM)
    code, log = await finish(proc)
    assert code == 0
    assert f"database file: {(tmp_path / 'data' / 'x.db').resolve()}" in log


async def test_a_wrong_token_is_one_line_and_exit_1(tmp_path: Path, api: FakeApi) -> None:
    proc = await launch(api.base, tmp_path, {"DISCORD_TOKEN": "wrong"})
    code, log = await finish(proc)
    assert code == 1
    (line,) = [x for x in log.splitlines() if x.startswith("stoppa:")]
    assert "DISCORD_TOKEN" in line and "Reset Token" in line
    assert "Traceback" not in log
    assert "wrong" not in line


async def test_a_wrong_token_shows_the_traceback_at_debug(tmp_path: Path, api: FakeApi) -> None:
    proc = await launch(api.base, tmp_path, {"DISCORD_TOKEN": "wrong", "STOPPA_LOG_LEVEL": "DEBUG"})
    code, log = await finish(proc)
    assert code == 1
    assert "Traceback" in log and "LoginFailure" in log


async def test_no_network_is_one_line_and_exit_1(tmp_path: Path) -> None:
    base = f"http://127.0.0.1:{closed_port()}/api/v10"  # connection refused
    proc = await launch(base, tmp_path, {"DISCORD_TOKEN": GOOD_TOKEN})
    code, log = await finish(proc)
    assert code == 1
    (line,) = [x for x in log.splitlines() if x.startswith("stoppa:")]
    assert "cannot reach Discord" in line and "internet connection" in line
    assert "Traceback" not in log


async def test_a_locked_database_is_one_line_and_exit_1(tmp_path: Path, api: FakeApi) -> None:
    db = tmp_path / "locked.db"
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("CREATE TABLE held (x)")  # takes the exclusive lock and keeps it
    try:
        proc = await launch(api.base, tmp_path, {"DISCORD_TOKEN": GOOD_TOKEN, "STOPPA_DB": str(db)})
        code, log = await finish(proc)
    finally:
        holder.close()
    assert code == 1
    (line,) = [x for x in log.splitlines() if x.startswith("stoppa:")]
    assert str(db) in line and "locked by another program" in line
    assert "Traceback" not in log


async def test_sync_forces_a_sync_then_stops_and_run_skips_an_unchanged_tree(
    tmp_path: Path, api: FakeApi
) -> None:
    env = {"DISCORD_TOKEN": GOOD_TOKEN, "STOPPA_DB": "stoppa.db"}
    for _ in range(2):  # twice: the second sync is forced though nothing changed
        seen = len(api.requests)
        code, log = await finish(await launch(api.base, tmp_path, env, "sync"))
        assert code == 0, log
        assert ("PUT", f"/applications/{APP_ID}/commands") in api.requests[seen:]
        assert ("GET", "/gateway/bot") not in api.requests  # it never connects
    seen = len(api.requests)
    proc = await launch(api.base, tmp_path, env)
    await started(proc, api)
    proc.send_signal(signal.SIGTERM)
    code, log = await finish(proc)
    assert code == 0
    assert [r for r in api.requests[seen:] if r[0] == "PUT"] == []
    assert "application commands unchanged since the last sync" in log
