"""Logs written to a pipe (issue 26): plain lines without ANSI colours, no warnings about
voice libraries the bot does not use, and `STOPPA_LOG_FORMAT=json` as one JSON object per
line, with the server and the table on a table's lines."""

from __future__ import annotations

import io
import json
import logging
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.logs import JsonLineFormatter, table_log
from tests.discord_table.test_game import open_table
from tests.harness import Harness
from tests.test_service import GOOD_TOKEN, FakeApi, api, launch, started  # noqa: F401

pytestmark = pytest.mark.slow


async def start_and_stop(api: FakeApi, tmp_path: Path, **env: str) -> str:  # noqa: F811
    proc = await launch(api.base, tmp_path, {"DISCORD_TOKEN": GOOD_TOKEN, **env})
    await started(proc, api)
    proc.send_signal(signal.SIGTERM)
    _, err = await proc.communicate()
    assert proc.returncode == 0, err.decode()
    return err.decode()


async def test_a_pipe_gets_plain_lines_and_no_voice_warnings(
    tmp_path: Path, api: FakeApi  # noqa: F811
) -> None:
    log = await start_and_stop(api, tmp_path, STOPPA_DB="stoppa.db")
    assert "\x1b[" not in log  # discord.py colours any output in Docker, even a pipe
    assert "PyNaCl" not in log and "davey" not in log and "voice" not in log
    assert "] [INFO    ] stoppa.service: database file: " in log


async def test_json_lines_carry_time_level_logger_and_message(
    tmp_path: Path, api: FakeApi  # noqa: F811
) -> None:
    log = await start_and_stop(api, tmp_path, STOPPA_DB="stoppa.db", STOPPA_LOG_FORMAT="json")
    records = [json.loads(line) for line in log.splitlines() if line.strip()]
    assert len(records) >= 5
    for record in records:
        assert {"time", "level", "logger", "message"} <= set(record)
        assert record["time"].endswith("+00:00")
    assert any(r["logger"] == "stoppa.service" and r["message"].startswith("database file")
               for r in records)


@pytest.fixture
def json_table_lines() -> Iterator[io.StringIO]:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonLineFormatter())
    table_log.addHandler(handler)
    level = table_log.level
    table_log.setLevel(logging.INFO)
    try:
        yield out
    finally:
        table_log.removeHandler(handler)
        table_log.setLevel(level)


async def test_a_tables_json_lines_name_its_server_and_table(
    tmp_path: Path, json_table_lines: io.StringIO
) -> None:
    async with Harness.create(tmp_path, seed=3) as h:
        await open_table(h, [h.member(name) for name in ("Anna", "Bruno", "Carla")])
        (row,) = await h.store.load_open_tables()
    records = [json.loads(line) for line in json_table_lines.getvalue().splitlines()]
    assert records, "a started hand logs its events"
    for record in records:
        assert record["logger"] == "stoppa.table"
        assert record["server"] == h.guild_id and record["table"] == row.id
