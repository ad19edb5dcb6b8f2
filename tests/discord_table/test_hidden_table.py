"""A table whose channel Discord refuses the bot later (403): a bounded backoff, then the
table is hidden, its turn clock paused, no request sent there any more, the players told on
their next interaction; once the permissions are back, the next command shows it again and
the clock runs (issue 15)."""

from __future__ import annotations

from bot.i18n import t
from bot.tables.clock import FakeClock
from cogs.table_publisher import RETRY_DELAYS
from tests.discord_table.conftest import TIMEOUT, publisher
from tests.harness import FakeMember, Harness


async def _started(h: Harness) -> list[FakeMember]:
    members = [h.member(name) for name in ("Anna", "Bruno", "Carla")]
    members[1].locale = "it"
    await h.slash(members[0], "stoppa new")
    for member in members[1:]:
        await h.slash(member, "stoppa join")
    await h.slash(members[0], "stoppa start")
    return members


def _channel_calls(h: Harness, since: int) -> list:
    return [c for c in h.calls[since:] if c.via == "http" and c.path.startswith("/channels/")]


async def _advance(h: Harness, clock: FakeClock, seconds: float, step: float = 10.0) -> None:
    left = seconds
    while left > 0:
        await clock.advance(min(step, left))
        await h.settle()
        left -= step


async def test_a_refused_channel_costs_a_bounded_number_of_requests(
    clocked: tuple[Harness, FakeClock]
) -> None:
    h, clock = clocked
    members = await _started(h)
    state = h.tables.state(h.channel_id)
    assert state is not None and state.hand_no == 1
    table = state.table_id
    h.set_bot_permissions("stoppa", deny=("view_channel",))
    before = len(h.calls)
    await _advance(h, clock, TIMEOUT + 1)  # a timeout: an update Discord refuses
    assert publisher(h).hidden(table) is False  # still retrying
    assert h.tables.clock_paused(table)  # but nobody sees the table: no timeout meanwhile
    refused = h.tables.state(h.channel_id)
    await _advance(h, clock, sum(RETRY_DELAYS) + 10)
    assert publisher(h).hidden(table)
    assert h.tables.clock_paused(table)
    tried = len(_channel_calls(h, before))
    assert 1 <= tried <= 2 * (len(RETRY_DELAYS) + 1)
    frozen = h.tables.state(h.channel_id)
    assert frozen is not None and refused is not None
    assert (frozen.hand_no, frozen.turn) == (refused.hand_no, refused.turn)

    await _advance(h, clock, 24 * 3600, step=600)  # a day: no timeout, no request
    assert len(_channel_calls(h, before)) == tried
    now = h.tables.state(h.channel_id)
    assert now is not None and (now.hand_no, now.turn) == (frozen.hand_no, frozen.turn)

    # the players are told on their next interaction, in their language
    bruno = members[1]
    reply = await h.slash(bruno, "stoppa hand")
    name = t("access.permission.view_channel", "it")
    assert t("access.table_hidden", "it", permissions=name) in reply.text
    assert all(m.ephemeral for m in reply.messages)
    assert len(_channel_calls(h, before)) == tried  # still nothing sent there

    # permissions back: the next command shows the table again and the clock runs
    h.restore_bot_permissions("stoppa")
    shown = len(h.calls)
    reply = await h.slash(members[0], "stoppa status")
    assert t("access.table_hidden", "en", permissions=name) not in reply.text
    assert not publisher(h).hidden(table)
    assert not h.tables.clock_paused(table)
    assert _channel_calls(h, shown)
    table_messages = [m for m in h.messages() if m.media_urls()]
    assert table_messages and table_messages[-1].edits >= 1
    await _advance(h, clock, TIMEOUT + 1)
    after = h.tables.state(h.channel_id)
    assert after is not None and (after.hand_no, after.turn) != (frozen.hand_no, frozen.turn)


async def test_still_missing_permissions_make_no_request(
    clocked: tuple[Harness, FakeClock]
) -> None:
    h, clock = clocked
    members = await _started(h)
    state = h.tables.state(h.channel_id)
    assert state is not None
    h.set_bot_permissions("stoppa", deny=("attach_files", "embed_links"))
    await _advance(h, clock, TIMEOUT + sum(RETRY_DELAYS) + 20)
    assert publisher(h).hidden(state.table_id)
    before = len(h.calls)
    for member in members:
        reply = await h.slash(member, "stoppa hand")
        lang = "it" if member.locale == "it" else "en"
        names = t("access.separator", lang).join(
            t(f"access.permission.{n}", lang) for n in ("embed_links", "attach_files"))
        assert t("access.table_hidden", lang, permissions=names) in reply.text
    assert _channel_calls(h, before) == []


async def test_a_hidden_table_closed_by_a_manager_sends_nothing_and_refunds(
    clocked: tuple[Harness, FakeClock]
) -> None:
    h, clock = clocked
    await _started(h)
    state = h.tables.state(h.channel_id)
    assert state is not None
    h.set_bot_permissions("stoppa", deny=("send_messages",))
    await _advance(h, clock, TIMEOUT + sum(RETRY_DELAYS) + 20)
    assert publisher(h).hidden(state.table_id)
    before = len(h.calls)
    boss = h.member("Boss", manage_guild=True)
    ended = await h.slash(boss, "stoppa end")
    assert ended.text == t("table.reply.ended", "en")  # and no word of a paused clock
    assert h.tables.state(h.channel_id) is None
    assert _channel_calls(h, before) == []
    assert publisher(h).message_id(state.table_id) is None  # forgotten
    assert await h.store.audit() == []
    assert await h.store.escrow(state.table_id) == 0
