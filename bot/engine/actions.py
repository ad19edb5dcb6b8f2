"""Player actions (value objects that round-trip through text) and IllegalAction.

Texts: ``pass``, ``bet 30``, ``call``, ``raise 60``, ``declare 7d 6d``, ``concede``,
``play 5c 5d``. ``parse_action(text)`` reads them back; ``str(action)`` writes them.

``IllegalAction`` carries a ``code`` (snake_case), ``params`` and an English message; the same
messages, translated, are in ``bot/i18n/locales/{en,it}/engine.toml`` under ``engine.<code>``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import Card, parse_cards


@dataclass(frozen=True, slots=True)
class Pass:
    """Withdraw from the current point (R-8)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Bet:
    """Open the betting at ``amount`` (cip..max_bet, R-8)."""

    amount: int

    def __str__(self) -> str:
        return f"bet {self.amount}"


@dataclass(frozen=True, slots=True)
class Call:
    """Match the current level (all-in if short of chips)."""

    def __str__(self) -> str:
        return "call"


@dataclass(frozen=True, slots=True)
class Raise:
    """Raise the level to ``to`` (>= level + cip, <= max_bet)."""

    to: int

    def __str__(self) -> str:
        return f"raise {self.to}"


@dataclass(frozen=True, slots=True)
class Declare:
    """Show a point: 1-3 cards of one suit among the eligible cards (R-9)."""

    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.cards, tuple):
            object.__setattr__(self, "cards", tuple(self.cards))

    def __str__(self) -> str:
        return "declare " + " ".join(map(str, self.cards))


@dataclass(frozen=True, slots=True)
class Concede:
    """Give up the showdown without showing (R-9)."""

    def __str__(self) -> str:
        return "concede"


@dataclass(frozen=True, slots=True)
class Play:
    """Open the stoppa with these cards (one card, or all aces / a four of a kind, R-12)."""

    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.cards, tuple):
            object.__setattr__(self, "cards", tuple(self.cards))

    def __str__(self) -> str:
        return "play " + " ".join(map(str, self.cards))


Action = Pass | Bet | Call | Raise | Declare | Concede | Play

_SIMPLE: dict[str, Action] = {"pass": Pass(), "call": Call(), "concede": Concede(), "fold": Pass()}


def parse_action(text: str) -> Action:
    """The action written ``text``; ValueError if unreadable."""
    words = text.strip().lower().split()
    if not words:
        raise ValueError("empty action")
    head, rest = words[0], words[1:]
    if head in _SIMPLE and not rest:
        return _SIMPLE[head]
    if head in ("bet", "raise") and len(rest) == 1 and rest[0].isascii() and rest[0].isdigit():
        return Bet(int(rest[0])) if head == "bet" else Raise(int(rest[0]))
    if head in ("declare", "play") and rest:
        cards = tuple(parse_cards(rest))
        return Declare(cards) if head == "declare" else Play(cards)
    raise ValueError(f"not an action: {text!r}")


#: English message of each IllegalAction code (catalogued as engine.<code>)
MESSAGES: dict[str, str] = {
    "hand_over": "The hand is over.",
    "not_your_turn": "It is not your turn: waiting for seat {seat}.",
    "wrong_phase": "You cannot {action} now: the phase is {phase}.",
    "not_in_hand": "Seat {seat} is not in this hand.",
    "bet_too_small": "The minimum bet is {min}.",
    "bet_too_large": "The maximum bet is {max}.",
    "bet_not_allowed": "There is already a bet: call, raise or pass.",
    "cannot_bet": "You do not have enough chips to bet (the minimum is {min}).",
    "raise_too_small": "The minimum raise is to {min}.",
    "raise_too_large": "The maximum raise is to {max}.",
    "cannot_raise": "You cannot raise now.",
    "nothing_to_call": "There is no bet to call: bet or pass.",
    "nothing_to_raise": "There is no bet to raise yet: bet or pass.",
    "card_not_held": "You do not hold {card}.",
    "card_not_eligible": "{card} is not among the cards of this point.",
    "bad_point": "A point is 1 to 3 cards of one suit.",
    "bad_play": "You cannot play {cards}: play one card of a rank, all your aces, "
    "or a complete four of a kind.",
    "not_a_choice": "That action is not available now.",
}


class IllegalAction(Exception):
    """An action refused by the rules; the hand is unchanged. ``code``, ``params``, message."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(MESSAGES[code].format(**params))
