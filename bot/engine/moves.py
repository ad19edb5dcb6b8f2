"""What a player means by a move: one reading, beside the rules, for every place a move is
typed or clicked (the table's buttons and commands, a practice table, the terminal game).

Like python-chess's `parse_san`, a reading either names one action or raises `MoveRefused`
with a code and the values that say why (`no_bet_now`, `bad_cards`, `rank_none`,
`rank_ambiguous`); each caller words the refusal in the player's language. The reading
never judges legality beyond choosing among the legal actions it is given: the engine still
refuses what cannot be played, with its own reason.

- an amount: the bet of it, or the raise to it when there is a bet to raise (the player
  says how much they put in): `bet_or_raise`;
- cards: each its rank and suit letter ("5c", "10b"), spaces or commas between them:
  `read_cards`;
- a rank alone ("5") in the stoppa: the one legal play of that rank (`play_of_rank`);
  `read_play` reads either.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .actions import Action, Bet, Play, Raise
from .cards import Card

#: How many digits a typed number may have (more is no rank, and `int()` of thousands of
#: digits is slow): the same bound as every number a player types.
MAX_DIGITS = 19
#: The ranks of the deck.
RANKS = range(1, 11)


class MoveRefused(ValueError):
    """What was typed names no move the player has now: `code` says why, `params` hold the
    values (a rank, the legal `Play`s, the word that is no card)."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


def bet_or_raise(legal: Sequence[Action], amount: int) -> Bet | Raise:
    """The bet of `amount` (nobody bet yet), or the raise to it (there is a bet); refused
    ("no_bet_now") when the legal actions hold neither."""
    if any(isinstance(a, Raise) for a in legal):
        return Raise(amount)
    if any(isinstance(a, Bet) for a in legal):
        return Bet(amount)
    raise MoveRefused("no_bet_now")


def read_cards(text: str) -> tuple[Card, ...]:
    """The cards written in `text` (spaces or commas between them); refused ("bad_cards",
    `word`: the first word that is not a card, "" when there is none)."""
    words = text.replace(",", " ").split()
    if not words:
        raise MoveRefused("bad_cards", word="")
    cards = []
    for word in words:
        try:
            cards.append(Card.parse(word))
        except ValueError:
            raise MoveRefused("bad_cards", word=word) from None
    return tuple(cards)


def read_rank(text: str) -> int | None:
    """The rank when `text` is a rank alone ("5", " 10 "), else None."""
    word = text.strip()
    if not word or len(word) > MAX_DIGITS or not (word.isascii() and word.isdigit()):
        return None
    rank = int(word)
    return rank if rank in RANKS else None


def play_of_rank(rank: int, legal: Sequence[Action]) -> Play:
    """The one legal play made of `rank`; refused with the legal `plays` when there is none
    ("rank_none") or more than one ("rank_ambiguous")."""
    plays = [a for a in legal if isinstance(a, Play)]
    matching = [p for p in plays if p.cards and all(c.rank == rank for c in p.cards)]
    if len(matching) == 1:
        return matching[0]
    if not matching:
        raise MoveRefused("rank_none", rank=rank, plays=tuple(plays))
    raise MoveRefused("rank_ambiguous", rank=rank, plays=tuple(matching))


def read_play(text: str, legal: Sequence[Action]) -> Play:
    """The play a player typed: cards, or a rank alone that names exactly one legal play.

    With no legal play at all (not their turn, not the stoppa) a rank reads as no cards: the
    engine says why nothing can be played now."""
    rank = read_rank(text)
    if rank is None:
        return Play(read_cards(text))
    if not any(isinstance(a, Play) for a in legal):
        return Play(())
    return play_of_rank(rank, legal)
