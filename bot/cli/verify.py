"""`python -m bot verify`: check a closed table's deck offline, from values shown on Discord.

Paste the table number, the hand number, the revealed secret, the commitment that was shown
before the hand, and the words of the players dealt in (in seat order). It prints whether the
commitment matches, the deck of the hand, and with ``--players`` each player's cards by
their place after the dealer; ``--cards`` checks cards seen in a replay. Exit code 0 when
everything given matches, 1 when something does not (docs/fairness.md has a worked example).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TypeVar

from bot.engine.cards import Card, parse_cards
from bot.engine.rules import PLAYERS, VARIANTS
from bot.fairness import Commitment, TableSecret, normalise_word
from bot.fairness.pasted import PastedValues, check_pasted
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


def run_verify(args: argparse.Namespace, echo: Callable[[str], None] = print) -> int:
    """Print the checks of `verify`; 0 when everything given matches, else 1."""
    if args.cards and args.players is None:
        echo(t("fairness.verify.cards_need_players", args.lang))
        return 2
    values = PastedValues(
        args.secret, args.table, args.hand, args.commitment, tuple(args.word), args.players,
        args.three_players, args.removed_suit, args.six_players, tuple(args.cards),
    )
    return 0 if check_pasted(values, args.lang, echo) else 1
