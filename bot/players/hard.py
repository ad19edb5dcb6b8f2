"""The hard CPU level: modelled opponents, sized bets, bluffs, hidden points, stoppa search."""

from __future__ import annotations

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
    budget=0.2,
)


class HardPlayer(ThinkingPlayer):
    """Reads bets as strength, sizes its bets on expected gain, bluffs and slow-plays a little,
    hides cards when declaring (R-9) and searches its stoppa openings within 200 ms."""

    style = HARD

    def __init__(self, seed: int | None = None, name: str = "hard") -> None:
        super().__init__(seed, name)
