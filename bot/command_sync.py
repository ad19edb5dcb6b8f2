"""Slash-command sync only when the command tree changed.

Discord rate-limits command syncs (about 200 a day per guild) and a global sync takes a while
to reach every client, so the bot remembers, per target ("global" or one guild), a hash of the
exact JSON it last sent, in a small JSON file beside the database. A start with the same tree
sends nothing; `python -m bot sync` forces it. A guild copy made in `STOPPA_DEV_GUILD` mode is
removed (an empty PUT) once that setting is unset or names another guild, so the old guild does
not keep a second, stale set of commands.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from bot.store.errors import StoreError
from bot.store.factory import parse_database

_log = logging.getLogger("stoppa.sync")

GLOBAL = "global"


def target_key(guild_id: int | None) -> str:
    """The key of a sync target in the state file."""
    return GLOBAL if guild_id is None else f"guild:{guild_id}"


def sync_state_path(database: str) -> Path | None:
    """The state file beside a SQLite database file (a path or a `sqlite:///` URL); None for
    PostgreSQL or `:memory:` (the commands are then synced at every start)."""
    try:
        where = parse_database(database)
    except StoreError:
        return None
    if where.kind != "sqlite" or where.location.startswith((":memory:", "file:")):
        return None
    db = Path(where.location)
    return db.with_name(db.name + ".commands.json")


def payload_hash(payload: list[dict[str, Any]]) -> str:
    """A stable hash of the commands' JSON (key order does not matter)."""
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass
class SyncState:
    """The hash last synced to each target, read from and written to `path` (if any)."""

    path: Path | None
    hashes: dict[str, str] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path | None) -> SyncState:
        """Read the state; a missing or unreadable file means "never synced"."""
        if path is None or not path.exists():
            return cls(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            _log.warning("command sync state %s is unreadable; every target will sync", path)
            return cls(path)
        hashes = {str(k): str(v) for k, v in dict(data).items()} if isinstance(data, dict) else {}
        return cls(path, hashes)

    def save(self) -> None:
        """Write the state (atomically: a temporary file renamed over the old one)."""
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps(self.hashes, indent=1, sort_keys=True), encoding="utf-8")
        tmp.replace(self.path)

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
    `force`), and clear the guild copies of former dev guilds. Saves `state` afterwards."""
    synced: list[str] = []
    unchanged: list[str] = []
    cleared: list[int] = []
    for old in state.guilds():
        if old == dev_guild:
            continue
        guild = discord.Object(id=old)
        tree.clear_commands(guild=guild)
        await tree.sync(guild=guild)
        del state.hashes[target_key(old)]
        state.save()
        cleared.append(old)
        _log.info("removed the development copy of the commands from server %s", old)
    target = discord.Object(id=dev_guild) if dev_guild is not None else None
    if target is not None:
        tree.copy_global_to(guild=target)
    key = target_key(dev_guild)
    digest = payload_hash(await tree_payload(tree, target))
    if force or state.hashes.get(key) != digest:
        done = await tree.sync(guild=target)
        state.hashes[key] = digest
        state.save()
        synced.append(key)
        _log.info("synced %d application commands (%s)", len(done), key)
    else:
        unchanged.append(key)
        _log.info("application commands unchanged since the last sync (%s); not synced", key)
    return SyncReport(tuple(synced), tuple(unchanged), tuple(cleared))
