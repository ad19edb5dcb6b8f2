"""Offline commands of `python -m bot`: demo, play, learn and bench."""

from __future__ import annotations

import argparse

from bot.engine.rules import MAX_PLAYERS, MIN_PLAYERS
from bot.i18n import t
from bot.players.levels import LEVELS


def positive_int(text: str) -> int:
    """An argparse type: a whole number of at least 1 (argparse shows the message)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(t("cli.not_a_count", text=text)) from None
    if value < 1:
        raise argparse.ArgumentTypeError(t("cli.not_a_count", text=text))
    return value


def add_offline_commands(sub: argparse._SubParsersAction) -> None:
    """Register `demo`, `play`, `learn` and `bench` on the `python -m bot` parser."""
    demo = sub.add_parser("demo", help=t("cli.help_demo"))
    demo.add_argument("--players", type=int, default=4,
                      choices=range(MIN_PLAYERS, MAX_PLAYERS + 1), metavar="N",
                      help=t("cli.option.players"))
    demo.add_argument("--seed", type=int, default=None, help=t("cli.option.seed"))
    demo.add_argument("--hands", type=positive_int, default=3, help=t("cli.option.hands"))
    demo.add_argument("--out", default="data/demo", help=t("cli.option.out"))
    demo.add_argument("--lang", default="en", choices=("en", "it"),
                      help=t("cli.option.lang"))
    demo.set_defaults(func=_demo)

    play = sub.add_parser("play", help=t("cli.help_play"))
    play.add_argument("--players", type=int, default=4,
                      choices=range(MIN_PLAYERS, MAX_PLAYERS + 1), metavar="N",
                      help=t("cli.option.players"))
    play.add_argument("--seed", type=int, default=None, help=t("cli.option.seed"))
    play.add_argument("--lang", default="en", choices=("en", "it"),
                      help=t("cli.option.lang"))
    play.add_argument("--level", default=None, choices=LEVELS, help=t("cli.option.level"))
    play.set_defaults(func=_play)

    learn = sub.add_parser("learn", help=t("cli.help_learn"))
    learn.add_argument("--lang", default="en", choices=("en", "it"),
                       help=t("cli.option.lang"))
    learn.set_defaults(func=_learn)

    bench = sub.add_parser("bench", help=t("cli.help_bench"))
    bench.set_defaults(func=_bench)


def _demo(args: argparse.Namespace) -> int:
    from bot.cli.demo import run_demo

    return run_demo(args)


def _play(args: argparse.Namespace) -> int:
    from bot.cli.play import run_play

    return run_play(args)


def _learn(args: argparse.Namespace) -> int:
    from bot.cli.learn import run_learn

    return run_learn(args)


def _bench(args: argparse.Namespace) -> int:
    from bot.cli.bench import run_bench

    return run_bench(args)
