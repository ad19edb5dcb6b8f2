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
  `read_play` reads either;
- a whole typed move in English words ("bet 30", "raise 60", "40", "5c 6c", "5", "play 1c",
  "declare 7d", "pass"): `read_move`, which a terminal or a text command calls after turning
  its own language's words into these.

"bet N" and "raise N" are one move: the bet of N before anybody bet, the raise to N after,
whichever word was typed (the player says how much they put in).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .actions import Action, Bet, Call, Concede, Declare, Pass, Play, Raise
from .cards import Card
from .views import SeatView

#: How many digits a typed number may have (more is no rank, and `int()` of thousands of
#: digits is slow): the same bound as every number a player types.
MAX_DIGITS = 19
#: The ranks of the deck.
RANKS = range(1, 11)
#: The moves said in one word, and the words a move begins with (English).
SIMPLE: dict[str, Action] = {"pass": Pass(), "call": Call(), "concede": Concede()}
VERBS = (*SIMPLE, "bet", "raise", "play", "declare")
#: The phases in which an amount alone is a bet (or a raise).
BETTING = ("small_point", "big_point")


class MoveRefused(ValueError):
    """What was typed names no move the player has now: `code` says why, `params` hold the
    values (a rank, the legal `Play`s, the word that is no card)."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


def bet_or_raise(legal: Sequence[Action], amount: int, *,
                 bet_made: bool | None = None) -> Bet | Raise:
    """The bet of `amount` (nobody bet yet), or the raise to it (there is a bet).

    When the legal actions hold neither (a bet already at its cap, not a betting round, not
    the player's turn) and the caller knows whether a bet was made (`bet_made`, from the seat's
    view), the move of that kind: the engine then refuses it with its own reason ("the
    maximum raise is..."). Without `bet_made`, refused ("no_bet_now")."""
    if any(isinstance(a, Raise) for a in legal):
        return Raise(amount)
    if any(isinstance(a, Bet) for a in legal):
        return Bet(amount)
    if bet_made is not None:
        return Raise(amount) if bet_made else Bet(amount)
    raise MoveRefused("no_bet_now")


def wager_of(view: SeatView, amount: int) -> Bet | Raise:
    """`bet_or_raise` for the seat of `view`: a raise when its betting round has a bet."""
    betting = view.betting
    return bet_or_raise(view.legal, amount, bet_made=bool(betting and betting.level))


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


def play_of_card(card: Card, legal: Sequence[Action]) -> Play:
    """The legal play that holds `card` (a card of the aces or of a four of a kind, that go
    together, names the whole play); `card` alone when no legal play holds it (the engine
    says why)."""
    return next((a for a in legal if isinstance(a, Play) and card in a.cards), Play((card,)))


def read_play(text: str, legal: Sequence[Action]) -> Play:
    """The play a player typed: cards, or a rank alone that names exactly one legal play.

    With no legal play at all (not their turn, not the stoppa) a rank reads as no cards: the
    engine says why nothing can be played now."""
    rank = read_rank(text)
    if rank is None:
        cards = read_cards(text)
        return play_of_card(cards[0], legal) if len(cards) == 1 else Play(cards)
    if not any(isinstance(a, Play) for a in legal):
        return Play(())
    return play_of_rank(rank, legal)


def read_move(text: str, view: SeatView) -> Action:
    """The move typed in `text` (English words) by the seat of `view`, on its turn.

    "pass", "call", "concede"; "bet N" or "raise N" (`wager_of`), and an amount alone while
    betting; in the stoppa "play" and cards or a rank, or the cards or the rank alone
    (`read_play`); "declare" and cards at a showdown. A move of another phase ("play 5c" while
    betting, "declare 7d" in the stoppa) is read as that move without cards, so the engine
    says which phase it is. Refused (`MoveRefused`): "not_a_move" (`word`), "need_amount"
    (`verb`, bet or raise: an amount is needed), "play_what" (`plays`: the legal plays),
    and the refusals of `read_cards` and `play_of_rank`."""
    words = text.lower().split()
    if not words:
        raise MoveRefused("not_a_move", word="")
    head, rest = words[0], words[1:]
    if head in SIMPLE and not rest:
        return SIMPLE[head]
    if head in ("bet", "raise"):
        return _read_wager(head, rest, view)
    if not rest and view.phase in BETTING and _digits(head):
        return wager_of(view, int(head))
    if head == "play" or (head not in VERBS and view.phase == "stoppa"):
        return _read_stoppa_play(words[1:] if head == "play" else words, view,
                                 typed_verb=head == "play")
    if head == "declare":
        return Declare(read_cards(" ".join(rest)) if rest and view.phase == "showdown" else ())
    raise MoveRefused("not_a_move", word=head)


def _digits(word: str) -> bool:
    return word.isascii() and word.isdigit()


def _read_wager(verb: str, rest: list[str], view: SeatView) -> Bet | Raise:
    """"bet N" / "raise N"; the word alone asks for the amount when one may be given, else
    is the move of no amount (the engine says why none can be)."""
    betting = view.betting
    if not rest:
        if betting is not None and betting.bet_range:
            raise MoveRefused("need_amount", verb="raise" if betting.level else "bet")
        return wager_of(view, 0)
    if len(rest) > 1 or not _digits(rest[0]):
        raise MoveRefused("not_a_move", word=verb)
    try:
        amount = int(rest[0])
    except ValueError:  # more digits than Python reads at once
        raise MoveRefused("not_a_move", word=verb) from None
    return wager_of(view, amount)


def _read_stoppa_play(words: list[str], view: SeatView, *, typed_verb: bool) -> Play:
    """A play typed in the stoppa (or "play" in another phase: no cards, the engine says
    it is not the stoppa). Without "play", a word that is no card and no rank is no move."""
    if view.phase != "stoppa":
        return Play(())
    plays = tuple(a for a in view.legal if isinstance(a, Play))
    if not words:
        raise MoveRefused("play_what", plays=plays)
    text = " ".join(words)
    if not typed_verb and read_rank(text) is None:
        try:
            read_cards(text)
        except MoveRefused:
            raise MoveRefused("not_a_move", word=words[0]) from None
    return read_play(text, view.legal)
