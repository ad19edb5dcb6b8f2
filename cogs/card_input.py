"""Cards and amounts typed by a player (`/stoppa play cards:`, `/stoppa declare cards:`, a bet
button or the amount modal), read by the one reading of a move (`bot.engine.moves`) and its
refusals worded in the player's language (`refused`).

An amount is the bet of it, or the raise to it when there is a bet, read from the seat's view
as at a practice table and in the terminal (`wager_of`): when neither may be made now (a bet
at the table's maximum, too few chips), the engine refuses the move with its own reason.

A card is its rank and suit letter (`5c`, `10b`); a word that is not one is refused with the
notation and an example. For a play, a rank alone ("5") is accepted when exactly one legal
play is made of that rank; when there are several, the player is asked which.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.discord_utils import UserFacingError
from bot.engine import Action, Bet, Card, Play, Raise, SeatView
from bot.engine.moves import MoveRefused, read_cards, read_play, read_rank, wager_of
from bot.i18n import t
from bot.i18n.cards import cards_text

#: How much of a typed word a refusal repeats.
ECHO_LIMIT = 20


def _plays_text(plays: Sequence[Play], lang: str) -> str:
    return t("cards.separator", lang).join(
        cards_text([str(c) for c in play.cards], lang) for play in plays
    )


def refused(error: MoveRefused, lang: str) -> UserFacingError:
    """The private answer to a move that reads as none (`bot.engine.moves`)."""
    params = error.params
    if error.code == "bad_cards":
        word = str(params["word"])
        return UserFacingError("input.bad_cards", text=f"`{word[:ECHO_LIMIT]}`" if word else "`-`")
    plays: Sequence[Play] = params["plays"]
    if error.code == "rank_none":
        return UserFacingError("input.rank_none", rank=params["rank"],
                               plays=_plays_text(plays, lang))
    example = " ".join(str(c) for c in plays[0].cards)
    return UserFacingError("input.rank_ambiguous", rank=params["rank"],
                           plays=_plays_text(plays, lang), example=example)


def typed_cards(text: str, lang: str = "en") -> tuple[Card, ...]:
    """The cards written in `text` (spaces or commas between them).

    Raises UserFacingError("input.bad_cards") naming the first word that is not a card."""
    try:
        return read_cards(text)
    except MoveRefused as error:
        raise refused(error, lang) from None


def typed_rank(text: str) -> int | None:
    """The rank when `text` is a rank alone ("5", " 10 "), else None."""
    return read_rank(text)


def typed_play(text: str, legal: Sequence[Action], lang: str) -> Play:
    """The play a player typed: cards, or a rank alone that names exactly one legal play
    (`bot.engine.moves.read_play`), refused in the player's words."""
    try:
        return read_play(text, legal)
    except MoveRefused as error:
        raise refused(error, lang) from None


def typed_amount(view: SeatView, amount: int) -> Bet | Raise:
    """The bet of `amount` (nobody bet yet) or the raise to it (there is a bet) by the seat of
    `view` (`wager_of`); the engine judges it."""
    return wager_of(view, amount)
