"""Discord's 3 seconds: work that can take long is done only after the interaction is answered
(deferred) - the service calls that wait on a table's lock, and the rendering of images.

Each such call is wrapped to record whether the interaction being handled already had its first
answer when the call began. The game is played by commands and by buttons.
"""

from __future__ import annotations

import functools
import sys
from typing import Any

import pytest

from tests.discord_table.driver import TableDriver
from tests.discord_table.test_game import open_table
from tests.harness import Harness

#: Service methods that take a table's lock (they may wait for a CPU move or another click).
LOCKING = ("open_table", "join", "leave", "add_cpu", "start_game", "act", "call_round",
           "force_close")


def answered(h: Harness) -> bool:
    """Whether the interaction being handled (the last one dispatched) got its first answer."""
    token = next(reversed(h.fake.interactions))
    return any(c.token == token and c.callback_type is not None for c in h.fake.calls)


async def test_slow_work_starts_only_after_the_interaction_is_answered(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[str, bool]] = []
    service = h.bot.tables
    for name in LOCKING:
        original = getattr(service, name)

        def wrap(original: Any, name: str) -> Any:
            @functools.wraps(original)
            async def timed(*args: Any, **kwargs: Any) -> Any:
                seen.append((name, answered(h)))
                return await original(*args, **kwargs)

            return timed

        monkeypatch.setattr(service, name, wrap(original, name))
    # the modules of the cog that render (`cogs.table_panel`: the hand, `cogs.table_publisher`:
    # the table message and `/stoppa status`)
    for module, name in (("cogs.table_panel", "render_hand_upload"),
                         ("cogs.table_publisher", "render_table_upload")):
        table_module = sys.modules[module]
        original = getattr(table_module, name)

        def wrap_render(original: Any, name: str) -> Any:
            @functools.wraps(original)
            def timed(*args: Any, **kwargs: Any) -> Any:
                seen.append((name, answered(h)))
                return original(*args, **kwargs)

            return timed

        monkeypatch.setattr(table_module, name, wrap_render(original, name))

    members = [h.member(name) for name in ("Anna", "Bruno", "Carla")]
    await open_table(h, members)
    message = TableDriver(h, members).table_message()
    await h.click(members[0], message.id, next(i for i in message.custom_ids()
                                               if i.endswith(":hand")))
    await h.slash(members[1], "stoppa status")
    await h.slash(members[2], "stoppa round")
    driver = TableDriver(h, members, seed=4)
    await driver.play_until_closed("mixed")

    kinds = {name for name, _ in seen}
    assert {"open_table", "join", "start_game", "act", "call_round", "render_hand_upload",
            "render_table_upload"} <= kinds
    late = [name for name, ok in seen if not ok]
    assert late == []
