"""Playing a practice table through the harness, as its member would: by clicking the buttons
and selects of their own ephemeral message, choosing among what it offers with a seeded RNG."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from bot.tables import TableService
from bot.tables.session import TableSession
from tests.harness import FakeMember, FakeMessage, Harness, Reply

#: Discord's 3 seconds, in harness time
ANSWER_WITHIN = 3.0
#: Discord's component types
BUTTON, SELECT, TEXT_DISPLAY, MEDIA_GALLERY = 2, 3, 10, 12


def _nested(items: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for item in items:
        yield item
        yield from _nested(item.get("components") or [])


def components(message: FakeMessage) -> Iterator[dict[str, Any]]:
    """Every button and select of the message (in the action rows of its container: the
    practice message is a Components V2 layout)."""
    for item in _nested(message.components):
        if item.get("type") in (BUTTON, SELECT):
            yield item


def shown_text(message: FakeMessage) -> str:
    """What the member reads: the text displays of the layout, in order."""
    return "\n".join(str(c.get("content") or "") for c in _nested(message.components)
                     if c.get("type") == TEXT_DISPLAY)


def said(shown: Reply | FakeMessage) -> str:
    """Everything a reply's messages (or one message) say: content, embeds, text displays."""
    messages = shown.messages if isinstance(shown, Reply) else [shown]
    return "\n".join(x for m in messages for x in (m.text, shown_text(m)) if x)


def gallery(message: FakeMessage) -> list[dict[str, Any]]:
    """The media gallery items of the layout (`media.url`, `description`: the alt text)."""
    return [i for c in _nested(message.components) if c.get("type") == MEDIA_GALLERY
            for i in c.get("items") or []]


def ids(message: FakeMessage) -> list[str]:
    """The custom ids of the message's components."""
    return [str(c.get("custom_id")) for c in components(message)]


def button(message: FakeMessage, action: str) -> str | None:
    """The custom id of the practice button `action` (pass, call, bet, best, hint, next...)."""
    return next((i for i in ids(message) if i.split(":")[3:4] == [action]), None)


def practice_session(service: TableService | None, user: int) -> TableSession | None:
    """The session of `user`'s practice table, whose memory (hand, meta, row) a test reads."""
    assert service is not None
    table = service.practice(user)
    return None if table is None else service.session(table.table_id)


def answered_privately(reply: Reply) -> None:
    """Every answer: within Discord's 3 seconds of harness time, and ephemeral."""
    assert reply.responded, "the interaction was not answered"
    after = reply.first_response_after
    assert after is not None and after < ANSWER_WITHIN, after
    assert reply.ephemeral, reply.text


@dataclass
class PracticeDriver:
    """Plays `member`'s practice table through its ephemeral message."""

    h: Harness
    member: FakeMember
    seed: int = 1
    message_id: int = 0
    replies: list[Reply] = field(default_factory=list)
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    async def open(self, channel: str | None = None, **options: Any) -> Reply:
        """`/practice` (options: players, level): the message the member then clicks."""
        kwargs: dict[str, Any] = dict(options)
        if channel is not None:
            kwargs["channel"] = channel
        reply = await self.h.slash(self.member, "practice", **kwargs)
        self.seen(reply)
        assert reply.message is not None
        self.message_id = reply.message.id
        return reply

    def seen(self, reply: Reply) -> None:
        """Every answer is checked: in time, private."""
        answered_privately(reply)
        self.replies.append(reply)

    @property
    def message(self) -> FakeMessage:
        """The practice message as it is now."""
        return self.h.message(self.message_id)

    async def click(self, action: str) -> Reply:
        """Press the practice button `action`."""
        custom_id = button(self.message, action)
        assert custom_id is not None, (action, ids(self.message))
        reply = await self.h.click(self.member, self.message_id, custom_id)
        self.seen(reply)
        return reply

    async def step(self) -> Reply:
        """One decision of the member (or Next hand between hands)."""
        message = self.message
        if button(message, "next") is not None:
            return await self.click("next")
        picks = [c for c in components(message) if c.get("type") == 3]
        moves = [a for a in ("pass", "call", "bet", "best") if button(message, a) is not None]
        if picks and (not moves or self.rng.random() < 0.5):
            options = [str(o["value"]) for o in picks[0]["options"]]
            reply = await self.h.select(self.member, self.message_id,
                                        str(picks[0]["custom_id"]), [self.rng.choice(options)])
            self.seen(reply)
            return reply
        assert moves, ids(message)
        weights = {"pass": 3, "call": 4, "bet": 2, "best": 5}
        choice = self.rng.choices(moves, [weights[m] for m in moves])[0]
        if choice == "bet":
            bets = [i for i in ids(message) if i.split(":")[3] == "bet"]
            reply = await self.h.click(self.member, self.message_id, self.rng.choice(bets))
            self.seen(reply)
            return reply
        return await self.click(choice)

    async def play_hands(self, hands: int) -> None:
        """Play until `hands` hands are over (each Next hand starts one more)."""
        service = self.h.bot.tables
        assert service is not None
        for _ in range(hands * 40):
            table = practice_session(service, self.member.id)
            assert table is not None
            if table.meta.in_play.hand_no >= hands and not table.in_hand:
                return
            await self.step()
        raise AssertionError("the hands did not end")
