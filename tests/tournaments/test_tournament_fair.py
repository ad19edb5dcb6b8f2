"""Issue 30 at a tournament table: the secret is drawn when the tournament starts, written
with its table and commitment, draws the first dealer; every hand is its deck; the secret
shows in no update before the table closes, then in the closing one. SQLite and PostgreSQL."""

from __future__ import annotations

import json

from bot.engine import Rules
from bot.fairness import DealInputs, first_dealer, verify_hand
from tests.tournaments.helpers import THREAD, TournamentHarness


async def test_a_tournament_deals_from_its_secret_and_reveals_it_at_the_end(
    th: TournamentHarness,
) -> None:
    info = await th.cpu_tournament(cpus=4)
    await th.tournaments.start(info.id, channel=THREAD, own_thread=True)
    await th.svc.wait_idle()
    done = await th.tournaments.info(info.id)
    assert done.table_id is not None
    row = await th.store.get_table(done.table_id)
    secret, commitment = row.secret, row.commitment
    assert row.status == "closed" and row.revealed
    assert secret is not None and commitment is not None and commitment.matches(secret, row.id)
    first = next(u for u in th.updates if u.state.hand_no == 1)
    players = list(first.state.players)
    assert first.state.dealer == players[first_dealer(secret, len(players))]
    hidden = secret.hex()
    assert th.updates[-1].state.revealed_secret == hidden
    assert all(hidden not in repr(u) for u in th.updates[:-1])
    assert hidden not in json.dumps(row.meta)
    seeds = {int(u): s for u, s in row.meta["cpu_seeds"].items()}  # the CPUs still seated
    assert seeds and set(seeds) <= {e.user_id for e in info.entrants}
    assert len(set(seeds.values())) == len(seeds)
    hands = await th.store.hand_history(row.id, limit=1000)
    assert len(hands) >= 2
    for hand in hands:
        assert hand.words == ()  # CPU seats add no word
        mask = Rules(**{**row.settings, "players": len(hand.result)}).deck_mask()
        check = verify_hand(DealInputs(secret, row.id, hand.hand_no), mask,
                            hand.event_log())
        assert check.ok, check.mismatches
