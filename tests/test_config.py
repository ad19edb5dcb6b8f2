"""Settings from the environment (issue: project skeleton)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import thinking
from bot.config import ConfigError, load_settings, resolve_db_path


def test_defaults_when_nothing_is_set() -> None:
    s = load_settings({})
    assert s.token is None
    assert s.db_path == str(Path.cwd() / "data" / "stoppa.db")  # resolved (issue 15)
    assert s.log_level == "INFO"
    assert s.turn_timeout == 60.0
    assert s.dev_guild is None


def test_values_are_read_and_cleaned() -> None:
    s = load_settings(
        {
            "DISCORD_TOKEN": " abc.def ",
            "STOPPA_DB": "/tmp/x.db",
            "STOPPA_LOG_LEVEL": "debug",
            "STOPPA_TURN_TIMEOUT": "12.5",
            "STOPPA_DEV_GUILD": "123456789012345678",
        }
    )
    assert s.token == "abc.def"
    assert s.db_path == "/tmp/x.db"
    assert s.log_level == "DEBUG"
    assert s.turn_timeout == 12.5
    assert s.dev_guild == 123456789012345678


def test_cpu_processes_default_to_the_cores_but_one_and_zero_means_a_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for cores, processes in ((1, 1), (2, 1), (3, 2), (16, 4)):
        monkeypatch.setattr(thinking, "usable_cores", lambda cores=cores: cores)
        assert load_settings({}).cpu_processes == processes
    assert load_settings({"STOPPA_CPU_PROCESSES": "0"}).cpu_processes == 0
    assert load_settings({"STOPPA_CPU_PROCESSES": " 3 "}).cpu_processes == 3


def test_empty_values_mean_default() -> None:
    s = load_settings({"STOPPA_DB": "", "STOPPA_DEV_GUILD": "  ", "DISCORD_TOKEN": ""})
    assert s.db_path == str(Path.cwd() / "data" / "stoppa.db")
    assert s.dev_guild is None and s.token is None


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("STOPPA_LOG_LEVEL", "LOUD"),
        ("STOPPA_TURN_TIMEOUT", "soon"),
        ("STOPPA_TURN_TIMEOUT", "0"),
        ("STOPPA_TURN_TIMEOUT", "-5"),
        ("STOPPA_TURN_TIMEOUT", "nan"),
        ("STOPPA_DEV_GUILD", "my-server"),
        ("STOPPA_DEV_GUILD", "0"),
        # Python's isdigit() takes these: a settings number is ASCII digits only
        ("STOPPA_DEV_GUILD", "²"),
        ("STOPPA_DEV_GUILD", "١٢٣"),
        ("STOPPA_DB_POOL_SIZE", "²"),
        ("STOPPA_DB_POOL_SIZE", "١٠"),
        ("STOPPA_SHARD_COUNT", "²"),
        ("STOPPA_SHARD_COUNT", "٢"),
        ("STOPPA_CPU_PROCESSES", "-1"),
        ("STOPPA_CPU_PROCESSES", "65"),
        ("STOPPA_CPU_PROCESSES", "two"),
    ],
)
def test_bad_values_name_the_variable_in_one_line(name: str, value: str) -> None:
    with pytest.raises(ConfigError) as info:
        load_settings({name: value})
    message = str(info.value)
    assert name in message
    assert "\n" not in message


def test_repr_never_shows_the_token() -> None:
    s = load_settings({"DISCORD_TOKEN": "super-secret-token"})
    assert "super-secret-token" not in repr(s)
    assert "super-secret-token" not in str(s)


def test_a_relative_database_path_is_resolved_against_the_start_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    s = load_settings({"STOPPA_DB": "games/../stoppa.db"})
    assert s.db_path == str(tmp_path.resolve() / "stoppa.db")
    assert resolve_db_path("x.db", cwd=Path("/srv/bot")) == "/srv/bot/x.db"
    assert resolve_db_path("~/x.db").startswith(str(Path.home()))


def test_urls_and_memory_databases_are_not_paths() -> None:
    assert resolve_db_path(":memory:") == ":memory:"
    assert resolve_db_path("postgresql://u@h/db") == "postgresql://u@h/db"


@pytest.mark.parametrize("value", ["0", "0.0", "-1", "86401"])
def test_a_turn_timeout_out_of_range_says_what_is_allowed(value: str) -> None:
    with pytest.raises(ConfigError) as info:
        load_settings({"STOPPA_TURN_TIMEOUT": value})
    message = str(info.value)
    assert "more than 0 seconds" in message and "at most 86400" in message
    assert "between 0 and" not in message  # 0 itself is refused


def test_a_turn_timeout_of_a_whole_day_is_accepted() -> None:
    assert load_settings({"STOPPA_TURN_TIMEOUT": "86400"}).turn_timeout == 86_400.0
