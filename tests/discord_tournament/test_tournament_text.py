"""The prizes `/tournament status` announces before the end are the ones the end pays
(a property over buy-ins, seats and payout presets), and the embeds' texts."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import assume, given
from hypothesis import strategies as st

from bot.tournaments import PAYOUTS, Phase, Placement, TournamentConfig, new_tournament
from bot.tournaments.record import TournamentRecord
from cogs.tournament_text import ordinal, payout_text, prizes


@given(
    buy_in=st.integers(0, 10**6),
    seats=st.integers(3, 6),
    payout=st.sampled_from(sorted(PAYOUTS)),
)
def test_prizes_announced_are_the_prizes_paid(buy_in: int, seats: int, payout: str) -> None:
    assume(len(PAYOUTS[payout].percents) < seats)  # a preset pays fewer places than seats
    config = TournamentConfig.create(buy_in=buy_in, seats=seats, payout=payout)
    players = tuple(str(100 + i) for i in range(seats))
    places = tuple(Placement(p, i + 1, 9) for i, p in enumerate(players))
    finished = replace(new_tournament(config), phase=Phase.FINISHED, players=players,
                       stacks=(0,) * seats, places=places)
    info = TournamentRecord(finished).info(
        tournament_id=1, guild=1, channel=1, status="finished",
        entrants=[int(p) for p in players], table_id=None,
    )
    announced = prizes(info)
    assert sum(announced) == info.prize_pool == buy_in * seats
    paid = [info.payouts.get(int(p), 0) for p in players[: len(announced)]]
    assert announced == paid


def test_payout_and_ordinal_texts() -> None:
    config = TournamentConfig.create(buy_in=10, seats=4, payout="50_30_20")
    info = TournamentRecord(new_tournament(config)).info(
        tournament_id=3, guild=1, channel=1, status="open", entrants=[], table_id=None,
    )
    assert payout_text(info, "en") == "1st: 50%, 2nd: 30%, 3rd: 20%"
    assert payout_text(info, "it") == "1º: 50%, 2º: 30%, 3º: 20%"
    assert ordinal(7, "en") == "7"  # past the catalogue: the number itself
