"""Settings read from the environment (and a `.env` file through python-dotenv)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from bot.digits import plain_int
from bot.metrics.settings import MetricsSettingError, MetricsSettings, load_metrics
from bot.store.factory import DatabaseUrlError, parse_database_url, without_password

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


DEFAULT_DB = "data/stoppa.db"
#: The longest turn clock, in seconds (one day; as `/settings` allows).
MAX_TURN_TIMEOUT = 86_400.0
#: The most worker processes `STOPPA_CPU_PROCESSES` may ask for.
MAX_CPU_PROCESSES = 64


def resolve_db_path(raw: str, cwd: Path | None = None) -> str:
    """An absolute database path: a relative `STOPPA_DB` is resolved against the folder the
    bot starts in, once, so the path logged at start is the file really used (starting from
    another folder would otherwise open a new, empty economy without a word). A URL or
    `:memory:` is returned unchanged, but for the path of a `sqlite:///` URL."""
    if raw.startswith("sqlite:///") and raw != "sqlite:///":
        return "sqlite:///" + resolve_db_path(raw[len("sqlite:///"):], cwd)
    if "://" in raw or raw.startswith((":memory:", "file:")):
        return raw
    path = Path(raw).expanduser()
    if not path.is_absolute():
        path = (cwd or Path.cwd()) / path
    return str(path.resolve())


class ConfigError(ValueError):
    """A setting has a bad value. The message is one line naming the variable."""


@dataclass(frozen=True)
class Settings:
    """Everything the bot reads from its environment."""

    token: str | None
    db_path: str
    log_level: str
    turn_timeout: float
    dev_guild: int | None
    #: where the data lives: a SQLite path / `sqlite:///path`, or `postgresql://...`
    database: str = "data/stoppa.db"
    #: `STOPPA_LOG_FORMAT`: "text" (plain lines; colours on a terminal) or "json"
    log_format: str = "text"
    #: the variable `database` came from (named in a failure to open it)
    database_setting: str = "STOPPA_DB"
    #: connections in the PostgreSQL pool (unused on SQLite)
    db_pool_size: int = 10
    #: `STOPPA_SHARD_COUNT` (None: one process asks Discord how many shards it needs)
    shard_count: int | None = None
    #: `STOPPA_SHARD_IDS`, sorted (None: every shard of `shard_count`)
    shard_ids: tuple[int, ...] | None = None
    #: `STOPPA_METRICS_PORT`/`_HOST` (None: no metrics server)
    metrics: MetricsSettings | None = None
    #: `STOPPA_CPU_PROCESSES`: the worker processes the CPU players think in (0: a thread;
    #: unset: `bot.thinking.default_processes()`)
    cpu_processes: int = 1

    def __repr__(self) -> str:  # never show the token, even in a traceback
        token = "set" if self.token else "missing"
        return (
            f"Settings(token=<{token}>, db_path={self.db_path!r}, log_level={self.log_level!r}, "
            f"turn_timeout={self.turn_timeout!r}, dev_guild={self.dev_guild!r}, "
            f"database={without_password(self.database)!r}, db_pool_size={self.db_pool_size!r}, "
            f"shard_count={self.shard_count!r}, shard_ids={self.shard_ids!r}, "
            f"log_format={self.log_format!r}, database_setting={self.database_setting!r}, "
            f"cpu_processes={self.cpu_processes!r})"
        )


def _clean(env: Mapping[str, str], name: str) -> str | None:
    value = env.get(name)
    if value is None:
        return None
    value = value.strip()
    return value or None


def load_settings(env: Mapping[str, str] | None = None, *, dotenv: bool = True) -> Settings:
    """Read the settings from `env` (default: `os.environ`, after loading `.env` when `dotenv`).

    Raises `ConfigError` with one line naming the variable when a value is bad.
    """
    if env is None:
        if dotenv:
            from dotenv import find_dotenv, load_dotenv

            load_dotenv(find_dotenv(usecwd=True), override=False)
        env = os.environ
    token = _clean(env, "DISCORD_TOKEN")
    db_path = resolve_db_path(_clean(env, "STOPPA_DB") or DEFAULT_DB)
    database, database_setting = _database(env, db_path)
    pool_size = _pool_size(env)
    log_level, log_format = _logging(env)
    turn_timeout = _turn_timeout(env)
    dev_guild = _dev_guild(env)
    shard_count, shard_ids = load_shards(env)
    cpu_processes = _cpu_processes(env)
    try:
        metrics = load_metrics(env)
    except MetricsSettingError as exc:
        raise ConfigError(str(exc)) from None
    return Settings(
        token=token,
        db_path=db_path,
        log_level=log_level,
        turn_timeout=turn_timeout,
        dev_guild=dev_guild,
        database=database,
        database_setting=database_setting,
        log_format=log_format,
        db_pool_size=pool_size,
        shard_count=shard_count,
        shard_ids=shard_ids,
        metrics=metrics,
        cpu_processes=cpu_processes,
    )


def _database(env: Mapping[str, str], db_path: str) -> tuple[str, str]:
    """The database to open and the variable that named it: STOPPA_DATABASE_URL (a URL with
    a scheme we know, never a bare word made into a file), else the STOPPA_DB file."""
    url = _clean(env, "STOPPA_DATABASE_URL")
    if url is None:
        return db_path, "STOPPA_DB"
    try:
        parse_database_url(url, "STOPPA_DATABASE_URL")
    except DatabaseUrlError as exc:
        raise ConfigError(exc.message()) from None
    return resolve_db_path(url), "STOPPA_DATABASE_URL"


def _pool_size(env: Mapping[str, str]) -> int:
    """STOPPA_DB_POOL_SIZE: 1 to 1000 connections (default 10)."""
    raw_pool = _clean(env, "STOPPA_DB_POOL_SIZE") or "10"
    pool = plain_int(raw_pool)
    if pool is None or not 1 <= pool <= 1000:
        raise ConfigError(
            f"STOPPA_DB_POOL_SIZE must be a whole number from 1 to 1000 (got {raw_pool!r})"
        )
    return pool


def _cpu_processes(env: Mapping[str, str]) -> int:
    """STOPPA_CPU_PROCESSES: 0 to MAX_CPU_PROCESSES worker processes for the CPU players'
    thinking (0: in a thread of the bot's process; default: `default_processes()`)."""
    from bot.thinking import default_processes

    raw = _clean(env, "STOPPA_CPU_PROCESSES")
    if raw is None:
        return default_processes()
    processes = plain_int(raw)
    if processes is None or not 0 <= processes <= MAX_CPU_PROCESSES:
        raise ConfigError(
            "STOPPA_CPU_PROCESSES must be a whole number of processes from 0 (think in a"
            f" thread) to {MAX_CPU_PROCESSES} (got {raw!r})"
        )
    return processes


def _logging(env: Mapping[str, str]) -> tuple[str, str]:
    """STOPPA_LOG_LEVEL (default INFO) and STOPPA_LOG_FORMAT (text or json)."""
    log_level = (_clean(env, "STOPPA_LOG_LEVEL") or "INFO").upper()
    if log_level not in LOG_LEVELS:
        raise ConfigError(
            f"STOPPA_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)} (got {log_level!r})"
        )
    log_format = (_clean(env, "STOPPA_LOG_FORMAT") or "text").lower()
    if log_format not in ("text", "json"):
        raise ConfigError(f"STOPPA_LOG_FORMAT must be text or json (got {log_format!r})")
    return log_level, log_format


def _turn_timeout(env: Mapping[str, str]) -> float:
    """STOPPA_TURN_TIMEOUT: seconds, more than 0 and at most MAX_TURN_TIMEOUT (default 60)."""
    raw_timeout = _clean(env, "STOPPA_TURN_TIMEOUT")
    if raw_timeout is None:
        return 60.0
    try:
        turn_timeout = float(raw_timeout)
    except ValueError:
        raise ConfigError(
            f"STOPPA_TURN_TIMEOUT must be a number of seconds (got {raw_timeout!r})"
        ) from None
    if not (0 < turn_timeout <= MAX_TURN_TIMEOUT):
        raise ConfigError(
            "STOPPA_TURN_TIMEOUT must be more than 0 seconds (a turn clock of 0 would pass"
            f" every player at once) and at most {MAX_TURN_TIMEOUT:g} (got {raw_timeout!r})"
        )
    return turn_timeout


def _dev_guild(env: Mapping[str, str]) -> int | None:
    """STOPPA_DEV_GUILD: the server whose commands sync at once (None: global commands)."""
    raw_guild = _clean(env, "STOPPA_DEV_GUILD")
    if raw_guild is None:
        return None
    guild = plain_int(raw_guild)
    if guild is None or guild <= 0:
        raise ConfigError(
            f"STOPPA_DEV_GUILD must be a server (guild) id made of digits (got {raw_guild!r})"
        )
    return guild


def load_shards(env: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """`STOPPA_SHARD_COUNT` and `STOPPA_SHARD_IDS` (e.g. `0-3` or `0,2,5`), validated together:
    ids need a count (discord.py refuses them alone) and must lie below it."""
    from bot.cluster.shards import MAX_SHARD_COUNT, ShardError, ShardPlan, parse_shard_ids

    raw_count = _clean(env, "STOPPA_SHARD_COUNT")
    raw_ids = _clean(env, "STOPPA_SHARD_IDS")
    if raw_count is None:
        if raw_ids is not None:
            raise ConfigError(
                "STOPPA_SHARD_IDS needs STOPPA_SHARD_COUNT, the total number of shards of the"
                f" bot (got only STOPPA_SHARD_IDS={raw_ids!r})"
            )
        return None, None
    count = plain_int(raw_count)
    if count is None or not 1 <= count <= MAX_SHARD_COUNT:
        raise ConfigError(
            "STOPPA_SHARD_COUNT must be a whole number of shards from 1 to"
            f" {MAX_SHARD_COUNT} (got {raw_count!r})"
        )
    if raw_ids is None:
        return count, None
    try:
        ids = ShardPlan(count, parse_shard_ids(raw_ids, count)).shard_ids
    except ShardError as exc:
        raise ConfigError(f"STOPPA_SHARD_IDS: {exc}") from None
    return count, ids
