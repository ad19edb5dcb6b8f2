"""The check of values pasted from Discord: `python -m bot verify` and `/verify` with a secret.

It reads nothing but what it is given (the secret, the table and hand numbers, the
commitment, the words in seat order, the players and variants): the same lines offline and
on Discord, and on Discord no look-up of any server's rows, so it works from anywhere
without telling anyone more than they pasted (issue 38).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.engine.cards import Card, cards_text
from bot.engine.rules import Rules
from bot.fairness.deck import DealInputs, first_dealer
from bot.fairness.secret import Commitment, TableSecret
from bot.i18n import t

Echo = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class PastedValues:
    """What a member pasted: the deck's inputs, and optionally the commitment shown before
    the hand, the players dealt in (with the table's variants) and cards one player held."""

    secret: TableSecret
    table: int
    hand: int
    commitment: Commitment | None = None
    words: tuple[str, ...] = ()
    players: int | None = None
    three_players: str = "king"
    removed_suit: str = "b"
    six_players: str = "kings"
    cards: tuple[tuple[Card, ...], ...] = ()


def hands_by_priority(deck: Sequence[Card], deals: Sequence[int], players: int) -> list[list[Card]]:
    """Each player's cards by place after the dealer (R-3): index 0 is the eldest hand,
    the last is the dealer; each deal gives every player the next ``k`` cards in turn."""
    hands: list[list[Card]] = [[] for _ in range(players)]
    pos = 0
    for k in deals:
        for hand in hands:
            hand.extend(deck[pos : pos + k])
            pos += k
    return hands


def check_pasted(values: PastedValues, lang: str, echo: Echo) -> bool:
    """Echo the checks of `values` in `lang`; True when everything given matches."""
    inputs = DealInputs(values.secret, values.table, values.hand, values.words)
    good = _check_commitment(values.commitment, values.secret, values.table, lang, echo)
    words = ", ".join(f'"{w}"' for w in inputs.words) or "-"
    echo(t("fairness.verify.words", lang, hand=values.hand, table=values.table,
           count=len(inputs.words), words=words))
    full = inputs.full_deck()
    echo(t("fairness.verify.deck", lang, count=len(full), cards=cards_text(full)))
    if values.players is not None:
        rules = Rules(players=values.players, three_players=values.three_players,
                      removed_suit=values.removed_suit, six_players=values.six_players)
        good = _show_hands(values, rules, inputs, lang, echo) and good
    echo(t("fairness.verify.all_ok" if good else "fairness.verify.some_bad", lang))
    return good


def _check_commitment(
    commitment: Commitment | None, secret: TableSecret, table: int, lang: str, echo: Echo
) -> bool:
    expected = Commitment.of(secret, table).hex()
    if commitment is None:
        echo(t("fairness.verify.commitment_computed", lang, table=table, expected=expected))
        return True
    if commitment.matches(secret, table):
        echo(t("fairness.verify.commitment_ok", lang, commitment=commitment.hex(), table=table))
        return True
    echo(t("fairness.verify.commitment_bad", lang, commitment=commitment.hex(), table=table,
           expected=expected))
    return False


def _show_hands(
    values: PastedValues, rules: Rules, inputs: DealInputs, lang: str, echo: Echo
) -> bool:
    deck = inputs.deck(rules.deck_mask())
    hands = hands_by_priority(deck, rules.deals, rules.players)
    echo(t("fairness.verify.used", lang, players=rules.players, count=len(deck)))
    for place, hand in enumerate(hands, 1):
        shown = cards_text(sorted(hand))
        if place == len(hands):
            echo(t("fairness.verify.dealer_seat", lang, cards=shown))
        else:
            echo(t("fairness.verify.seat", lang, position=place, cards=shown))
    if values.hand == 1:
        first = first_dealer(inputs.secret, rules.players) + 1
        echo(t("fairness.verify.first_dealer", lang, players=rules.players, position=first))
    good = True
    for cards in values.cards:
        places = [p for p, hand in enumerate(hands, 1) if set(cards) <= set(hand)]
        if places and places[0] == len(hands):
            echo(t("fairness.verify.cards_dealer", lang, cards=cards_text(cards)))
        elif places:
            echo(t("fairness.verify.cards_ok", lang, cards=cards_text(cards), position=places[0]))
        else:
            echo(t("fairness.verify.cards_bad", lang, cards=cards_text(cards)))
            good = False
    return good
