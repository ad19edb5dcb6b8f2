"""`Person`: a member who plays only through the components the bot has shown them.

What a person sees: the public table message of the channel (the latest public message with
table components) and their own ephemeral messages, legacy or Components V2 (a container's
text displays, its rows of buttons and selects, nested). What they read there: the components
(a custom id stands for the label a person reads: "pass", "call", "bet ... 40", the options of
a select, the numbers in a modal's label), the card codes a message shows ("(7d)") and its hand
number, and whether the table message names them as the player to act (`<@id>`). Nothing else:
the person never asks the service for their cards or their legal moves, and nothing acts for
them. The RNG is theirs and seeded.

One decision (`Person.decide`), once the table message shows it is their turn:
1. think (a human pace in the loop's time: mostly a few seconds, sometimes long enough for the
   bot's ping);
2. look at their panel (their latest private message that shows cards or moves): if it shows
   the cards they hold now (as many as the table says they hold, this hand, and the image its
   layout names is attached) and moves, pick one and use it; a button that opens a modal is
   answered with an amount in the range its label says;
3. otherwise press the button that shows their cards (the panel's own, else the table
   message's: "My cards" today) and look again; a click answered with a refusal marks that
   message as out of date (a person does not press it again);
4. stop once the table moved on (their move counted, or the turn clock ran out).

Every interaction the person sends is counted in the decision (`Decision.interactions`).
"""

from __future__ import annotations

import asyncio
import random
import re
from dataclasses import dataclass, field
from typing import Any

from tests.harness import FakeMember, FakeMessage, Harness
from tests.harness.harness import _modal_components
from tests.harness.transport import CapturedFile
from tests.people.watch import Watch

#: A card code as the bot writes it in text: "(7d)", "(10b)".
CARD = re.compile(r"\((10|[1-9])([cdsb])\)")
NUMBER = re.compile(r"\d[\d.,\u00a0\u202f']*")
#: The table components that make (or open) a move, and those that show the player's cards.
MOVES = frozenset({"pass", "call", "bet", "other", "best", "pick", "raise", "declare", "play"})
SHOW_CARDS = frozenset({"hand", "panel"})
#: Real interactions a decision may take before the person gives up (a bug, counted).
MAX_STEPS = 8
#: Simulated seconds a person waits for an answer to a click before giving up.
STUCK = 30.0


@dataclass
class Decision:
    """One decision of a person: how many interactions it took, whether they typed an amount,
    and whether their move went through (False: the turn clock ran out, or they gave up)."""

    user: int
    hand: int
    turn: int
    interactions: int = 0
    typed: bool = False
    moved: bool = False
    tokens: list[str] = field(default_factory=list)


@dataclass
class Control:
    """A component a person can see: where, what kind, and its custom id (and options)."""

    message: FakeMessage
    action: str
    custom_id: str
    options: tuple[str, ...] = ()
    disabled: bool = False


