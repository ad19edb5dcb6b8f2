"""Cards typed by a player (`/stoppa play cards:`, `/stoppa declare cards:`), read politely.

A card is its rank and suit letter (`5c`, `10b`); a word that is not one is refused with the
notation and an example. For a play, a rank alone ("5") is accepted when exactly one legal
play is made of that rank; when there are several, the player is asked which.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.discord_utils import UserFacingError
from bot.discord_utils.numbers import typed_number
from bot.engine import Action, Card, Play
from bot.i18n import t
from bot.i18n.cards import RANKS, cards_text

#: How much of a typed word a refusal repeats.
ECHO_LIMIT = 20


def typed_cards(text: str) -> tuple[Card, ...]:
    """The cards written in `text` (spaces or commas between them).

    Raises UserFacingError("input.bad_cards") naming the first word that is not a card."""
    words = text.replace(",", " ").split()
    if not words:
        raise UserFacingError("input.bad_cards", text="`-`")
    cards = []
    for word in words:
        try:
            cards.append(Card.parse(word))
        except ValueError:
            raise UserFacingError("input.bad_cards", text=f"`{word[:ECHO_LIMIT]}`") from None
    return tuple(cards)


def typed_rank(text: str) -> int | None:
    """The rank when `text` is a rank alone ("5", " 10 "), else None."""
    rank = typed_number(text)
    return rank if rank in RANKS else None


def _plays_text(plays: Sequence[Play], lang: str) -> str:
    return t("cards.separator", lang).join(
        cards_text([str(c) for c in play.cards], lang) for play in plays
    )


def typed_play(text: str, legal: Sequence[Action], lang: str) -> Play:
    """The play a player typed: cards, or a rank alone that names exactly one legal play.

    With no legal play at all (not their turn, not the stoppa) a rank is left to the table
    service, which says why nothing can be played now."""
    rank = typed_rank(text)
    if rank is None:
        return Play(typed_cards(text))
    plays = [a for a in legal if isinstance(a, Play)]
    if not plays:
        return Play(())
    matching = [p for p in plays if p.cards and all(c.rank == rank for c in p.cards)]
    if len(matching) == 1:
        return matching[0]
    if not matching:
        raise UserFacingError("input.rank_none", rank=rank, plays=_plays_text(plays, lang))
    example = " ".join(str(c) for c in matching[0].cards)
    raise UserFacingError("input.rank_ambiguous", rank=rank,
                          plays=_plays_text(matching, lang), example=example)
