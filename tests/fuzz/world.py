"""The world the fuzz tests poke at, and what every poke must respect.

`World` is one running bot (the offline harness, on its own event loop so that hypothesis
can drive it from a plain test) with something behind every kind of custom id: a table with a
hand in play, finished hands (a history page and a replay), an open tournament. `poke` sends
one interaction and checks the invariants of issue 25:

- answered (one callback) within 3 s of harness time, and never an ERROR in the log;
- a refusal (the bot logs "refused ...") is private and changes nothing: every stored row
  (balances, ledger, tables, tournaments, audit...), and every public message, as before;
- a custom id that is not ours is left alone.

What is fuzzed is enumerated from the bot itself: every `app_commands.Command` of the real
`CommandTree` and every `DynamicItem` template the cogs register (`dynamic_items`), plus the
bet modal's, so a new command or button is fuzzed without touching these tests.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from discord import app_commands
from PIL import Image

from bot.client import TableOptions
from bot.engine import MAX_PLAYERS
from bot.i18n import SUPPORTED
from bot.render.replay import ReplayCache
from bot.store.schema import TABLES
from bot.tables.clock import FakeClock
from cogs.history import REPLAY_FORMAT
from cogs.table_items import MODAL_TEMPLATE
from tests.discord_input.conftest import dispatch, finished_hands, in_dm
from tests.harness import FakeMember, Harness, Reply

#: Discord's 3 seconds to answer, in harness time.
ANSWER_WITHIN = 3.0
#: Rows that move by themselves (a lease is renewed on a timer): not part of "nothing changed".
VOLATILE_TABLES = frozenset({"table_leases"})
#: The log messages of a refusal (`report_interaction_error`, the table and tournament guards).
REFUSED = re.compile(r"^refused ")
#: Loggers of the bot whose "refused" lines mark a refusal.
BOT_LOGGERS = ("stoppa",)


class Records(logging.Handler):
    """Every log record while installed (root logger, INFO and up)."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def errors(self) -> list[str]:
        """ERROR and worse, as text (with the exception's type when there is one)."""
        return [
            f"{r.name}: {r.getMessage()} {r.exc_info[1]!r}" if r.exc_info else
            f"{r.name}: {r.getMessage()}"
            for r in self.records if r.levelno >= logging.ERROR
        ]

    def refused(self) -> bool:
        """Whether the bot logged a refusal."""
        return any(r.name.startswith(BOT_LOGGERS) and REFUSED.match(str(r.msg))
                   for r in self.records)


@contextmanager
def recording() -> Iterator[Records]:
    """Collect the log records of one poke (the bot's loggers at INFO)."""
    handler = Records()
    root = logging.getLogger()
    stoppa = logging.getLogger("stoppa")
    old_level = stoppa.level
    stoppa.setLevel(logging.INFO)
    root.addHandler(handler)
    try:
        yield handler
    finally:
        root.removeHandler(handler)
        stoppa.setLevel(old_level)


@dataclass
class Template:
    """A custom id template of the bot and the kind of interaction it takes."""

    pattern: re.Pattern[str]
    kind: str  # "button", "select" or "modal"

    @property
    def groups(self) -> list[str]:
        """Its named groups."""
        return list(self.pattern.groupindex)