class Person:
    """A member at the table (see the module docstring)."""

    def __init__(self, h: Harness, watch: Watch, member: FakeMember, seed: int,
                 *, channel: int | None = None) -> None:
        self.h = h
        self.watch = watch
        self.member = member
        self.rng = random.Random(seed)
        #: think times drawn apart from the other choices, so that two versions of the bot
        #: that take different clicks still meet the same pace, decision by decision
        self.pace = random.Random(seed + 7919)
        self.channel = channel if channel is not None else h.channel_id
        self.panel_id: int | None = None
        self.dead: set[int] = set()
        self.decisions: list[Decision] = []

    @property
    def id(self) -> int:
        """The member's user id."""
        return self.member.id

    @property
    def service(self) -> Any:
        """The table service: the person reads only what the table message shows of it
        (the hand number, whose turn, how many cards each seat holds)."""
        return self.h.bot.tables

    # -- what they see ---------------------------------------------------------------------
    def table_message(self) -> FakeMessage | None:
        """The latest public message of the channel carrying table components."""
        for message in reversed(self.h.messages(self.channel)):
            if any(c.startswith("stoppa:") for c in message.custom_ids()):
                return message
        return None

    def my_turn_shown(self) -> bool:
        """Whether the table message names them as the player to act."""
        message = self.table_message()
        if message is None:
            return False
        mention = f"<@{self.id}>"
        top = message.content + "".join(message.text_displays()[:1])  # the turn line
        return mention in top

    def panel(self) -> FakeMessage | None:
        """Their panel: the private message they look at (None if gone or out of date)."""
        if self.panel_id is None or self.panel_id in self.dead:
            return None
        message = self.h.fake.messages.get(self.panel_id)
        return message if message is not None and not message.deleted else None

    def shows_my_cards(self, message: FakeMessage) -> bool:
        """Whether `message` shows the cards they hold now: this hand's number in its first
        line and as many cards as the table says they hold."""
        state = self.service.state(self.channel)
        seat = state.seat_of(self.id) if state is not None else None
        if state is None or seat is None:
            return False
        if message.media_urls() and image_shown(message) is None:
            return False  # a gallery of a file the message lacks: a broken image
        text = message.text
        first = text.splitlines()[0] if text else ""
        numbers = [_number(n) for n in NUMBER.findall(first)]
        codes = {m.group(0) for m in CARD.finditer(text)}
        return state.hand_no in numbers and len(codes) == seat.cards

    # -- a decision ------------------------------------------------------------------------
    async def decide(self, hand: int, turn: int) -> Decision:
        """Play their turn `(hand, turn)` through what they see (see the module docstring)."""
        decision = Decision(self.id, hand, turn)
        self.decisions.append(decision)
        await asyncio.sleep(self.think())
        for _ in range(MAX_STEPS):
            if self.moved(hand, turn):
                return decision
            panel = self.panel()
            moves = controls(panel, MOVES) if panel and self.shows_my_cards(panel) else []
            if moves:
                await self.move(decision, moves)
                continue
            table = self.table_message()
            shown = (controls(panel, SHOW_CARDS) if panel else []) or (
                controls(table, SHOW_CARDS) if table else [])
            if shown:
                await self.press(decision, shown[0])
                continue
            table_moves = controls(table, MOVES) if table else []
            if table_moves:
                await self.move(decision, table_moves)
                continue
            await asyncio.sleep(2.0)  # nothing to press: look again in a moment
        return decision

    def think(self) -> float:
        """Seconds before they act: mostly a few, now and then long enough to be pinged."""
        if self.pace.random() < 0.12:
            return self.pace.uniform(26.0, 45.0)
        return self.pace.uniform(2.0, 12.0)

    def moved(self, hand: int, turn: int) -> bool:
        """Whether the table left their turn (as the table message shows)."""
        state = self.service.state(self.channel)
        return state is None or (state.hand_no, state.turn) != (hand, turn)

    async def move(self, decision: Decision, moves: list[Control]) -> None:
        """Pick one of the visible moves and use it."""
        control = self.pick(moves)
        if control.action == "pick":
            value = self.rng.choice(control.options) if control.options else ""
            await self.press(decision, control, values=[value])
            return
        reply = await self.press(decision, control)
        modal = self.h.fake.modals.get(reply) if reply else None
        if modal is not None:
            decision.typed = True
            await self.type_amount(decision, control.message, modal)

    def pick(self, moves: list[Control]) -> Control:
        """Their own choice among visible moves (weights of a cautious, curious player)."""
        weights = {"pass": 3.0, "call": 3.5, "bet": 1.0, "other": 0.6, "raise": 1.5,
                   "best": 8.0, "pick": 2.0, "declare": 4.0, "play": 4.0}
        usable = [m for m in moves if not m.disabled]
        if not usable:
            return moves[0]
        return self.rng.choices(usable, [weights.get(m.action, 1.0) for m in usable])[0]

    async def type_amount(self, decision: Decision, source: FakeMessage,
                          modal: dict[str, Any]) -> None:
        """Type an amount in the range the modal's label says, and submit."""
        labels = " ".join(_strings(modal, "label") + _strings(modal, "placeholder"))
        numbers = [_number(n) for n in NUMBER.findall(labels)] or [1]
        low, high = min(numbers), max(numbers)
        amount = self.rng.randint(low, max(low, min(high, low * 3)))
        layout = modal.get("components")
        data = {"custom_id": modal["custom_id"],
                "components": _modal_components(layout, {"amount": str(amount)})}
        payload = self.h._interaction(self.member, 5, data, message=source)
        await self.send(decision, payload, source)

    async def press(self, decision: Decision, control: Control,
                    values: list[str] | None = None) -> str:
        """Click a button (or choose `values` in a select); the interaction's token."""
        payload = self.h.component_payload(self.member, control.message.id, control.custom_id,
                                           values)
        return await self.send(decision, payload, control.message)

    async def send(self, decision: Decision, payload: dict[str, Any],
                   source: FakeMessage) -> str:
        """Send one interaction, wait for its answer, read it (a human's second or two)."""
        hand, turn = decision.hand, decision.turn
        token = self.h.send_nowait(payload)
        self.watch.sent(token, self.id)
        decision.interactions += 1
        decision.tokens.append(token)
        traffic = self.watch.traffic
        await traffic.until(lambda: traffic.answered(token), STUCK, channel=self.channel)
        await asyncio.sleep(self.rng.uniform(1.0, 2.5))
        if self.moved(hand, turn):
            decision.moved = True
        self.look_at(token, source)
        return token

    def look_at(self, token: str, source: FakeMessage) -> None:
        """After a click: a new private message is their panel now; a click on their panel
        that changed nothing and brought only a refusal marks the panel out of date."""
        fake = self.h.fake
        mine = [m for m in fake.messages.values()
                if m.interaction_token == token and m.ephemeral and not m.deleted]
        original = fake.originals.get(token)
        if original is not None and original != source.id:
            message = fake.messages.get(original)
            if message is not None and message.ephemeral and message not in mine:
                mine.append(message)
        useful = [m for m in mine if m.custom_ids() or CARD.search(m.text)]
        if useful:
            self.panel_id = max(m.id for m in useful)
        elif mine and source.ephemeral:
            self.dead.add(source.id)  # "that button is out of date": not pressed again


