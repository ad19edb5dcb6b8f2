"""The guided hand's script: a fixed deal and, for each step, the move the lesson asks for.

Four players, the learner in seat 0 and the dealer in seat 3, so the learner is the eldest
hand (*primo di mano*): first to speak, first in the stoppa, and the winner of every tie. The
deck was chosen so that each step shows its point with the moves below (tests/learn checks
every claim by playing the hand): deal 1 gives the learner three Coppe (33) against a CPU's
two Bastoni (36); deal 2 a 34 against a CPU's 34; deal 3 nothing worth a bet (the bluff);
deal 4 the Ace of Denari that turns 7 and 6 of Denari into 55; the stoppa opens with the two
aces (1-1-2-3-4 "senza 5") and the learner closes, paid per card left. No special hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.actions import Action, Bet, Declare, Pass, Play
from bot.engine.cards import Card, parse_cards
from bot.engine.rules import Rules

PLAYERS = 4
LEARNER = 0
DEALER = 3
STACK = 1000
RULES = Rules(players=PLAYERS)

#: dealt per R-3 from the first card: deal by deal, 3-3-3-1 cards to seats 0, 1, 2, 3
DECK: tuple[Card, ...] = tuple(parse_cards(
    "10c 8c 3c  1s 7b 5b  6b 6s 8d  9b 8s 10s "
    "7d 1c 6c  10d 3b 3d  7s 3s 9d  7c 4d 1b "
    "6d 2s 4b  10b 5s 2d  4s 8b 9c  2c 4c 5d "
    "1d  9s  5c  2b"
))

#: which CPU seat calls a bet in each betting round (the others pass): the round is the
#: small point's deal number (1-4) or 0 for the big point
CALLERS: dict[int, int] = {1: 1, 2: 2, 0: 3}


def _cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


@dataclass(frozen=True, slots=True)
class Step:
    """One thing the lesson teaches: `name` keys its texts (`learn.step.<name>`), `asked` is
    the move it asks for."""

    name: str
    asked: Action


STEPS: tuple[Step, ...] = (
    Step("count", Bet(RULES.cip)),
    Step("count_show", Declare(_cards("10c 8c 3c"))),
    Step("tie", Bet(RULES.cip)),
    Step("tie_show", Declare(_cards("6c 1c"))),
    Step("bluff", Bet(100)),
    Step("no_bet", Pass()),
    Step("big", Bet(50)),
    Step("big_show", Declare(_cards("7d 6d 1d"))),
    Step("aces", Play(_cards("1c 1d"))),
    Step("open", Play(_cards("6c"))),
)
