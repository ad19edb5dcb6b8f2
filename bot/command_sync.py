"""Slash-command sync only when the command tree changed, by one process of a cluster.

Discord rate-limits command syncs (about 200 a day per guild) and a global sync takes a while
to reach every client, so the bot remembers, per target ("global" or one guild), a hash of the
exact JSON it last sent, in the database itself (`StoreContract.command_sync_state`: SQLite
and PostgreSQL alike). A start with the same tree sends nothing; `python -m bot sync` forces it.
A guild copy made in `STOPPA_DEV_GUILD` mode is removed (an empty PUT) once that setting is
unset or names another guild, so the old guild does not keep a second, stale set of commands.
Of the processes of a cluster only the one running shard 0 syncs (`syncs_commands`): the
commands belong to the application, not to a shard.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from bot.store import StoreContract
from bot.store.factory import parse_database

_log = logging.getLogger("stoppa.sync")

GLOBAL = "global"


def target_key(guild_id: int | None) -> str:
    """The key of a sync target in the state."""
    return GLOBAL if guild_id is None else f"guild:{guild_id}"


def syncs_commands(shard_ids: Collection[int] | None) -> bool:
    """Whether a process running `shard_ids` (None: every shard) syncs the commands at
    start: exactly one process of a cluster does, the one with shard 0."""
    return shard_ids is None or 0 in shard_ids


def payload_hash(payload: list[dict[str, Any]]) -> str:
    """A stable hash of the commands' JSON (key order does not matter)."""
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def legacy_state_file(database: str) -> Path | None:
    """The JSON file an older version kept beside a SQLite database file (None otherwise)."""
    where = parse_database(database)
    if where.kind != "sqlite" or where.location.startswith((":memory:", "file:")):
        return None
    db = Path(where.location)
    return db.with_name(db.name + ".commands.json")


def _read_legacy(path: Path) -> dict[str, str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


@dataclass
class SyncState:
    """The hash last synced to each target, read from and written to `store` (if any)."""

    store: StoreContract | None
    hashes: dict[str, str] = field(default_factory=dict)

    @classmethod
    async def load(cls, store: StoreContract | None, legacy: Path | None = None) -> SyncState:
        """Read the state (no store: "never synced"); a state file of an older version
        (`legacy`) is moved into the database once."""
        if store is None:
            return cls(None)
        hashes = await store.command_sync_state()
        if not hashes and legacy is not None and legacy.is_file():
            for target, digest in _read_legacy(legacy).items():
                await store.record_command_sync(target, digest)
            legacy.unlink()
            hashes = await store.command_sync_state()
        return cls(store, hashes)

    async def record(self, key: str, digest: str) -> None:
        """`digest` was just synced to `key`."""
        self.hashes[key] = digest
        if self.store is not None:
            await self.store.record_command_sync(key, digest)

    async def drop(self, key: str) -> None:
        """`key` holds no copy any more."""
        del self.hashes[key]
        if self.store is not None:
            await self.store.forget_command_sync(key)

    def guilds(self) -> list[int]:
        """The guilds that hold a copy of the commands, as far as this state knows."""
        return [int(k.split(":", 1)[1]) for k in self.hashes if k.startswith("guild:")]


async def tree_payload(
    tree: app_commands.CommandTree[Any], guild: discord.abc.Snowflake | None
) -> list[dict[str, Any]]:
    """The JSON `tree.sync(guild=guild)` would send (translated when the tree has a
    translator), built the same way discord.py builds it."""
    commands = tree.get_commands(guild=guild)
    translator = tree.translator
    if translator is not None:
        return [await c.get_translated_payload(tree, translator) for c in commands]
    return [c.to_dict(tree) for c in commands]


@dataclass(frozen=True)
class SyncReport:
    """What one sync pass did: targets synced, skipped as unchanged, cleared."""

    synced: tuple[str, ...]
    unchanged: tuple[str, ...]
    cleared: tuple[int, ...]


async def sync_if_changed(
    tree: app_commands.CommandTree[Any],
    state: SyncState,
    *,
    dev_guild: int | None,
    force: bool = False,
) -> SyncReport:
    """Sync the tree to its target (the dev guild, else global) when its JSON changed (or
    `force`), and clear the guild copies of former dev guilds, recording each in `state`."""
    synced: list[str] = []
    unchanged: list[str] = []
    cleared: list[int] = []
    for old in state.guilds():
        if old == dev_guild:
            continue
        guild = discord.Object(id=old)
        tree.clear_commands(guild=guild)
        await tree.sync(guild=guild)
        await state.drop(target_key(old))
        cleared.append(old)
        _log.info("removed the development copy of the commands from server %s", old)
    target = discord.Object(id=dev_guild) if dev_guild is not None else None
    if target is not None:
        tree.copy_global_to(guild=target)
    key = target_key(dev_guild)
    digest = payload_hash(await tree_payload(tree, target))
    if force or state.hashes.get(key) != digest:
        done = await tree.sync(guild=target)
        await state.record(key, digest)
        synced.append(key)
        _log.info("synced %d application commands (%s)", len(done), key)
    else:
        unchanged.append(key)
        _log.info("application commands unchanged since the last sync (%s); not synced", key)
    return SyncReport(tuple(synced), tuple(unchanged), tuple(cleared))
