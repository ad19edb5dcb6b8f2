"""`python -m bot cluster --processes N [--shards M]`: the command line of the supervisor.

Without `--command` the children are this bot (`python -m bot`), so the settings are checked
here first, with the same one-line messages and exit code 2 as `python -m bot`: a missing
token would otherwise make every child fail and be given up one after the other.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shlex
import sys

from bot.cli import positive_int
from bot.i18n import t


def positive_seconds(text: str) -> float:
    """An argparse type: a number of seconds more than 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(t("cli.not_a_count", text=text)) from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(t("cli.not_a_count", text=text))
    return value


def add_cluster_command(sub: argparse._SubParsersAction) -> None:
    """Register `cluster` on the `python -m bot` parser."""
    cluster = sub.add_parser("cluster", help=t("cluster.help"))
    cluster.add_argument("--processes", type=positive_int, required=True, metavar="N",
                         help=t("cluster.option.processes"))
    cluster.add_argument("--shards", type=positive_int, default=None, metavar="M",
                         help=t("cluster.option.shards"))
    # `dest` is not "command": that attribute names the sub-command (`cluster`) itself, and
    # writing the default None over it made `python -m bot` run the plain bot instead
    cluster.add_argument("--command", dest="child_command", default=None,
                         help=t("cluster.option.command"))
    cluster.add_argument("--restart-delay", type=positive_seconds, default=1.0,
                         metavar="SECONDS", help=t("cluster.option.restart_delay"))
    cluster.add_argument("--give-up-after", type=positive_int, default=5, metavar="N",
                         help=t("cluster.option.give_up_after"))
    cluster.add_argument("--stop-timeout", type=positive_seconds, default=30.0,
                         metavar="SECONDS", help=t("cluster.option.stop_timeout"))
    cluster.set_defaults(func=run_cluster)


def run_cluster(args: argparse.Namespace) -> int:
    """Split the shards, start the processes and supervise them until SIGTERM/SIGINT."""
    from bot.cluster.shards import ShardError, split_shards
    from bot.cluster.supervisor import RestartPolicy, Supervisor
    from bot.config import ConfigError, load_settings
    from bot.logs import setup_logging

    try:
        settings = load_settings()  # also loads .env, which the children then inherit
    except ConfigError as exc:
        print(f"stoppa: {exc}", file=sys.stderr)
        return 2
    if args.child_command is None and not settings.token:
        print(t("cli.no_token"), file=sys.stderr)
        return 2
    shard_count = args.shards or settings.shard_count or args.processes
    try:
        plans = split_shards(shard_count, args.processes)
    except ShardError as exc:
        print(t("cluster.shard_error", reason=str(exc)), file=sys.stderr)
        return 2
    default = [sys.executable, "-m", "bot"]
    command = shlex.split(args.child_command) if args.child_command else default
    setup_logging(settings.log_level, settings.log_format)
    print(t("cluster.starting", processes=len(plans), shards=shard_count,
            split=" | ".join(plan.describe_ids() for plan in plans)), file=sys.stderr)
    policy = RestartPolicy(first_delay=args.restart_delay, give_up_after=args.give_up_after,
                           stop_timeout=args.stop_timeout)
    supervisor = Supervisor(command, plans, policy=policy, env=os.environ)
    return asyncio.run(supervisor.run())
