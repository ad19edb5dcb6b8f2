"""Special hands before the stoppa (R-11): which applies, who holds it, who pays what.

``special_hand(rules, held, order)`` checks the kinds in their precedence (ricchezza, misera,
assi) and returns the first kind present with its holder, the first claimant in ``order``
(priority order), or None. ``special_dues`` lists what every other player owes the holder.

Decisions where docs/rules-spec.md is silent: the ``cards`` payout uses the R-13 rate
(``card_rate`` x (cards // cards_per_payment) of the payer's cards); ``four_aces`` means every
ace of the used deck (three with a suit removed).
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import RANK_BITS, Card, mask_of
from .rules import Rules

#: the kinds of special hand, in their precedence (R-11)
SPECIAL_KINDS = ("ricchezza", "misera", "assi")
_ACES, _TWOS, _KINGS = RANK_BITS[1], RANK_BITS[2], RANK_BITS[10]
_FIGURES = RANK_BITS[8] | RANK_BITS[9] | RANK_BITS[10]


def holds_special(kind: str, rules: Rules, cards: Sequence[Card]) -> bool:
    """Whether ``cards`` (a whole hand) make the special hand ``kind`` under ``rules``."""
    return _holds(kind, rules, rules.deck_mask(), mask_of(cards))


def _holds(kind: str, rules: Rules, deck: int, held: int) -> bool:
    """``holds_special`` of the hand whose cards are the mask ``held`` (``deck``: the mask of
    the used deck, so ``deck & _KINGS`` are its kings)."""
    kings = held & _KINGS
    if kind == "ricchezza":
        return kings != 0 and kings == deck & _KINGS
    if kind == "misera":
        return rules.stoppa_povera == "on" and not held & _FIGURES
    variant = rules.blocked_stoppa
    aces = held & _ACES
    if variant == "four_aces":
        return aces == deck & _ACES
    if variant == "three_twos_no_king":
        return (held & _TWOS).bit_count() >= 3 and not kings
    if variant == "three_aces_no_king":
        return aces.bit_count() >= 3 and not kings
    if variant == "four_aces_no_king":
        return aces == deck & _ACES and not kings
    if variant == "three_aces":
        return aces.bit_count() >= 3
    return False


def special_hand(
    rules: Rules, held: Sequence[int], order: Sequence[int]
) -> tuple[str, int] | None:
    """(kind, holder) of the special hand that applies (R-11), or None; ``held[seat]`` is the
    mask of the cards ``seat`` holds."""
    deck = rules.deck_mask()
    for kind in SPECIAL_KINDS:
        for seat in order:
            if _holds(kind, rules, deck, held[seat]):
                return kind, seat
    return None


def special_dues(
    rules: Rules, kind: str, holder: int, hands: Sequence[Sequence[Card]]
) -> list[tuple[int, int, int]]:
    """(payer, owed, cards held) of every other player, from the holder's next seat on;
    nobody pays for the stoppa di assi."""
    if kind == "assi":
        return []
    n = len(hands)
    dues = []
    for j in range(1, n):
        seat = (holder + j) % n
        left = len(hands[seat])
        owed = rules.ante if rules.special_payout == "ante" else rules.payment(left)
        dues.append((seat, owed, left))
    return dues
