"""How many clicks, messages and bytes a hand costs the people who play it (issue 36).

The real bot runs in the offline harness on simulated time (`VirtualTimeLoop`, the table
service on the same clock: `LoopClock`), with the production publish interval (1.5 s) and
turn clock (60 s). After `/stoppa new`, the other people press Join on the table message,
the host presses Add CPU and Start; then every human plays each of their turns as a
`tests.people.Person`: only through the components the bot has shown that person (the table
message, their own ephemeral replies; legacy or Components V2 messages, whose text displays,
nested rows of buttons and selects, and gallery's attached image the person reads), choosing
every move with their own seeded RNG, at a human pace (a few seconds a decision, now and then
long enough to be pinged). Interaction
tokens expire after 15 minutes as Discord's do (`tests.people.Watch`). Tables of 3 players
(2 people and an easy CPU) and 6 (5 people and an easy CPU), in English and in Italian
(members, server and table all Italian).

Printed (`name value`; the same names with `@en-3`, `@it-6`... per table after the totals):
- interactions_per_decision: interactions a person sent per move they made without typing an
  amount (opening a panel, "My cards", bringing a panel back and a refused click count);
- interactions_per_decision_typed_amount: the same for a move with a typed amount (modal);
- private_messages_per_player_hand: new ephemeral messages, per person per hand;
- panel_edits_per_player_hand: edits of an ephemeral message already shown, per person/hand;
- interaction_edits_per_action: edits made through interaction tokens, per table action
  (people's, CPU's and timeouts);
- kib_uploaded_per_hand: KiB of files uploaded (both doors), per hand;
- public_messages_per_hand: new public messages, pings apart; pings_per_hand: the pings;
- bot_token_requests_per_action: requests counting toward the global limit, per action (and
  the same with the pings apart, which follow the people's long thinks);
- expired_token_requests: requests made with an expired token (Discord refuses them);
- and the counts behind them (hands, actions, decisions, typed_decisions, stuck_decisions).

`python bench/bench_play.py [small|full]`: small is one English table of 3 for 2 hands (the
suite's smoke test); full is the four tables for `FULL_HANDS` hands each (fewer when a
player runs out of chips and the table closes: the figures are per hand played).
"""

from __future__ import annotations

import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: the harness lives in tests/
    sys.path.insert(0, str(ROOT))

from bot.client import PUBLISH_INTERVAL, TableOptions  # noqa: E402
from tests.harness import Harness  # noqa: E402
from tests.harness.traffic import Sent  # noqa: E402
from tests.harness.virtual_time import LoopClock, run_virtual  # noqa: E402
from tests.people import Decision, Person, Watch  # noqa: E402
from tests.people.person import controls  # noqa: E402

#: (language, players, people) of each table played.
TABLES: dict[str, tuple[str, int, int]] = {
    "en-3": ("en", 3, 2), "it-3": ("it", 3, 2), "en-6": ("en", 6, 5), "it-6": ("it", 6, 5),
}
SMALL = ("en-3",)
SMALL_HANDS = 2
FULL_HANDS = 8
TURN_TIMEOUT = 60.0
LOCALES = {"en": "en-US", "it": "it"}
#: Simulated seconds to wait for the table to reach a human's turn before giving up.
PATIENCE = 900.0
ACTION_KINDS = frozenset({"action", "cpu", "timeout"})


