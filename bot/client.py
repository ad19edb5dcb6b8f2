"""The Discord bot: `StoppaBot`, built by `create_bot`, started by `run_bot`.

Start-up happens in `setup_hook` (discord.py calls it once, after login and before the gateway
connects):

1. open the store (`bot.store`, `await open_store(database)`: SQLite or PostgreSQL);
2. start the CPU players' worker processes (`bot.thinking`, `await Thinker.start(n)`; none in
   the tests and benchmarks unless their `TableOptions` ask) and the table service
   (`bot.tables`, `await TableService.start(store, ...)`), which reloads every unfinished
   table;
3. load every extension of `EXTENSIONS` (each module ends with `async def setup(bot)`);
4. register the persistent components the cogs declare (see `_register_persistent_components`):
   a cog may have a `dynamic_items` tuple of `discord.ui.DynamicItem` classes and/or a
   `persistent_views()` method returning `(view, message_id | None)` pairs, so that buttons of
   messages sent before a restart keep working;
5. set the translator (`StoppaTranslator`: command texts from `commands.toml`);
6. sync the application commands (to `dev_guild` when set, else globally) when their JSON
   changed since the last sync (`bot.command_sync`, the state in the database; `force_sync`
   always syncs), unless `sync_commands` is False (the offline test harness); of a cluster,
   only the process running shard 0 syncs;
7. freeze what start-up built out of the garbage collector's walks (`bot.heap`; `run_bot` only).

Dependencies live on the bot object (`bot.store`, `bot.tables`, `bot.seed`, `bot.turn_timeout`,
`bot.publish_interval`, `bot.languages`: each server's pinned language in memory, loaded when
the server becomes available and updated by `/settings`); there are no module globals.
`close()` stops the service and the CPU workers, unloads the cogs (their tasks stop) and closes
the store.

Every click or modal submit of ours is answered (never "This interaction failed"): each of our
handlers marks the interaction it receives (`mark_handled`); `on_interaction` lets the cogs
take over the ones nobody took (`handle_orphan`) and otherwise answers "this button is out of
date" (see `bot.discord_utils.components`).
"""

from __future__ import annotations

import asyncio
import importlib.util
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.cluster.shards import ShardPlan
from bot.command_sync import (
    SyncReport,
    SyncState,
    legacy_state_file,
    sync_if_changed,
    syncs_commands,
)
from bot.discord_utils import (
    DEFER_AFTER,
    OrphanHandler,
    ServerLanguages,
    StoppaTranslator,
    StoppaTree,
    answer_out_of_date,
    is_orphan,
)
from bot.discord_utils.pings import PingOptOuts
from bot.discord_utils.request_budget import RequestBudget
from bot.heap import freeze_startup_heap
from bot.i18n import counted
from bot.metrics.discord_http import discord_trace
from bot.metrics.server import MetricsServer, start_metrics
from bot.metrics.settings import MetricsSettings
from bot.store import StoreContract
from bot.tables import Clock, TableService
from bot.tables.leases import Ownership
from bot.tables.limits import DEFAULT_HAND_PAUSE
from bot.thinking import Thinker
from bot.tournaments.record import TableTournament
from bot.tournaments.service import TournamentService
from bot.tournaments.table_policy import policy_for

if TYPE_CHECKING:
    from bot.config import Settings

_log = logging.getLogger("stoppa.client")

#: Every extension the bot loads, in order. The one place to add a cog.
EXTENSIONS: tuple[str, ...] = (
    "cogs.rules", "cogs.economy", "cogs.admin", "cogs.table", "cogs.help", "cogs.history",
    "cogs.ranked", "cogs.pings", "cogs.tournament", "cogs.learn", "cogs.fair", "cogs.verify",
    "cogs.practice", "cogs.privacy",
)

#: Seconds between two edits of one table's public message (Discord rate limits: ~5 edits / 5 s
#: per channel).
PUBLISH_INTERVAL = 1.5

#: Extensions that may be missing from a checkout (written later); skipped with a warning.
OPTIONAL_EXTENSIONS: frozenset[str] = frozenset({"cogs.table"})


