"""Benchmark of Discord's request budget: the real bot, N tables, members at a human pace.

The real bot runs in the offline harness (`tests/harness`) on simulated time
(`VirtualTimeLoop`: computing is free, waiting is a jump of the clock), with the production
publish interval (1.5 s) and Discord's global limit modelled as a queue of 50 bot-token
requests a second (`Traffic(global_limit=50)`). Each table has its own channel, three human
members and one CPU player (easy). A human acts once the public table message shows their
turn, after a think time drawn from an exponential distribution (mean `THINK` s): most press
the buttons of their live panel (opened with My cards on the table message); `SLASH_SHARE` of
the actions are slash commands, counted apart. Before their first action of a hand, a human
looks at their cards ("My cards", or `/stoppa hand` in the same share).

Everything is counted from the calls the harness captured, over a window of `seconds`
simulated seconds after the tables were dealt:
- requests per simulated second by route (`tests.harness.traffic.kind_of`), and the busiest
  second of the requests that count toward the global limit (as answered);
- requests per human action (channel requests; interaction requests of button actions and of
  slash actions apart), bytes uploaded per action (multipart files);
- lag: from the commit of a state in which a human is to act to the moment the public
  message showing that turn (its turn line) was answered by Discord (p50, p99, max).

`python bench/bench_discord.py [small|10|100|500|full] [free] [metrics]` prints the figures
("full": N = 10, 100 and 500 side by side; "free": without the global limit, i.e. what the
tables ask for; "metrics": with the bot's metrics recording, as `STOPPA_METRICS_PORT` turns
it on, to measure their cost: simulated time does not see computing, so their cost shows in
`real_s`); `run(size)` returns the headline figures (`python -m bot bench`).
"""

from __future__ import annotations

import asyncio
import functools
import random
import re
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: the harness lives in tests/
    sys.path.insert(0, str(ROOT))

import bot.metrics as metrics  # noqa: E402
from bot.client import TableOptions  # noqa: E402
from bot.engine import Bet, Call, Concede, Declare, Pass, Raise  # noqa: E402
from bot.tables.leases import Ownership  # noqa: E402
from tests.discord_table.driver import TableDriver  # noqa: E402
from tests.harness import FakeMember, Harness  # noqa: E402
from tests.harness.traffic import (  # noqa: E402
    CHANNEL_KINDS,
    INTERACTION_KINDS,
    Sent,
    Traffic,
)
from tests.harness.transport import text_displays  # noqa: E402
from tests.harness.virtual_time import LoopClock, run_virtual  # noqa: E402

#: size -> (tables, simulated seconds measured)
SIZES: dict[str, tuple[int, float]] = {
    "small": (4, 40.0), "10": (10, 120.0), "100": (100, 120.0), "500": (500, 120.0),
}
FULL = ("10", "100", "500")
THINK = 3.0  # mean think time of a human, simulated seconds
SLASH_SHARE = 0.2
HUMANS, CPUS = 3, 1
PUBLISH_INTERVAL = 1.5  # the production value (bot.client.PUBLISH_INTERVAL)
GLOBAL_LIMIT = 50  # Discord's global limit of bot-token requests per second
#: Simulated seconds after every table message was posted before the window opens (opening
#: 500 tables at once queues some 2,500 requests: posts, pings, member look-ups).
WARM_UP = 30.0
STUCK = 30.0  # simulated seconds a member waits for an answer before giving up
#: the deadline of a turn in the table message's turn line (a Discord timestamp)
DEADLINE = re.compile(r"<t:(\d+):R>")


@dataclass
class Table:
    """One table of the benchmark: its channel and its human members."""

    channel: int
    members: dict[int, FakeMember]
    looked: set[tuple[int, int]] = field(default_factory=set)  # (member, hand) cards seen
    panels: dict[int, int] = field(default_factory=dict)  # member -> their live panel


@dataclass
class Action:
    """One human action: its kind ("button", "slash", "cards") and its interaction tokens."""

    kind: str
    at: float
    tokens: list[str]


