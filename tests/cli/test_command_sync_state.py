"""Command sync on PostgreSQL and in a cluster (issue 26), through `python -m bot` in a real
subprocess against the fake Discord API of `tests/test_service.py`: the state lives in the
database, so an unchanged tree is not synced again and a former STOPPA_DEV_GUILD copy is
removed; of a cluster's processes only the one with shard 0 syncs."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest

from tests.store.conftest import postgres_schema
from tests.test_service import APP_ID, GOOD_TOKEN, FakeApi, api, finish, launch, started  # noqa: F401

pytestmark = pytest.mark.slow

GLOBAL = ("PUT", f"/applications/{APP_ID}/commands")


def guild_put(guild: int) -> tuple[str, str]:
    return ("PUT", f"/applications/{APP_ID}/guilds/{guild}/commands")


async def start_once(api: FakeApi, tmp_path: Path, env: dict[str, str]) -> list[tuple[str, str]]:  # noqa: F811
    """Start the bot, stop it once it asked for the gateway; the PUTs it sent."""
    seen = len(api.requests)
    api.gateway_asked.clear()
    proc = await launch(api.base, tmp_path, {"DISCORD_TOKEN": GOOD_TOKEN, **env})
    await started(proc, api)
    proc.send_signal(signal.SIGTERM)
    code, log = await finish(proc)
    assert code == 0, log
    return [r for r in api.requests[seen:] if r[0] == "PUT"]


async def test_on_postgres_an_unchanged_tree_is_not_synced_and_a_dev_copy_is_removed(
    tmp_path: Path, api: FakeApi  # noqa: F811
) -> None:
    async with postgres_schema() as pg:
        env = {"STOPPA_DATABASE_URL": pg.url}
        assert await start_once(api, tmp_path, {**env, "STOPPA_DEV_GUILD": "777"}) == [
            guild_put(777)
        ]
        assert await start_once(api, tmp_path, {**env, "STOPPA_DEV_GUILD": "777"}) == []
        assert await start_once(api, tmp_path, env) == [guild_put(777), GLOBAL]
        assert await start_once(api, tmp_path, env) == []
    assert list(tmp_path.iterdir()) == []  # no state file anywhere


async def start_shards(api: FakeApi, tmp_path: Path, env: dict[str, str]) -> list[tuple[str, str]]:  # noqa: F811
    """With its shard count set discord.py goes straight to Discord's own gateway host,
    which this machine cannot reach: the start runs up to that connection (setup_hook, with
    its sync, is done by then), and is stopped there."""
    seen = len(api.requests)
    proc = await launch(api.base, tmp_path, {"DISCORD_TOKEN": GOOD_TOKEN, **env})
    assert proc.stderr is not None
    log = []
    async with asyncio.timeout(60):
        while not any("gateway.discord.gg" in line for line in log):
            line = (await proc.stderr.readline()).decode()
            assert line, "".join(log)
            log.append(line)
    proc.send_signal(signal.SIGTERM)
    code, rest = await finish(proc)
    assert code == 0, "".join(log) + rest
    assert ("GET", "/oauth2/applications/@me") in api.requests[seen:]  # it logged in
    return [r for r in api.requests[seen:] if r[0] == "PUT"]


async def test_only_the_process_with_shard_0_syncs(tmp_path: Path, api: FakeApi) -> None:  # noqa: F811
    async with postgres_schema() as pg:
        env = {"STOPPA_DATABASE_URL": pg.url, "STOPPA_SHARD_COUNT": "2"}
        assert await start_shards(api, tmp_path, {**env, "STOPPA_SHARD_IDS": "1"}) == []
        assert await start_shards(api, tmp_path, {**env, "STOPPA_SHARD_IDS": "0"}) == [GLOBAL]
        assert await start_shards(api, tmp_path, {**env, "STOPPA_SHARD_IDS": "0-1"}) == []
