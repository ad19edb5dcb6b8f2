"""Discord's 3 seconds: commands answer at once when the store is quick, and defer (then edit
the "thinking" message) when it is slow; never two answers, refusals stay private."""

from __future__ import annotations

import asyncio
import functools
from typing import Any

import pytest

from bot.i18n import t
from tests.harness import FakeMember, Harness, Reply


def callbacks(reply: Reply) -> list[int | None]:
    """The callback types the interaction got (exactly one is right)."""
    return [c.callback_type for c in reply.calls if c.callback_type is not None]


def slow(h: Harness, monkeypatch: pytest.MonkeyPatch, name: str, seconds: float = 0.3) -> None:
    """Make `store.<name>` take `seconds` (as if waiting for the store's lock)."""
    original = getattr(h.store, name)

    @functools.wraps(original)
    async def waiting(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(seconds)
        return await original(*args, **kwargs)

    monkeypatch.setattr(h.store, name, waiting)


async def test_quick_answers_stay_immediate(h: Harness, bob: FakeMember) -> None:
    reply = await h.slash(bob, "balance")
    assert callbacks(reply) == [4] and reply.ephemeral


async def test_slow_store_work_is_deferred_then_answered(
    h: Harness, bob: FakeMember, boss: FakeMember, monkeypatch: pytest.MonkeyPatch
) -> None:
    h.bot.defer_after = 0.05
    slow(h, monkeypatch, "balance")
    reply = await h.slash(bob, "balance")
    assert callbacks(reply) == [5]
    (message,) = reply.messages
    assert message.ephemeral and not message.loading
    assert message.text == t("economy.balance_self", "en", balance=1000)

    # a public answer (chips grant) after a slow store: the private "thinking" (nothing is
    # public before the checks pass) says "posted", and the answer is a public message
    slow(h, monkeypatch, "grant")
    granted = await h.slash(boss, "chips grant", member=bob, amount=50, reason="prize")
    assert callbacks(granted) == [5] and granted.ephemeral
    assert granted.message is not None
    assert granted.message.text == t("input_context.posted", "en")
    (public,) = [m for m in granted.messages if not m.ephemeral]
    assert t("admin.chips_granted", "en", amount=50, member=f"<@{bob.id}>",
             balance=1050) in public.text

    # a refusal after a slow store is still private
    slow(h, monkeypatch, "set_stakes")
    refused = await h.slash(boss, "settings stakes", ante=10)  # 3 x 10 <= 5 x 10
    assert callbacks(refused) == [5] and refused.ephemeral
    assert refused.text.startswith(t("errors.invalid_stakes", "en", reason=""))