class Simulation:
    """N tables played at a human pace through the harness (see the module docstring)."""

    def __init__(self, h: Harness, traffic: Traffic, n_tables: int, seed: int,
                 slash_share: float = SLASH_SHARE) -> None:
        self.h = h
        self.slash_share = slash_share
        self.traffic = traffic
        self.n_tables = n_tables
        self.rng = random.Random(seed)
        self.chooser = TableDriver(h, [], seed=seed)
        self.tables: list[Table] = []
        self.actions: list[Action] = []
        self.commits: dict[tuple[int, int, int], float] = {}  # (channel, hand, turn) -> time
        #: (channel, hand, turn) -> the turn's deadline (whole seconds), which the public
        #: message's turn line shows (`<t:deadline:R>`)
        self.deadlines: dict[tuple[int, int, int], int] = {}
        self.stuck = 0
        self.start = 0.0
        self.end = 0.0
        self.posted_after = 0.0

    @property
    def service(self) -> Any:
        """The bot's table service."""
        return self.h.bot.tables

    @property
    def now(self) -> float:
        """The loop's (simulated) time."""
        return asyncio.get_running_loop().time()

    async def on_update(self, update: Any) -> None:
        """Service listener: remember when each human turn was committed; wake its waiters."""
        state = update.state
        if state.status != "closed" and state.to_act is not None and state.to_act > 0:
            key = (state.channel_id, state.hand_no, state.turn)
            self.commits.setdefault(key, self.now)
            if state.deadline is not None:
                self.deadlines.setdefault(key, int(state.deadline))
        self.traffic.poke(state.channel_id)

    async def open_tables(self) -> None:
        """Open, fill and deal every table through the service (not measured)."""
        guild = self.h.guild_id
        service = self.service
        service.subscribe(self.on_update)
        for i in range(self.n_tables):
            channel = self.h.add_channel(f"table-{i + 1}")
            members = [self.h.member(f"P{i + 1}-{k + 1}") for k in range(HUMANS)]
            await service.open_table(guild, channel, members[0].id)
            for member in members[1:]:
                await service.join(guild, channel, member.id)
            for _ in range(CPUS):
                await service.add_cpu(guild, channel, members[0].id, "easy")
            await service.start_game(guild, channel, members[0].id)
            self.tables.append(Table(channel, {m.id: m for m in members}))

    # -- one member's view ------------------------------------------------------------------
    def table_message(self, table: Table) -> Any:
        """The public table message as members see it now (None before it is posted)."""
        state = self.service.state(table.channel)
        if state is None or state.message_id is None:
            return None
        return self.h.fake.messages.get(int(state.message_id))

    def shows_turn(self, table: Table) -> bool:
        """Whether the table is closed, or a human is to act and the message shows it."""
        state = self.service.state(table.channel)
        if state is None:
            return True
        if state.to_act is None or state.to_act <= 0:
            return False
        message = self.table_message(table)
        mention = f"<@{state.to_act}>"  # the turn line ("... to act until ...")
        return message is not None and mention in message.text

    async def answered(self, token: str, table: Table) -> bool:
        """Wait until the interaction `token` has been answered."""
        ok = await self.traffic.until(
            lambda: self.traffic.answered(token), STUCK, channel=table.channel
        )
        if not ok:
            self.stuck += 1
        return ok

    async def click(self, table: Table, member: FakeMember, message_id: int, kind: str,
                    values: list[str] | None = None, *, custom_id: str) -> str:
        """Press a button (or choose in a select) and wait for its answer."""
        payload = self.h.component_payload(member, message_id, custom_id, values)
        token = self.h.send_nowait(payload)
        await self.answered(token, table)
        return token

    async def slash(self, table: Table, member: FakeMember, command: str,
                    **options: Any) -> str:
        """Run a slash command in the table's channel and wait for its answer."""
        payload = self.h.slash_payload(member, command, channel=table.channel, **options)
        token = self.h.send_nowait(payload)
        await self.answered(token, table)
        return token

    def panel_of(self, token: str) -> Any:
        """The ephemeral panel a click opened (its original response), if any."""
        message_id = self.h.fake.originals.get(token)
        return self.h.fake.messages.get(message_id) if message_id is not None else None

    async def look_at_cards(self, table: Table, member: FakeMember, by_slash: bool) -> None:
        """"My cards" (or `/stoppa hand`), as a human does once a hand."""
        if by_slash:
            tokens = [await self.slash(table, member, "stoppa hand")]
        else:
            message = self.table_message(table)
            if message is None:
                return
            button = next((c for c in message.custom_ids() if c.endswith(":hand")), None)
            if button is None:
                return
            tokens = [await self.click(table, member, message.id, "cards", custom_id=button)]
        self.actions.append(Action("cards", self.now, tokens))

    async def by_buttons(self, table: Table, member: FakeMember, action: Any) -> list[str]:
        """Play `action` in the member's live panel (issue 36: the moves are there), opened
        with My cards on the table message when the one they have does not show this turn."""
        tokens: list[str] = []
        state = self.service.state(table.channel)
        now = f":{state.hand_no}:{state.turn}" if state is not None else "-"
        panel = self.h.fake.messages.get(table.panels.get(member.id, 0))
        if panel is None or not any(now in i for i in panel.custom_ids()):
            message = self.table_message(table)
            button = next((c for c in message.custom_ids() if c.endswith(":hand")), None)
            if button is None:
                return tokens
            tokens.append(await self.click(table, member, message.id, "button",
                                           custom_id=button))
            # the panel comes as a deferred answer: a person waits for it to fill
            await self.traffic.until(
                lambda: (p := self.panel_of(tokens[0])) is None or not p.loading, STUCK,
                channel=table.channel)
            panel = self.panel_of(tokens[0])
            if panel is None:
                return tokens
            table.panels[member.id] = panel.id
        ids = panel.custom_ids()
        if isinstance(action, Pass | Call):
            name = "pass" if isinstance(action, Pass) else "call"
            button = next((i for i in ids if i.split(":")[2] == name), None)
        elif isinstance(action, Bet | Raise):
            amount = action.amount if isinstance(action, Bet) else action.to
            button = next((i for i in ids if ":bet:" in i and i.endswith(f":{amount}")), None)
        else:
            pick = next((i for i in ids if ":pick:" in i), None)
            if pick is not None:
                tokens.append(await self.click(table, member, panel.id, "button",
                                               [str(action)], custom_id=pick))
            return tokens
        if button is not None:
            tokens.append(await self.click(table, member, panel.id, "button", custom_id=button))
        return tokens

    async def by_slash(self, table: Table, member: FakeMember, action: Any) -> list[str]:
        """Play `action` with a slash command."""
        if isinstance(action, Pass):
            return [await self.slash(table, member, "stoppa pass")]
        if isinstance(action, Call):
            return [await self.slash(table, member, "stoppa call")]
        if isinstance(action, Bet):
            return [await self.slash(table, member, "stoppa bet", amount=action.amount)]
        if isinstance(action, Raise):
            return [await self.slash(table, member, "stoppa raise", to=action.to)]
        cards = " ".join(map(str, action.cards))
        if isinstance(action, Declare):
            return [await self.slash(table, member, "stoppa declare", cards=cards)]
        return [await self.slash(table, member, "stoppa play", cards=cards)]

    async def play(self, table: Table) -> None:
        """The humans of one table, until the window closes."""
        rng = random.Random(self.rng.getrandbits(32))
        while self.now < self.end:
            if not await self.traffic.until(lambda: self.shows_turn(table),
                                            self.end - self.now, channel=table.channel):
                return
            state = self.service.state(table.channel)
            if state is None:
                return
            key = (state.hand_no, state.turn)
            await asyncio.sleep(rng.expovariate(1 / THINK))
            state = self.service.state(table.channel)
            if self.now >= self.end or state is None or (state.hand_no, state.turn) != key:
                continue  # the window closed, or the turn timed out meanwhile
            member = table.members[state.to_act]
            if (member.id, state.hand_no) not in table.looked:
                table.looked.add((member.id, state.hand_no))
                await self.look_at_cards(table, member, rng.random() < self.slash_share)
            info = self.service.hand_for(self.h.guild_id, table.channel, member.id)
            if not info.my_turn:
                continue
            action = self.chooser.choose(info)
            slash = rng.random() < self.slash_share and not isinstance(action, Concede)
            at = self.now
            if slash:
                tokens = await self.by_slash(table, member, action)
            else:
                tokens = await self.by_buttons(table, member, action)
            self.actions.append(Action("slash" if slash else "button", at, tokens))
            await self.traffic.until(functools.partial(self.moved, table, key), STUCK,
                                     channel=table.channel)

    def moved(self, table: Table, key: tuple[int, int]) -> bool:
        """Whether the table left the turn `key` (or closed)."""
        state = self.service.state(table.channel)
        return state is None or (state.hand_no, state.turn) != key

    async def run(self, seconds: float) -> None:
        """Deal, warm up, then play for `seconds` of simulated time."""
        opened = self.now
        await self.open_tables()
        await self.traffic.until(
            lambda: all(self.table_message(t) is not None for t in self.tables), 3600.0
        )
        first_posts: dict[int, float] = {}
        for sent in self.traffic.sent:
            body = sent.call.json if isinstance(sent.call.json, dict) else {}
            if (sent.kind == "channel_post" and (body.get("embeds") or body.get("components"))
                    and sent.answered is not None):  # a table message, not a ping
                channel = int(sent.call.params["channel_id"])
                first_posts.setdefault(channel, sent.answered)
        self.posted_after = max(first_posts.values()) - opened
        self.start = self.now + WARM_UP
        self.end = self.start + seconds
        await asyncio.gather(*(self.play(t) for t in self.tables))
        leftover = self.end - self.now
        if leftover > 0:
            await asyncio.sleep(leftover)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def figures(sim: Simulation) -> dict[str, float]:
    """Every figure of one run (see the module docstring), from the captured calls."""
    traffic = sim.traffic
    start, end = sim.start, sim.end
    seconds = end - start
    window = [s for s in traffic.sent if start <= s.issued < end]
    actions = [a for a in sim.actions if start <= a.at < end]
    turns = [a for a in actions if a.kind in ("button", "slash")]
    n_turns = max(len(turns), 1)
    out: dict[str, float] = {
        "tables": float(sim.n_tables),
        "simulated_s": seconds,
        "all_tables_posted_s": sim.posted_after,
        "human_actions": float(len(turns)),
        "human_actions_per_s": len(turns) / seconds,
        "slash_share": sum(a.kind == "slash" for a in turns) / n_turns,
        "cards_views_per_action": sum(a.kind == "cards" for a in actions) / n_turns,
    }
    for kind in CHANNEL_KINDS + INTERACTION_KINDS:
        out[f"{kind}_per_s"] = sum(s.kind == kind for s in window) / seconds
    global_calls = [s for s in window if s.counts_globally]
    out["channel_req_per_s"] = len(global_calls) / seconds
    per_second: dict[int, int] = {}
    for s in global_calls:
        if s.answered is not None:
            second = int(s.answered - start + 1e-6)  # a timer may fire 1 ns early (resolution)
            per_second[second] = per_second.get(second, 0) + 1
    out["channel_req_peak_per_s"] = float(max(per_second.values(), default=0))
    out["channel_req_per_action"] = len(global_calls) / n_turns
    out["interaction_req_per_s"] = sum(not s.counts_globally for s in window) / seconds
    for kind in ("button", "slash", "cards"):
        done = [a for a in actions if a.kind == kind]
        calls = [s for a in done for tok in a.tokens for s in traffic.by_token.get(tok, ())]
        count = max(len(done), 1)
        out[f"interaction_req_per_{kind}"] = len(calls) / count
        out[f"kb_uploaded_per_{kind}"] = sum(s.uploaded for s in calls) / 1024 / count
    out["kb_channel_uploaded_per_action"] = (
        sum(s.uploaded for s in global_calls) / 1024 / n_turns
    )
    out["kb_uploaded_per_action"] = sum(s.uploaded for s in window) / 1024 / n_turns
    out.update(lag_figures(sim, window))
    out["stuck_interactions"] = float(sim.stuck)
    return out


