"""Playing a table through the harness: slash commands or buttons, chosen legal actions.

`TableDriver` knows the channel's table (through the real service) and plays the turn of
whoever is to act, as a member would: by a slash command, or by clicking in their live
private panel (opened with My cards on the public message when it does not show their turn).
The action is chosen among the legal ones (from the service's private `hand_for`, as the
ephemeral reply shows them) with a seeded RNG.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from typing import Any

from bot.engine import Bet, Call, Concede, Declare, Pass, Play, Raise
from bot.tables import PlayerHand, TableState
from tests.harness import FakeMember, FakeMessage, Harness, Reply

CARD = re.compile(r"\b(?:10|[1-9])[cdsb]\b")


@dataclass
class TableDriver:
    """Plays the table of `h`'s channel for `members` (CPU seats play by themselves)."""

    h: Harness
    members: list[FakeMember]
    seed: int = 1
    rng: random.Random = field(init=False)
    replies: list[Reply] = field(default_factory=list)
    checks: int = 0
    #: each member's live panel (`panel_of`)
    panels: dict[int, FakeMessage] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    @property
    def service(self) -> Any:
        """The bot's table service."""
        return self.h.bot.tables

    def state(self) -> TableState | None:
        """The open table of the channel."""
        return self.service.state(self.h.channel_id)

    def member(self, user_id: int) -> FakeMember:
        """The member with this id."""
        return next(m for m in self.members if m.id == user_id)

    def table_message(self) -> FakeMessage:
        """The public table message (the last public message showing the table image)."""
        candidates = [
            m for m in self.h.messages() if "attachment://table.png" in m.media_urls()
        ]
        assert candidates, "no table message"
        return candidates[-1]

    def hand_info(self, member: FakeMember) -> PlayerHand:
        """The private view of `member` (what their ephemeral reply shows)."""
        return self.service.hand_for(self.h.guild_id, self.h.channel_id, member.id)

    def choose(self, info: PlayerHand) -> Any:
        """A legal action for the player, with some variety."""
        actions = list(info.actions)
        roll = self.rng.random()
        bets = [a for a in actions if isinstance(a, Bet | Raise)]
        if any(isinstance(a, Pass) for a in actions) and (bets or any(
            isinstance(a, Call) for a in actions
        )):
            if any(isinstance(a, Call) for a in actions):
                if roll < 0.55:
                    return Call()
                if roll < 0.65 and bets:
                    return bets[0]
                return Pass()
            if roll < 0.45 and bets:
                return bets[0]
            return Pass()
        declares = [a for a in actions if isinstance(a, Declare)]
        if declares:
            if roll < 0.15 and len(declares) > 1:
                return declares[1]  # a lower point (the bluff of R-9)
            if roll < 0.2:
                return Concede()
            return declares[0]
        plays = [a for a in actions if isinstance(a, Play)]
        if plays:
            return self.rng.choice(plays)
        return actions[0]

    async def act_by_slash(self, member: FakeMember, action: Any) -> Reply:
        """Play `action` with a slash command."""
        h = self.h
        if isinstance(action, Pass):
            return await h.slash(member, "stoppa pass")
        if isinstance(action, Call):
            return await h.slash(member, "stoppa call")
        if isinstance(action, Bet):
            return await h.slash(member, "stoppa bet", amount=action.amount)
        if isinstance(action, Raise):
            return await h.slash(member, "stoppa raise", to=action.to)
        if isinstance(action, Concede):
            raise AssertionError("concede has no slash command")
        if isinstance(action, Declare):
            best = next(a for a in self.hand_info(member).actions if isinstance(a, Declare))
            if action == best:  # no option: the best point (R-9's default)
                return await h.slash(member, "stoppa declare")
            cards = " ".join(map(str, action.cards))
            return await h.slash(member, "stoppa declare", cards=cards)
        if isinstance(action, Play):
            return await h.slash(member, "stoppa play", cards=" ".join(map(str, action.cards)))
        raise AssertionError(f"no command for {action}")

    async def panel_of(self, member: FakeMember) -> FakeMessage:
        """The member's live panel as it shows their turn now: the one they have, or one
        opened with My cards on the table message (issue 36: the moves are in the panel)."""
        state = self.state()
        assert state is not None
        now = f":{state.hand_no}:{state.turn}"
        panel = self.panels.get(member.id)
        if panel is not None and not panel.deleted and any(
                now in i for i in panel.custom_ids()):
            return panel
        message = self.table_message()
        button = next(i for i in message.custom_ids() if i.endswith(":hand"))
        opened = await self.h.click(member, message.id, button)
        assert opened.ephemeral and opened.message is not None, opened.text
        self.panels[member.id] = opened.message
        return opened.message

    async def act_by_buttons(self, member: FakeMember, action: Any) -> Reply:
        """Play `action` by clicking in the member's live panel (opened from the table
        message when it does not show their turn)."""
        h = self.h
        panel = await self.panel_of(member)
        ids = panel.custom_ids()

        def find(kind: str) -> str:
            found = [i for i in ids if i.split(":")[2] == kind]
            assert found, f"no {kind} button in {ids}"
            return found[0]

        if isinstance(action, Pass | Call):
            return await h.click(member, panel.id, find("pass" if isinstance(action, Pass)
                                                         else "call"))
        if isinstance(action, Bet | Raise):
            amount = action.amount if isinstance(action, Bet) else action.to
            exact = [i for i in ids if ":bet:" in i and i.endswith(f":{amount}")]
            if exact:
                return await h.click(member, panel.id, exact[0])
            opened = await h.click(member, panel.id, find("other"))
            assert opened.modal is not None
            return await h.submit_modal(
                member, opened.modal["custom_id"], {"amount": str(amount)}, opened_by=opened
            )
        if isinstance(action, Declare | Concede | Play):
            return await h.select(member, panel.id, find("pick"), [str(action)])
        raise AssertionError(f"no button for {action}")

    async def play_turn(self, mode: str) -> Reply:
        """Play one turn of the human to act ("slash", "buttons" or "mixed")."""
        state = self.state()
        assert state is not None and state.to_act is not None and state.to_act > 0
        member = self.member(state.to_act)
        info = self.hand_info(member)
        assert info.my_turn
        action = self.choose(info)
        use_slash = mode == "slash" or (mode == "mixed" and self.rng.random() < 0.5)
        if isinstance(action, Concede):
            use_slash = False
        before = (state.hand_no, state.turn)
        if use_slash:
            reply = await self.act_by_slash(member, action)
        else:
            reply = await self.act_by_buttons(member, action)
        self.replies.append(reply)
        after = self.state()
        moved = after is None or (after.hand_no, after.turn) != before
        assert moved, f"{action} by {member.name} did not move the table: {reply.text}"
        # the hands and the messages read at one moment: the moves the turn set off (a CPU's,
        # the stoppa's forced plays) written and shown
        await self.service.wait_idle()
        await self.h.settle()
        self.check_secrecy()
        return reply

    def check_secrecy(self) -> None:
        """No card of a hidden hand in any public message (checked after every turn)."""
        self.checks += 1
        users = [m.id for m in self.members]
        hidden = hidden_cards(self.service, self.h.guild_id, self.h.channel_id, users)
        assert not public_leaks(self.h, hidden)

    async def play_until_closed(self, mode: str, *, limit: int = 2000) -> int:
        """Play every human turn until the table closes; the number of turns played."""
        for turns in range(limit):
            state = self.state()
            if state is None:
                return turns
            await self.service.wait_idle()
            await self.h.settle()
            state = self.state()
            if state is None:
                return turns
            assert state.to_act is not None and state.to_act > 0, state
            await self.play_turn(mode)
        raise AssertionError("the table did not close")


