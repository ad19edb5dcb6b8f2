"""A pick whose select is not on the message the click carries (an older panel) is played
from what the interaction itself carries: its custom id and its values
(`bot.discord_utils.components.custom_id_of` / `selected_values`, read once for every cog)."""

from __future__ import annotations

from bot.engine import Declare
from tests.discord_table.driver import TableDriver
from tests.discord_table.test_game import open_table
from tests.discord_table.test_orphans import answered_once
from tests.harness import Harness


async def test_an_orphaned_declare_pick_is_played_from_its_values(h: Harness) -> None:
    members = [h.member(name) for name in ("Anna", "Bruno", "Carla", "Dario")]
    await open_table(h, members)
    driver = TableDriver(h, members, seed=31)
    for _ in range(600):
        state = driver.state()
        assert state is not None, "the hand ended before anyone could declare"
        actor = driver.member(state.to_act)
        declares = [a for a in driver.hand_info(actor).actions if isinstance(a, Declare)]
        if not declares:
            await driver.play_turn("slash")
            continue
        message = driver.table_message()
        declare_id = next(i for i in message.custom_ids() if i.endswith(":hand"))  # panel
        panel = await h.click(actor, message.id, declare_id)
        pick = next(i for i in panel.message.custom_ids() if ":pick:" in i)
        # sent as if from the table message, which has no select: discord.py hands it to
        # nobody, and the table cog plays it from the custom id and the values
        assert pick not in h.message(message.id).custom_ids()
        chosen = await h.select(actor, message.id, pick, [str(declares[-1])])
        assert chosen.responded and answered_once(chosen)
        shown = driver.state()
        assert shown is not None and shown.turn > state.turn
        declared = [[c.code for c in d.cards] for d in shown.declared]
        assert [str(c) for c in declares[-1].cards] in declared
        return
    raise AssertionError("nobody could declare in 600 turns")
