"""Whole games at a Discord table, through the real bot, store and service (issue 7).

Four members play from `/stoppa new` to the close of the table (R-14, the round called), by
slash commands and by buttons; the books must balance and nothing secret may go public.
"""

from __future__ import annotations

import io
import re

from PIL import Image

from bot.i18n import t
from tests.discord_table.driver import CARD, TableDriver
from tests.harness import EPHEMERAL, FakeMember, Harness, Reply

START = 1000


async def open_table(h: Harness, members: list[FakeMember]) -> None:
    """`/stoppa new` by the first member, `/stoppa join` by the others, then Start."""
    opened = await h.slash(members[0], "stoppa new")
    assert opened.ephemeral
    for member in members[1:]:
        joined = await h.slash(member, "stoppa join")
        assert joined.ephemeral, joined.text
    await h.slash(members[0], "stoppa start")


def check_hand_reply(reply: Reply, cards: list[str]) -> None:
    """A hand reply: ephemeral, one PNG that Pillow opens, the text list of the cards."""
    assert reply.ephemeral
    assert reply.message is not None and reply.message.flags & EPHEMERAL
    (image,) = reply.files
    assert image.is_png and image.data.startswith(b"\x89PNG\r\n\x1a\n")
    with Image.open(io.BytesIO(image.data)) as png:
        png.verify()
    listed = CARD.findall(reply.text.split("\n")[1])
    assert sorted(listed) == sorted(cards)


async def test_R14_full_game_of_four_by_commands_and_buttons(h: Harness) -> None:
    members = [h.member(name) for name in ("Anna", "Bruno", "Carla", "Dario")]
    await open_table(h, members)
    table = h.bot.tables.state(h.channel_id)
    assert table is not None and table.hand_no == 1 and len(table.players) == 4
    called = await h.slash(members[2], "stoppa round")
    assert called.ephemeral and called.text == t("table.reply.round_called", "en")

    driver = TableDriver(h, members, seed=3)
    hands_seen: set[int] = set()
    for _ in range(2000):
        state = driver.state()
        if state is None:
            break
        if state.hand_no not in hands_seen:
            # every hand: each player asks for their cards, by command or by button
            hands_seen.add(state.hand_no)
            for i, member in enumerate(members):
                cards = [c.code for c in driver.hand_info(member).seat_view.hand]
                if i % 2:
                    reply = await h.slash(member, "stoppa hand")
                else:
                    message = driver.table_message()
                    hand_button = next(c for c in message.custom_ids() if c.endswith(":hand"))
                    reply = await h.click(member, message.id, hand_button)
                check_hand_reply(reply, cards)
        await driver.play_turn("mixed")
    else:
        raise AssertionError("the table did not close")

    # everyone dealt once, then the table closed
    assert len(hands_seen) == 4 and driver.checks > 20
    final = driver.table_message()
    assert final.custom_ids() == []
    assert t("table.embed.closed", "en") in final.text

    # the books balance: no chip created or lost, every ledger row accounted for
    assert await h.store.audit() == []
    balances, escrow, minted = await h.store.total_chips(h.guild_id)
    assert escrow == 0 and balances == minted == START * 4
    stored = await h.store.balances(h.guild_id, [m.id for m in members])
    assert sum(stored.values()) == START * 4 and set(stored.values()) != {START}
    for member in members:
        reply = await h.slash(member, "balance")
        assert reply.text == t("economy.balance_self", "en", balance=stored[member.id])

    board = await h.slash(members[0], "leaderboard")
    assert not board.ephemeral and any(f.is_png for f in board.files)
    best = max(members, key=lambda m: (stored[m.id], -m.id))
    rows = await h.store.leaderboard(h.guild_id, "balance")
    assert rows[0].user_id == best.id and rows[0].value == stored[best.id]
    assert re.search(re.escape(best.name), board.text)