def controls(message: FakeMessage | None, actions: frozenset[str]) -> list[Control]:
    """The components of `message` whose kind is among `actions`."""
    if message is None:
        return []
    out: list[Control] = []

    def walk(items: list[dict[str, Any]]) -> None:
        for item in items:
            custom_id = item.get("custom_id")
            if isinstance(custom_id, str) and custom_id.startswith("stoppa:"):
                parts = custom_id.split(":")
                action = parts[2] if len(parts) > 2 else ""
                if action in actions:
                    options = tuple(str(o["value"]) for o in item.get("options") or ())
                    out.append(Control(message, action, custom_id, options,
                                       bool(item.get("disabled"))))
            walk(item.get("components") or [])
            for key in ("component", "accessory"):
                if isinstance(item.get(key), dict):
                    walk([item[key]])

    walk(message.components)
    return out


def image_shown(message: FakeMessage) -> CapturedFile | None:
    """The image a person sees in `message`: the attached file its layout's gallery names
    (`attachment://hand.png`, Components V2), else its first attachment (legacy)."""
    names = [url.removeprefix("attachment://") for url in message.media_urls()]
    files = [f for f in message.attachments if not names or f.filename in names]
    return files[0] if files else None


def _number(text: str) -> int:
    digits = re.sub(r"\D", "", text)
    return int(digits) if digits else 0


def _strings(data: Any, key: str) -> list[str]:
    """Every string value of `key` anywhere in a JSON structure."""
    out: list[str] = []
    if isinstance(data, dict):
        for k, v in data.items():
            if k == key and isinstance(v, str):
                out.append(v)
            else:
                out += _strings(v, key)
    elif isinstance(data, list):
        for v in data:
            out += _strings(v, key)
    return out
