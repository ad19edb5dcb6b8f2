"""`python -m bot [run|sync|cluster|demo|play|bench]`: run the Discord bot, or play offline."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from bot.i18n import t

NO_TOKEN_EXIT = 2
CONFIG_EXIT = 2


def _run(args: argparse.Namespace) -> int:
    from bot.config import ConfigError, load_settings

    try:
        settings = load_settings()
    except ConfigError as exc:
        print(f"stoppa: {exc}", file=sys.stderr)
        return CONFIG_EXIT
    if not settings.token:
        print(t("cli.no_token"), file=sys.stderr)
        return NO_TOKEN_EXIT

    from bot.logs import setup_logging

    setup_logging(settings.log_level, settings.log_format)
    from bot.client import run_bot

    return run_bot(settings, sync_only=args.command == "sync")


def build_parser() -> argparse.ArgumentParser:
    """The command-line parser of `python -m bot`."""
    parser = argparse.ArgumentParser(prog="python -m bot", description=t("cli.description"))
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("run", help=t("cli.help_run"))
    sub.add_parser("sync", help=t("service.help_sync"))
    from bot.cli import add_offline_commands

    add_offline_commands(sub)
    from bot.cli.db import add_db_command

    add_db_command(sub)
    from bot.cli.cluster import add_cluster_command

    add_cluster_command(sub)
    from bot.cli.verify import add_verify_command

    add_verify_command(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command in (None, "run", "sync"):
        return _run(args)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