def hidden_cards(service: Any, guild: int, channel: int, users: list[int]) -> set[str]:
    """Cards in the players' hands now that were never shown (declared in this hand, or in
    the last hand's ending that the table still shows) or played."""
    state = service.state(channel)
    if state is None or state.view is None:
        return set()
    shown: set[str] = set()
    for point in state.view.declared:
        shown.update(c.code for c in point.cards)
    if state.last_hand is not None:  # shown at the last hand's end, on the table until now
        for point in state.last_hand.points:
            shown.update(point.cards)
        shown.update(state.last_hand.proof)
    hidden: set[str] = set()
    for user in users:
        try:
            info = service.hand_for(guild, channel, user)
        except Exception:
            continue
        hidden.update(c.code for c in info.seat_view.hand)
    return hidden - shown


def _edits(h: Harness, call: Any, message_id: int) -> bool:
    """Whether `call` posted or edited the message: by the bot's token, or through the token
    of an interaction whose original response it is (a click on the table message)."""
    if call.via == "http":
        return str(call.params.get("message_id")) == str(message_id)
    target = str(call.params.get("message_id", call.path.rsplit("/", 1)[-1]))
    return (call.method == "PATCH" and target == "@original"
            and h.fake.originals.get(call.token or "") == message_id)


def public_leaks(h: Harness, hidden: set[str]) -> set[str]:
    """Hidden card codes found in any public message (text, embeds, components) or in the
    last request that posted or edited it (which carries the image's alt text)."""
    leaked: set[str] = set()
    for message in h.messages():
        blob = message.text + json.dumps(message.components)
        last = [c for c in h.calls if _edits(h, c, message.id)]
        if last:
            blob += json.dumps(last[-1].json)
        leaked |= set(CARD.findall(blob)) & hidden
    return leaked
