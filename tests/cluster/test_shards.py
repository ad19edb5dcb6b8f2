"""Shard ownership and the STOPPA_SHARD_* settings (issue 17, traffic)."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.client import create_bot
from bot.cluster.shards import (
    ShardError,
    ShardPlan,
    format_shard_ids,
    parse_shard_ids,
    shard_of,
    split_shards,
)
from bot.config import ConfigError, load_settings
from tests.harness.snowflakes import Snowflakes

#: Real server ids (Discord's own developer servers), and their shards as Discord documents
#: the rule: (id >> 22) % count.
DISCORD_API = 81384788765712384  # "Discord API" server
DISCORD_DEVELOPERS = 613425648685547541  # "Discord Developers" server


def test_shard_of_real_snowflakes() -> None:
    assert DISCORD_API >> 22 == 19403645698  # milliseconds from 2015-01-01 to its creation
    assert [shard_of(DISCORD_API, n) for n in (1, 2, 3, 8, 16)] == [0, 0, 1, 2, 2]
    assert [shard_of(DISCORD_DEVELOPERS, n) for n in (1, 3, 5, 8, 16)] == [0, 2, 4, 0, 8]
    # the low 22 bits (worker, process, increment) never change the shard
    assert shard_of(DISCORD_API | 0x3FFFFF, 8) == shard_of(DISCORD_API & ~0x3FFFFF, 8)


def test_servers_created_a_millisecond_apart_go_to_the_next_shard() -> None:
    ids = [Snowflakes(base_ms=1_735_689_600_000 + n).next() for n in range(9)]
    first = shard_of(ids[0], 4)
    assert [shard_of(g, 4) for g in ids] == [(first + n) % 4 for n in range(9)]


def test_owns_only_the_servers_of_its_shards() -> None:
    plan = ShardPlan(8, (0, 1, 2, 3))
    assert plan.owns(DISCORD_API)  # shard 2
    assert plan.owns(DISCORD_DEVELOPERS)  # shard 0
    other = ShardPlan(8, (4, 5, 6, 7))
    assert not other.owns(DISCORD_API) and not other.owns(DISCORD_DEVELOPERS)
    assert ShardPlan(3, (1,)).owns(DISCORD_API) and not ShardPlan(3, (1,)).owns(
        DISCORD_DEVELOPERS)
    assert ShardPlan(8).owns(DISCORD_API)  # no ids: every shard


@given(st.integers(min_value=1, max_value=64), st.integers(min_value=1, max_value=64),
       st.lists(st.integers(min_value=0, max_value=2**63 - 1), max_size=30))
def test_split_gives_every_server_exactly_one_process(shards: int, processes: int,
                                                      guilds: list[int]) -> None:
    if processes > shards:
        with pytest.raises(ShardError):
            split_shards(shards, processes)
        return
    plans = split_shards(shards, processes)
    assert len(plans) == processes
    assert [s for plan in plans for s in plan.ids] == list(range(shards))
    sizes = [len(plan.ids) for plan in plans]
    assert max(sizes) - min(sizes) <= 1
    for guild in guilds:
        assert sum(plan.owns(guild) for plan in plans) == 1
    for plan in plans:  # what a child gets in STOPPA_SHARD_IDS reads back the same
        assert parse_shard_ids(plan.describe_ids(), shards) == plan.ids


def test_split_examples() -> None:
    assert [p.describe_ids() for p in split_shards(8, 3)] == ["0-2", "3-5", "6-7"]
    assert [p.describe_ids() for p in split_shards(4, 4)] == ["0", "1", "2", "3"]
    assert format_shard_ids([0, 2, 3, 4, 7]) == "0,2-4,7"


@pytest.mark.parametrize(("text", "ids"), [
    ("0-3", (0, 1, 2, 3)), ("0,2,5", (0, 2, 5)), (" 5 , 0-1 ", (0, 1, 5)), ("7", (7,)),
])
def test_parse_shard_ids(text: str, ids: tuple[int, ...]) -> None:
    assert parse_shard_ids(text, 8) == ids


@pytest.mark.parametrize(("text", "words"), [
    ("0-8", "shard 8 does not exist"), ("3-1", "goes backwards"), ("a", "not a shard id"),
    ("0,,1", "not a shard id"), ("-1", "not a shard id"), ("1,0-2", "listed twice"),
    ("0-", "not a shard id"),
])
def test_bad_shard_ids_say_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(ShardError, match=words):
        parse_shard_ids(text, 8)


def test_settings_read_the_shards() -> None:
    s = load_settings({"STOPPA_SHARD_COUNT": "8", "STOPPA_SHARD_IDS": "0-3"})
    assert (s.shard_count, s.shard_ids) == (8, (0, 1, 2, 3))
    s = load_settings({"STOPPA_SHARD_COUNT": "8", "STOPPA_SHARD_IDS": "0,2,5"})
    assert s.shard_ids == (0, 2, 5)
    s = load_settings({"STOPPA_SHARD_COUNT": "4"})
    assert (s.shard_count, s.shard_ids) == (4, None)
    s = load_settings({})
    assert (s.shard_count, s.shard_ids) == (None, None)


@pytest.mark.parametrize("env", [
    {"STOPPA_SHARD_IDS": "0-3"},
    {"STOPPA_SHARD_COUNT": "0"},
    {"STOPPA_SHARD_COUNT": "many"},
    {"STOPPA_SHARD_COUNT": "-2"},
    {"STOPPA_SHARD_COUNT": "8", "STOPPA_SHARD_IDS": "0-8"},
    {"STOPPA_SHARD_COUNT": "8", "STOPPA_SHARD_IDS": "zero"},
    {"STOPPA_SHARD_COUNT": "8", "STOPPA_SHARD_IDS": "1,1"},
])
def test_bad_shard_settings_are_one_line_naming_the_variable(env: dict[str, str]) -> None:
    with pytest.raises(ConfigError) as info:
        load_settings(env)
    message = str(info.value)
    assert "\n" not in message
    assert ("STOPPA_SHARD_IDS" in message) if "STOPPA_SHARD_IDS" in env else (
        "STOPPA_SHARD_COUNT" in message)


def test_create_bot_runs_only_its_shards(tmp_path: Path) -> None:
    """Nothing connects before `start`; discord.py launches exactly `shard_ids`."""
    bot = create_bot(str(tmp_path / "s.db"), shard_count=8, shard_ids=(4, 5, 6, 7))
    assert isinstance(bot, discord.AutoShardedClient)
    assert bot.shard_count == 8 and bot.shard_ids == [4, 5, 6, 7]
    default = create_bot(str(tmp_path / "s.db"))
    assert default.shard_count is None and default.shard_ids is None


def test_run_bot_starts_the_shards_of_the_settings(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """`python -m bot` with STOPPA_SHARD_COUNT=8, STOPPA_SHARD_IDS=0,2,5 launches those three
    (the service runner is replaced so nothing connects)."""
    import bot.lifecycle
    from bot.client import run_bot

    seen: list[discord.AutoShardedClient] = []

    def fake_run_service(bot: discord.AutoShardedClient, settings: object, **_: object) -> int:
        seen.append(bot)
        return 0

    monkeypatch.setattr(bot.lifecycle, "run_service", fake_run_service)
    settings = load_settings({"DISCORD_TOKEN": "t", "STOPPA_DB": str(tmp_path / "b.db"),
                              "STOPPA_SHARD_COUNT": "8", "STOPPA_SHARD_IDS": "0,2,5"})
    assert run_bot(settings) == 0
    assert seen[0].shard_count == 8 and seen[0].shard_ids == [0, 2, 5]
