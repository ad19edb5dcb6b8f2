"""Special hands before the stoppa (R-11): which applies, who holds it, who pays what.

``special_hand(rules, hands, order)`` checks the kinds in their precedence (ricchezza, misera,
assi) and returns the first kind present with its holder, the first claimant in ``order``
(priority order), or None. ``special_dues`` lists what every other player owes the holder.

Decisions where RULES.md is silent: the ``cards`` payout uses the R-13 rate (``card_rate`` x
(cards // cards_per_payment) of the payer's cards); ``four_aces`` means every ace of the used
deck (three with a suit removed).
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card
from .rules import Rules

#: the kinds of special hand, in their precedence (R-11)
SPECIAL_KINDS = ("ricchezza", "misera", "assi")


def _rank_counts(cards: Sequence[Card]) -> list[int]:
    counts = [0] * 11
    for c in cards:
        counts[c.rank] += 1
    return counts


def holds_special(kind: str, rules: Rules, cards: Sequence[Card]) -> bool:
    """Whether ``cards`` (a whole hand) make the special hand ``kind`` under ``rules``."""
    return _holds(kind, rules, rules.rank_counts(), _rank_counts(cards))


def _holds(kind: str, rules: Rules, full: Sequence[int], held: Sequence[int]) -> bool:
    """``holds_special`` of a hand holding ``held[r]`` cards of each rank ``r`` (``full[r]``:
    the cards of that rank in the used deck)."""
    kings = held[10]
    if kind == "ricchezza":
        return full[10] > 0 and kings == full[10]
    if kind == "misera":
        return rules.stoppa_povera == "on" and not (held[8] or held[9] or kings)
    variant = rules.blocked_stoppa
    if variant == "four_aces":
        return held[1] == full[1]
    if variant == "three_twos_no_king":
        return held[2] >= 3 and not kings
    if variant == "three_aces_no_king":
        return held[1] >= 3 and not kings
    if variant == "four_aces_no_king":
        return held[1] == full[1] and not kings
    if variant == "three_aces":
        return held[1] >= 3
    return False


def special_hand(
    rules: Rules, hands: Sequence[Sequence[Card]], order: Sequence[int]
) -> tuple[str, int] | None:
    """(kind, holder) of the special hand that applies (R-11), or None."""
    full = rules.rank_counts()
    counts = [_rank_counts(cards) for cards in hands]
    for kind in SPECIAL_KINDS:
        for seat in order:
            if _holds(kind, rules, full, counts[seat]):
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