def bot_intents() -> discord.Intents:
    """The gateway intents: the defaults, with every privileged intent off.

    Slash commands and components arrive as interactions, so the bot needs neither message
    content nor the member list nor presences.
    """
    intents = discord.Intents.default()
    intents.message_content = False
    intents.members = False
    intents.presences = False
    return intents


@dataclass(frozen=True, slots=True)
class TableOptions:
    """What the offline harness and the benchmarks change in the table service: a clock of
    their own (a fake one the test advances), a CPU player's thinking time, the table
    ownership (None: the bot's own, `StoppaBot.ownership`), the pause between hands where
    a server set none (`run_bot`: `DEFAULT_HAND_PAUSE`; 0 elsewhere: the next hand at once)
    and the worker processes the CPU players think in (`run_bot`: `STOPPA_CPU_PROCESSES`; 0
    elsewhere: a thread, as a test needs no processes of its own); `freeze_heap` freezes what
    start-up built once it is done (`bot.heap`; `run_bot` only: a test process builds many
    bots, which a freeze would keep)."""

    clock: Clock | None = None
    cpu_delay: float = 0.0
    ownership: Ownership | None = None
    hand_pause: float = 0.0
    cpu_processes: int = 0
    freeze_heap: bool = False


class StoppaBot(commands.AutoShardedBot):
    """The Stoppa bot. Build it with `create_bot`; its services are `store` and `tables`."""

    def __init__(
        self,
        database: str,
        *,
        seed: int | None = None,
        turn_timeout: float = 60.0,
        dev_guild: int | None = None,
        sync_commands: bool = True,
        extensions: tuple[str, ...] = EXTENSIONS,
        table_options: TableOptions | None = None,
        publish_interval: float = PUBLISH_INTERVAL,
        defer_after: float = DEFER_AFTER,
        force_sync: bool = False,
        metrics: MetricsSettings | None = None,
        **options: Any,
    ) -> None:
        if metrics is not None:  # Discord's 429s and interaction answers (bot.metrics)
            options["http_trace"] = discord_trace()
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=bot_intents(),
            tree_cls=StoppaTree,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            **options,
        )
        #: a SQLite path, `sqlite:///path` or `postgresql://...` (see `bot.store.open_store`)
        self.db_path = database
        self.seed = seed
        self.turn_timeout = turn_timeout
        self.dev_guild = dev_guild
        self.sync_commands = sync_commands
        self.force_sync = force_sync
        self.extension_names = extensions
        self.table_options = table_options or TableOptions()
        self.publish_interval = publish_interval
        #: Seconds of slow work before an interaction is deferred (`defer_if_slow`).
        self.defer_after = defer_after
        #: set by `setup_hook`, None again after `close`
        self.store: StoreContract | None = None
        self.tables: TableService | None = None
        #: where the CPU players think (`bot.thinking`), set by `setup_hook` as `tables` is
        self.thinker: Thinker | None = None
        #: sit-and-go tournaments, beside `tables` (same life span)
        self.tournaments: TournamentService | None = None
        self.translator = StoppaTranslator()
        #: Each server's pinned language, in memory (answers never wait for the store first).
        self.languages = ServerLanguages()
        #: Who turned their turn pings off on each server, in memory (`/pings`).
        self.pings = PingOptOuts()
        #: The one budget of bot-token requests a second: every such request of ours waits
        #: for room in it (Discord's global limit is per bot).
        self.requests = RequestBudget()
        #: where `/metrics`, `/livez` and `/readyz` are served (None: off); the running server
        self.metrics_settings = metrics
        self.metrics_server: MetricsServer | None = None

    @property
    def open_store(self) -> StoreContract:
        """The store, which is open from `setup_hook` to `close` (RuntimeError outside)."""
        if self.store is None:
            raise RuntimeError("the store is closed")
        return self.store

    async def setup_hook(self) -> None:
        """Open the store, start the table service, load the cogs, translate and sync."""
        from bot.engine import prepare
        from bot.store import open_store

        self.metrics_server = await start_metrics(self, self.metrics_settings)
        await asyncio.to_thread(prepare)  # the engine's lookup tables, off the event loop
        self.store = await open_store(self.db_path)
        self.thinker = await Thinker.start(self.table_options.cpu_processes)
        self.tables = await self._start_tables(self.store, self.thinker)
        self.tournaments = TournamentService(self.store, self.tables, seed=self.seed)
        for name in self.extension_names:
            await self._load(name)
        self._register_persistent_components()
        await self.tree.set_translator(self.translator)
        if self.sync_commands and (self.force_sync or syncs_commands(self.shard_ids)):
            await self.sync_app_commands()
        if self.table_options.freeze_heap:
            _log.info("start-up done: %d objects frozen out of the garbage collector's walks",
                      freeze_startup_heap())

    async def _start_tables(self, store: StoreContract, thinker: Thinker) -> TableService:
        """The table service over `store`, its CPUs thinking in `thinker`: it resumes the
        open tables of this process's shards whose lease it takes, and keeps those leases
        (several processes may share the database)."""
        options = self.table_options
        return await TableService.start(
            store, turn_timeout=self.turn_timeout, seed=self.seed, clock=options.clock,
            cpu_delay=options.cpu_delay, ownership=options.ownership or self.ownership(),
            hand_pause=options.hand_pause, thinker=thinker,
            policy_for=policy_for,  # tournament tables play by the tournament's policy
            read_tournament=TableTournament.from_dict,  # their meta holds its record
        )

    def ownership(self) -> Ownership:
        """This process's table ownership: a new lease owner name, and its shards when
        `shard_count` was set (else every server: one process, or Discord's count unknown
        before the gateway connects)."""
        plan = None
        if self.shard_count is not None:
            ids = tuple(sorted(self.shard_ids)) if self.shard_ids is not None else None
            plan = ShardPlan(self.shard_count, ids)
        return Ownership(shards=plan)

    async def _load(self, name: str) -> None:
        if name in OPTIONAL_EXTENSIONS and importlib.util.find_spec(name) is None:
            _log.warning("extension %s is not present; skipped", name)
            return
        await self.load_extension(name)

    def _register_persistent_components(self) -> None:
        """Register the DynamicItems and persistent views that the loaded cogs declare."""
        for cog in self.cogs.values():
            items = tuple(getattr(cog, "dynamic_items", ()))
            if items:
                self.add_dynamic_items(*items)
            make_views = getattr(cog, "persistent_views", None)
            if make_views is not None:
                for view, message_id in make_views():
                    self.add_view(view, message_id=message_id)

    async def sync_app_commands(self) -> SyncReport:
        """Sync the command tree to `dev_guild` (instant, for testing) or globally, when it
        changed since the last sync or `force_sync` is set; clear a former dev guild's copy."""
        state = await SyncState.load(self.store, legacy_state_file(self.db_path))
        return await sync_if_changed(
            self.tree, state, dev_guild=self.dev_guild, force=self.force_sync
        )

    async def on_interaction(self, interaction: discord.Interaction[StoppaBot]) -> None:
        """Answer the clicks and submits of ours that no handler of ours took.

        discord.py started the handlers before this event (`bot.discord_utils.components`).
        A cog may take an orphan over (`OrphanHandler.handle_orphan`, True when it answered);
        otherwise the user is told the button is out of date.
        """
        if not is_orphan(interaction):
            return
        for cog in list(self.cogs.values()):
            if not isinstance(cog, OrphanHandler):
                continue
            try:
                if await cog.handle_orphan(interaction):
                    break
            except Exception:
                _log.exception("%s could not handle orphan interaction %s",
                               type(cog).__name__, interaction.id)
        await answer_out_of_date(interaction)

    async def on_guild_available(self, guild: discord.Guild) -> None:
        """A server is there (at start, or back): keep its settings in memory."""
        if self.store is not None:
            await self.languages.load(self.store, guild.id)
            await self.pings.load(self.store, guild.id)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        """The bot was added to a server: keep its settings in memory."""
        if self.store is not None:
            await self.languages.load(self.store, guild.id)
            await self.pings.load(self.store, guild.id)

    async def on_ready(self) -> None:
        """Log who we are and where."""
        _log.info("ready as %s in %s", self.user, counted(len(self.guilds), "server", "servers"))

    async def close(self) -> None:
        """Stop the table service and the CPU workers, unload the cogs, close the connection
        and the store.

        SIGINT and SIGTERM both end here (`bot.lifecycle.serve`): every table is already in the
        database after each action, so stopping the timers and closing the store loses nothing.
        """
        tables, self.tables = self.tables, None
        self.tournaments = None
        if tables is not None:
            try:
                await tables.stop()
                _log.info("turn clocks stopped; %d open tables stay in the database",
                          len(tables.tables()))
            except Exception:
                _log.exception("table service did not stop cleanly")
        thinker, self.thinker = self.thinker, None
        if thinker is not None:
            await thinker.close()
        await super().close()
        store, self.store = self.store, None
        if store is not None:
            await store.close()
            _log.info("database closed")
        server, self.metrics_server = self.metrics_server, None
        if server is not None:
            await server.stop()