@dataclass
class Tally:
    """What one table's hands cost (see the module docstring)."""

    hands: int = 0
    actions: int = 0
    #: people times hands played (what the per-player figures divide by)
    player_hands: int = 0
    decisions: list[Decision] = field(default_factory=list)
    sent: list[Sent] = field(default_factory=list)
    private_messages: int = 0
    panel_edits: int = 0
    public_messages: int = 0
    pings: int = 0
    expired: int = 0

    def add(self, other: Tally) -> None:
        """Add another table's tally to this one."""
        self.hands += other.hands
        self.actions += other.actions
        self.player_hands += other.player_hands
        self.decisions += other.decisions
        self.sent += other.sent
        for name in ("private_messages", "panel_edits", "public_messages", "pings", "expired"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def figures(self) -> dict[str, float]:
        """The printed figures."""
        moved = [d for d in self.decisions if d.moved]
        plain = [d for d in moved if not d.typed]
        typed = [d for d in moved if d.typed]
        hands, actions = max(self.hands, 1), max(self.actions, 1)
        player_hands = max(self.player_hands, 1)
        return {
            "interactions_per_decision": _mean([d.interactions for d in plain]),
            "interactions_per_decision_typed_amount": _mean([d.interactions for d in typed]),
            "private_messages_per_player_hand": self.private_messages / player_hands,
            "panel_edits_per_player_hand": self.panel_edits / player_hands,
            "interaction_edits_per_action":
                sum(s.kind == "interaction_edit" for s in self.sent) / actions,
            "kib_uploaded_per_hand": sum(s.uploaded for s in self.sent) / 1024 / hands,
            "public_messages_per_hand": self.public_messages / hands,
            "pings_per_hand": self.pings / hands,
            "bot_token_requests_per_action":
                sum(s.counts_globally for s in self.sent) / actions,
            "bot_token_requests_per_action_pings_apart":
                (sum(s.counts_globally for s in self.sent) - self.pings) / actions,
            "expired_token_requests": float(self.expired),
            "hands": float(self.hands),
            "actions": float(self.actions),
            "decisions": float(len(moved)),
            "typed_decisions": float(len(typed)),
            "stuck_decisions": float(len(self.decisions) - len(moved)),
        }


def _mean(values: list[int]) -> float:
    return sum(values) / len(values) if values else 0.0


class Game:
    """One table played by people until `hands` hands are over."""

    def __init__(self, h: Harness, lang: str, players: int, people: int, seed: int) -> None:
        self.h = h
        self.watch = Watch(h)
        locale = LOCALES[lang]
        self.people = [
            Person(h, self.watch, h.member(f"P{i + 1}", locale=locale), seed * 100 + i)
            for i in range(people)
        ]
        self.cpus = players - people
        self.hands_over = 0
        self.actions = 0
        self.handled: set[tuple[int, int]] = set()

    @property
    def service(self) -> Any:
        """The bot's table service."""
        return self.h.bot.tables

    async def on_update(self, update: Any) -> None:
        """Count the table's actions and finished hands; wake the people's waits."""
        if update.kind in ACTION_KINDS:
            self.actions += 1
        if update.kind == "hand_over":
            self.hands_over += 1
        self.watch.traffic.poke(update.channel_id)

    async def seat_everyone(self) -> None:
        """`/stoppa new`, then Join, Add CPU and Start on the table message."""
        host = self.people[0]
        lobby = Decision(host.id, 0, 0)
        token = self.h.send_nowait(self.h.slash_payload(host.member, "stoppa new"))
        self.watch.sent(token, host.id)
        traffic = self.watch.traffic
        await traffic.until(lambda: host.table_message() is not None, 60.0)
        for person in self.people[1:]:
            await person.press(lobby, self._button(person, "join"))
        for _ in range(self.cpus):
            await host.press(lobby, self._button(host, "addcpu"))
        await host.press(lobby, self._button(host, "start"))

    def _button(self, person: Person, action: str) -> Any:
        found = controls(person.table_message(), frozenset({action}))
        if not found:
            raise RuntimeError(f"the table message shows no {action!r} button")
        return found[0]

    def turn_shown(self) -> Person | None:
        """The person whose turn the table message shows (a turn not played yet)."""
        state = self.service.state(self.h.channel_id)
        if state is None or (state.hand_no, state.turn) in self.handled:
            return None
        person = next((p for p in self.people if p.id == state.to_act), None)
        return person if person is not None and person.my_turn_shown() else None

    async def play(self, hands: int) -> Tally:
        """Play until `hands` hands are over; what they cost."""
        self.service.subscribe(self.on_update)
        await self.seat_everyone()
        traffic = self.watch.traffic
        self.watch.reset()
        first_sent, actions_before = len(traffic.sent), self.actions
        decisions_before = sum(len(p.decisions) for p in self.people)
        while self.hands_over < hands:
            ok = await traffic.until(
                lambda: self.turn_shown() is not None or self.hands_over >= hands
                or self.service.state(self.h.channel_id) is None, PATIENCE,
                channel=self.h.channel_id,
            )
            if self.service.state(self.h.channel_id) is None:
                break  # a player ran out of chips and the table closed: the hands played count
            if not ok:
                raise RuntimeError("the table never showed a person's turn")
            person = self.turn_shown()
            if person is None:
                break
            state = self.service.state(self.h.channel_id)
            self.handled.add((state.hand_no, state.turn))
            await person.decide(state.hand_no, state.turn)
        decisions = [d for p in self.people for d in p.decisions][decisions_before:]
        counts = self.watch.counts
        return Tally(
            hands=self.hands_over, actions=self.actions - actions_before,
            player_hands=len(self.people) * self.hands_over, decisions=decisions,
            sent=traffic.sent[first_sent:],
            private_messages=counts.private_messages, panel_edits=counts.panel_edits,
            public_messages=counts.public_messages, pings=counts.pings,
            expired=counts.expired_refused,
        )


async def play_table(name: str, hands: int, seed: int = 1) -> Tally:
    """One table of `TABLES[name]` played for `hands` hands in a fresh harness."""
    lang, players, people = TABLES[name]
    with tempfile.TemporaryDirectory() as tmp:
        async with Harness.create(
            Path(tmp), seed=seed, turn_timeout=TURN_TIMEOUT, guild_locale=LOCALES[lang],
            table_options=TableOptions(clock=LoopClock()), publish_interval=PUBLISH_INTERVAL,
        ) as h:
            h.settle_timeout = 60.0
            return await Game(h, lang, players, people, seed).play(hands)


def measure(size: str = "small", seed: int = 1) -> dict[str, float]:
    """Every figure of a run: the totals, then each table's (`name@table`)."""
    names, hands = (SMALL, SMALL_HANDS) if size == "small" else (tuple(TABLES), FULL_HANDS)
    total = Tally()
    out: dict[str, float] = {}
    per_table: dict[str, float] = {}
    for name in names:
        tally = run_virtual(play_table(name, hands, seed))
        for key, value in tally.figures().items():
            per_table[f"{key}@{name}"] = value
        total.add(tally)
    out.update(total.figures())
    if len(names) > 1:
        out.update(per_table)
    return out


def run(size: str = "full") -> dict[str, float]:
    """The totals at `size` (`python -m bot bench`), leaving out the figures that are 0 (a
    bench row is a list of rates, where 0 reads as "not measured")."""
    return {name: value for name, value in measure(size).items()
            if "@" not in name and value > 0}


def lines(figures: dict[str, float]) -> list[str]:
    """The printed `name value` lines."""
    return [f"{name} {value:.2f}" for name, value in figures.items()]


def main(argv: list[str]) -> None:
    """`python bench/bench_play.py [small|full]`."""
    size = argv[1] if len(argv) > 1 else "small"
    if size not in ("small", "full"):
        raise SystemExit("usage: bench_play.py [small|full]")
    print("\n".join(lines(measure(size))))


if __name__ == "__main__":
    main(sys.argv)