def lag_figures(sim: Simulation, window: list[Sent]) -> dict[str, float]:
    """Lag of the public message behind each human turn committed in the window: until an
    edit of it showing that turn's line (whose deadline is the turn's) was answered."""
    shown: dict[tuple[int, int], float] = {}  # (channel, deadline) -> first answered
    for s in sim.traffic.sent:
        if s.kind not in ("channel_edit", "channel_post", "interaction_edit"):
            continue
        channel = _channel_of(sim, s)
        body = s.call.json if isinstance(s.call.json, dict) else {}
        if s.answered is None or channel is None:
            continue
        # the table message's texts (not a message's content: a ping's deadline is no turn
        # line shown on the table)
        for text in text_displays(body.get("components")):
            for deadline in DEADLINE.findall(text):
                key = (channel, int(deadline))
                if key not in shown or s.answered < shown[key]:
                    shown[key] = s.answered
    lags: list[float] = []
    unseen = 0
    for key, committed in sim.commits.items():
        if not sim.start <= committed < sim.end:
            continue
        seen = shown.get((key[0], sim.deadlines.get(key, -1)))
        if seen is not None:
            lags.append(max(seen - committed, 0.0))
        else:
            unseen += 1  # superseded (a timeout) or not shown before the end
    return {
        "lag_p50_s": _percentile(lags, 0.5),
        "lag_p99_s": _percentile(lags, 0.99),
        "lag_max_s": max(lags, default=0.0),
        "lag_turns": float(len(lags)),
        "lag_unshown_turns": float(unseen),
    }