def create_bot(
    database: str,
    *,
    seed: int | None = None,
    turn_timeout: float = 60.0,
    dev_guild: int | None = None,
    sync_commands: bool = True,
    table_options: TableOptions | None = None,
    publish_interval: float = PUBLISH_INTERVAL,
    force_sync: bool = False,
    shard_count: int | None = None,
    shard_ids: tuple[int, ...] | None = None,
    metrics: MetricsSettings | None = None,
) -> StoppaBot:
    """Build the bot (nothing is opened until `setup_hook`, i.e. `bot.login`/`bot.start`).

    `sync_commands=False` skips the command sync (the offline harness); `table_options` are
    what tests and benchmarks change in `TableService.start` (a fake `clock`, `cpu_delay`);
    `publish_interval` is the least time between two edits of a table's public message;
    `force_sync` syncs the commands even when they did not change (`python -m bot sync`);
    `database` is a SQLite path or a database URL (`sqlite:///path`, `postgresql://...`);
    `shard_count`/`shard_ids` run only those shards (`STOPPA_SHARD_*`; None: discord.py asks
    Discord for the count and runs every shard); `metrics` serves `/metrics`, `/livez` and
    `/readyz` (`STOPPA_METRICS_*`; None: off).
    """
    return StoppaBot(
        database,
        seed=seed,
        turn_timeout=turn_timeout,
        dev_guild=dev_guild,
        sync_commands=sync_commands,
        table_options=table_options,
        publish_interval=publish_interval,
        force_sync=force_sync,
        metrics=metrics,
        shard_count=shard_count,  # None (as absent): discord.py asks Discord for the count
        shard_ids=list(shard_ids) if shard_ids is not None else None,  # a list, as it wants
    )


