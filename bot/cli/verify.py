"""`python -m bot verify`: check a closed table's deck offline, from values shown on Discord.

Paste the table number, the hand number, the revealed secret, the commitment that was shown
before the hand, and the words of the players dealt in (in seat order). It prints whether the
commitment matches, the deck of the hand, and with ``--players`` each player's cards by
their place after the dealer; ``--cards`` checks cards seen in a replay. Exit code 0 when
everything given matches, 1 when something does not (docs/fairness.md has a worked example).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import TypeVar

from bot.engine.cards import Card, cards_text, parse_cards
from bot.engine.rules import PLAYERS, VARIANTS, Rules
from bot.fairness import Commitment, DealInputs, TableSecret, first_dealer, normalise_word
from bot.i18n import t

T = TypeVar("T")


def _typed(parse: Callable[[str], T]) -> Callable[[str], T]:
    """An argparse type from a parser that raises ValueError with a readable reason."""

    def convert(text: str) -> T:
        try:
            return parse(text)
        except (ValueError, OverflowError) as error:
            raise argparse.ArgumentTypeError(
                t("fairness.verify.bad_value", value=repr(text), reason=error)
            ) from None

    convert.__name__ = parse.__name__
    return convert


def _whole(text: str) -> int:
    value = int(text)
    if not 0 <= value < 2**64:
        raise ValueError("a whole number from 0")
    return value


def _cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def add_verify_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `verify` on the `python -m bot` parser."""
    verify = sub.add_parser("verify", help=t("fairness.verify.help"))
    verify.add_argument("--secret", required=True, type=_typed(TableSecret.from_hex),
                        help=t("fairness.verify.option_secret"))
    verify.add_argument("--table", required=True, type=_typed(_whole),
                        help=t("fairness.verify.option_table"))
    verify.add_argument("--hand", required=True, type=_typed(_whole),
                        help=t("fairness.verify.option_hand"))
    verify.add_argument("--commitment", type=_typed(Commitment.from_hex),
                        help=t("fairness.verify.option_commitment"))
    verify.add_argument("--word", action="append", default=[], type=_typed(normalise_word),
                        help=t("fairness.verify.option_word"))
    verify.add_argument("--players", type=int, choices=PLAYERS, metavar="N",
                        help=t("fairness.verify.option_players"))
    verify.add_argument("--three-players", default="king", choices=VARIANTS["three_players"],
                        help=t("fairness.verify.option_three_players"))
    verify.add_argument("--removed-suit", default="b", choices=VARIANTS["removed_suit"],
                        help=t("fairness.verify.option_removed_suit"))
    verify.add_argument("--six-players", default="kings", choices=VARIANTS["six_players"],
                        help=t("fairness.verify.option_six_players"))
    verify.add_argument("--cards", action="append", default=[], type=_typed(_cards),
                        help=t("fairness.verify.option_cards"))
    verify.add_argument("--lang", default="en", choices=("en", "it"),
                        help=t("fairness.verify.option_lang"))
    verify.set_defaults(func=run_verify)


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


def run_verify(args: argparse.Namespace, echo: Callable[[str], None] = print) -> int:
    """Print the checks of `verify`; 0 when everything given matches, else 1."""
    lang: str = args.lang
    if args.cards and args.players is None:
        echo(t("fairness.verify.cards_need_players", lang))
        return 2
    secret: TableSecret = args.secret
    inputs = DealInputs(secret, args.table, args.hand, tuple(args.word))
    good = _check_commitment(args.commitment, secret, args.table, lang, echo)
    words = ", ".join(f'"{w}"' for w in inputs.words) or "-"
    echo(t("fairness.verify.words", lang, hand=args.hand, table=args.table,
           count=len(inputs.words), words=words))
    full = inputs.full_deck()
    echo(t("fairness.verify.deck", lang, count=len(full), cards=cards_text(full)))
    if args.players is not None:
        rules = Rules(players=args.players, three_players=args.three_players,
                      removed_suit=args.removed_suit, six_players=args.six_players)
        good = _show_hands(args, rules, inputs, lang, echo) and good
    echo(t("fairness.verify.all_ok" if good else "fairness.verify.some_bad", lang))
    return 0 if good else 1


def _check_commitment(
    commitment: Commitment | None, secret: TableSecret, table: int, lang: str,
    echo: Callable[[str], None],
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
    args: argparse.Namespace, rules: Rules, inputs: DealInputs, lang: str,
    echo: Callable[[str], None],
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
    if args.hand == 1:
        first = first_dealer(inputs.secret, rules.players) + 1
        echo(t("fairness.verify.first_dealer", lang, players=rules.players, position=first))
    good = True
    for cards in args.cards:
        places = [p for p, hand in enumerate(hands, 1) if set(cards) <= set(hand)]
        if places and places[0] == len(hands):
            echo(t("fairness.verify.cards_dealer", lang, cards=cards_text(cards)))
        elif places:
            echo(t("fairness.verify.cards_ok", lang, cards=cards_text(cards), position=places[0]))
        else:
            echo(t("fairness.verify.cards_bad", lang, cards=cards_text(cards)))
            good = False
    return good