def _channel_of(sim: Simulation, sent: Sent) -> int | None:
    """The channel of a call that posted or edited a public message: by the bot's token, or
    through the token of a click on that message (`interaction_edit` of its original)."""
    if sent.kind != "interaction_edit":
        return int(sent.call.params["channel_id"])
    message_id = sim.h.fake.originals.get(sent.call.token or "")
    message = sim.h.fake.messages.get(message_id) if message_id is not None else None
    if message is None or message.ephemeral:
        return None
    return message.channel_id


async def _bench(
    n_tables: int, seconds: float, seed: int, global_limit: int | None = GLOBAL_LIMIT,
    slash_share: float = SLASH_SHARE,
) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        h = await Harness.start(
            Path(folder), seed=seed, turn_timeout=60.0,
            # leases too are timed on the simulated clock: on the wall clock a loaded machine
            # (simulated time running slower than real time) would let them expire mid-run
            table_options=TableOptions(clock=LoopClock(), ownership=Ownership(clock=LoopClock())),
            publish_interval=PUBLISH_INTERVAL,
        )
        try:
            traffic = Traffic(h, global_limit=global_limit)
            sim = Simulation(h, traffic, n_tables, seed, slash_share)
            await sim.run(seconds)
            problems = await h.store.audit()
            if problems:
                raise AssertionError(f"ledger audit failed: {problems[:3]}")
            out = figures(sim)
            loop = asyncio.get_running_loop()
            out["forced_clock_jumps"] = float(getattr(loop, "forced_jumps", 0))
            return out
        finally:
            await h.close()