#: discord.py loggers whose DEBUG lines carry request and response bodies, i.e. the private
#: (ephemeral) hands: never below INFO, whatever LOG_LEVEL says.
BODY_LOGGERS: tuple[str, ...] = ("discord.http",)


def keep_bodies_out_of_logs() -> None:
    """Raise the loggers of `BODY_LOGGERS` to INFO when they would log at DEBUG (nothing
    secret in any log line)."""
    for name in BODY_LOGGERS:
        logger = logging.getLogger(name)
        if logger.getEffectiveLevel() < logging.INFO:
            logger.setLevel(logging.INFO)


def run_bot(settings: Settings, *, sync_only: bool = False) -> int:
    """Run the bot until SIGINT or SIGTERM (logging is already set up by `python -m bot`);
    returns the exit code. `sync_only` logs in, syncs the commands (forced) and stops."""
    from bot.lifecycle import run_service

    keep_bodies_out_of_logs()
    bot = create_bot(
        settings.database,
        turn_timeout=settings.turn_timeout,
        dev_guild=settings.dev_guild,
        force_sync=sync_only,
        table_options=TableOptions(hand_pause=DEFAULT_HAND_PAUSE,
                                   cpu_processes=settings.cpu_processes, freeze_heap=True),
        shard_count=settings.shard_count,
        shard_ids=settings.shard_ids,
        metrics=settings.metrics,
    )
    return run_service(bot, settings, sync_only=sync_only)