@dataclass
class World:
    """The running bot and the things its custom ids can point at."""

    h: Harness
    loop: asyncio.AbstractEventLoop
    members: dict[str, FakeMember] = field(default_factory=dict)
    messages: dict[str, int] = field(default_factory=dict)
    examples: int = 0
    #: examples that could be refused, and those answered by a refusal (checked to be
    #: private and to change nothing)
    refusable: int = 0
    refusals: int = 0

    # -- building -------------------------------------------------------------------------
    @classmethod
    def build(cls, tmp_path: Path) -> World:
        """Start the bot and put a table, hands and a tournament in it."""
        loop = asyncio.new_event_loop()
        h = loop.run_until_complete(
            Harness.start(tmp_path, seed=11, table_options=TableOptions(clock=FakeClock()))
        )
        world = cls(h=h, loop=loop)
        world.run(world._furnish)
        return world

    async def _furnish(self) -> None:
        h = self.h
        self.members = {
            "anna": h.member("Anna", locale="it"),
            "bob": h.member("Bob", locale="en-GB"),
            "boss": h.member("Boss", manage_guild=True),
            "zeno": h.member("Zeno"),
            "robot": h.member("Robot", bot=True),
        }
        anna, bob, boss = self.members["anna"], self.members["bob"], self.members["boss"]
        for member in (anna, bob, boss, self.members["zeno"]):
            await h.slash(member, "balance")  # every account exists before the fuzz
        hands = await finished_hands(h, [anna.id, bob.id, -1, -2], 6)  # two pages
        self._replays_drawn(hands)
        history = await h.slash(anna, "stoppa history")
        replay = await h.slash(anna, "stoppa replay", hand=hands[0])
        await h.slash(anna, "stoppa new")
        await h.slash(bob, "stoppa join")
        await h.slash(boss, "stoppa join")
        await h.slash(anna, "stoppa start")
        table = [m for m in h.messages() if "attachment://table.png" in m.media_urls()][-1]
        tournament = await h.slash(boss, "tournament new", buy_in=0, seats=3,
                                   channel="stoppa-2")
        for name, reply in (("history", history), ("replay", replay),
                            ("tournament", tournament)):
            assert reply.message is not None, name
            self.messages[name] = reply.message.id
        self.messages["table"] = table.id

    def _replays_drawn(self, hands: list[int]) -> None:
        """Every replay of the world's hands as already drawn (one small real WEBP under every
        key): a replay or share of a real hand answers at once, instead of spending seconds
        in Pillow on an animation the fuzz does not look at."""
        cog: Any = self.h.bot.get_cog("HistoryCog")
        out = io.BytesIO()
        Image.new("RGB", (8, 8), "green").save(out, format=REPLAY_FORMAT)
        cog.replays = ReplayCache(max_items=len(hands) * (MAX_PLAYERS + 1) * len(SUPPORTED))
        for hand in hands:
            for viewer in (None, *range(MAX_PLAYERS)):
                for lang in SUPPORTED:
                    cog.replays.put((hand, viewer, lang, REPLAY_FORMAT), out.getvalue())

    def run(self, work: Callable[[], Awaitable[Any]]) -> Any:
        """Run `work()` on the world's loop."""
        return self.loop.run_until_complete(work())

    def close(self) -> None:
        """Stop the bot and its loop."""
        self.run(self.h.close)
        self.loop.close()

    # -- what is fuzzed -------------------------------------------------------------------
    def commands(self) -> list[app_commands.Command[Any, ..., Any]]:
        """Every slash command of the bot's real command tree."""
        return sorted(
            (c for c in self.h.bot.tree.walk_commands()
             if isinstance(c, app_commands.Command)),
            key=lambda c: c.qualified_name,
        )

    def templates(self) -> list[Template]:
        """Every custom id template: the cogs' `DynamicItem`s and the bet modal."""
        out: list[Template] = []
        for cog in self.h.bot.cogs.values():
            for item in getattr(cog, "dynamic_items", ()):
                # `DynamicItem.template` (public) reads only the class: a bare instance will do
                pattern = item.__new__(item).template
                kind = "select" if ":pick:" in pattern.pattern else "button"
                out.append(Template(pattern, kind))
        out.append(Template(MODAL_TEMPLATE, "modal"))
        return sorted(out, key=lambda t: t.pattern.pattern)

    # -- one poke -------------------------------------------------------------------------
    async def snapshot(self) -> tuple[Any, ...]:
        """Every stored row (but leases) and every public message: what a refusal keeps."""
        store = self.h.store
        rows = tuple([await store.export_rows(name) for name in TABLES
                      if name not in VOLATILE_TABLES])
        public = tuple(sorted(
            (m.id, m.content, repr(m.embeds), repr(m.components), len(m.attachments),
             m.deleted)
            for m in self.h.fake.messages.values() if not m.ephemeral
        ))
        return rows, public, tuple(await store.audit())

    def poke(self, send: Callable[[Harness], Awaitable[Reply]], *, ours: bool = True,
             dm_refusal: str | None = None, may_refuse: bool = True) -> Reply:
        """Send one interaction and check the invariants (see the module); `may_refuse`
        False for an autocomplete (never refused: suggestions or none)."""
        self.examples += 1
        self.refusable += int(may_refuse and ours)
        before = self.run(self.snapshot)
        with recording() as log:
            reply: Reply = self.run(lambda: send(self.h))
        after = self.run(self.snapshot)
        assert log.errors() == [], log.errors()
        callbacks = [c for c in reply.calls if c.callback_type is not None]
        if not ours:
            assert callbacks == [], "a custom id of another app was answered"
            return reply
        assert len(callbacks) == 1, f"{len(callbacks)} callbacks"
        waited = reply.first_response_after
        assert waited is not None and waited < ANSWER_WITHIN, waited
        if dm_refusal is not None:
            assert reply.ephemeral and reply.text == dm_refusal, reply.text
        if log.refused() or dm_refusal is not None:
            self.refusals += 1
            assert all(m.ephemeral for m in reply.messages), reply.text
            assert callbacks[0].callback_type in (4, 5, 6), callbacks[0].callback_type
            assert after == before, "a refusal changed something"
        return reply


async def slash_in_dm(h: Harness, user: FakeMember, path: str, options: dict[str, Any]
                      ) -> Reply:
    """`/path` with `options`, sent from the user's DM."""
    return await dispatch(h, in_dm(h, user, h.slash_payload(user, path, **options)))


def focused(payload: dict[str, Any], option: app_commands.Parameter, typed: str
            ) -> dict[str, Any]:
    """A slash command payload (sent without `option`) made the autocomplete of `option`:
    type 4, that option focused with the text typed so far."""
    payload = {**payload, "type": 4}
    data = payload["data"]
    data.setdefault("options", [])
    options = data["options"]
    while options and options[0].get("type") in (1, 2):  # subcommand (group)
        options = options[0].setdefault("options", [])
    options.append({"name": option.display_name, "type": option.type.value, "value": typed,
                    "focused": True})
    return payload