def measure(
    size: str, seed: int = 1, *, global_limit: int | None = GLOBAL_LIMIT,
    slash_share: float = SLASH_SHARE,
) -> dict[str, float]:
    """Every figure at `size` (a key of `SIZES`), plus the real seconds it took;
    `global_limit=None` lifts the modelled global limit; `slash_share=1.0` plays every action
    by slash command (no click on the table message lends its token: every edit of the table
    message is then a channel request)."""
    n_tables, seconds = SIZES[size]
    started = time.perf_counter()
    out = run_virtual(_bench(n_tables, seconds, seed, global_limit, slash_share))
    out["real_s"] = time.perf_counter() - started
    return out


HEADLINE = (
    "tables", "human_actions_per_s", "channel_req_per_action", "channel_req_per_s",
    "channel_req_peak_per_s", "interaction_req_per_button", "interaction_req_per_slash",
    "kb_uploaded_per_action", "lag_p99_s", "lag_max_s",
)


def run(size: str = "full") -> dict[str, float]:
    """The headline figures at `size` ("small" for `python -m bot bench`; "full": N = 500)."""
    chosen = "500" if size == "full" else size
    if chosen not in SIZES:
        raise ValueError(f"size must be one of full, {', '.join(SIZES)}")
    every = measure(chosen)
    # a figure of 0 (e.g. no channel request at all in the small run's window) is left out:
    # the bench row is a list of rates, where a 0 would read as "not measured"
    return {name: every[name] for name in HEADLINE if every[name] > 0}


def _print(results: dict[str, dict[str, float]]) -> None:
    names = list(next(iter(results.values())))
    print(f"{'figure':34}" + "".join(f"{'N=' + str(int(r['tables'])):>12}"
                                       for r in results.values()))
    for name in names:
        print(f"{name:34}" + "".join(f"{r[name]:12.3f}" for r in results.values()))


if __name__ == "__main__":
    arg = sys.argv[1] if len(sys.argv) > 1 else "full"
    sizes = FULL if arg == "full" else tuple(arg.split(","))
    # "free": no global limit modelled, to see what the tables would ask of Discord
    limit = None if "free" in sys.argv[2:] else GLOBAL_LIMIT
    if "metrics" in sys.argv[2:]:
        metrics.enable()
    collected: dict[str, dict[str, float]] = {}
    for one in sizes:
        collected[one] = measure(one, global_limit=limit)
        print(f"# N={SIZES[one][0]}: {collected[one]['real_s']:.0f} s real", flush=True)
    _print(collected)
