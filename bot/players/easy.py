"""The easy CPU level: honest Monte Carlo odds, minimum bets, a heuristic stoppa."""

from __future__ import annotations

from bot.players.strategy import Style, ThinkingPlayer

EASY = Style(
    samples=120,
    model=False,
    sizes=(0.0,),
    margin=0.0,
    hide=False,
    search=False,
)


class EasyPlayer(ThinkingPlayer):
    """Bets, calls or passes on its raw chance against everyone still in (pot odds), always at
    the minimum; declares its best point; opens the stoppa with a quick heuristic."""

    style = EASY

    def __init__(self, seed: int | None = None, name: str = "easy") -> None:
        super().__init__(seed, name)
