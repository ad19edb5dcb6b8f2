"""The hard CPU level: modelled opponents, sized bets, bluffs, hidden points, stoppa search."""

from __future__ import annotations

from dataclasses import replace

from bot.players.strategy import Style, ThinkingPlayer

HARD = Style(
    samples=300,
    model=True,
    sizes=(0.0, 0.5, 1.0, 2.0, 99.0),
    tightness=0.3,
    aggression=0.8,
    bluff=0.08,
    slowplay=0.25,
    margin=0.0,
    hide=True,
    search=True,
    stoppa_samples=300,
    stoppa_nodes=30_000,
)


class HardPlayer(ThinkingPlayer):
    """Reads bets as strength, sizes its bets on expected gain, bluffs and slow-plays a little,
    hides cards when declaring (R-9) and searches its stoppa openings.

    Its budgets are counts (300 Monte Carlo deals per bet; at most 300 samples and 30,000
    simulated card plays per stoppa opening), sized so that a decision stays well under 200 ms
    on the development machine; decisions depend only on the seed and the views seen."""

    style = HARD

    def __init__(self, seed: int | None = None, name: str = "hard") -> None:
        super().__init__(seed, name)


#: A second hard style for the strength benchmark (`match.make_duel_player("hard2")`): tighter
#: (it wants 15 chips of expected gain before putting chips in) and more aggressive (no minimum
#: bets: a pot or more; it bluffs half again as often and never slow-plays). The expert must
#: beat it too, so that its lead is not one opponent's quirks.
HARD_TIGHT_AGGRESSIVE = replace(HARD, sizes=(1.0, 2.0, 99.0), bluff=0.12, slowplay=0.0,
                                margin=15.0)
