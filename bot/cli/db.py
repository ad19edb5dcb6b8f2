"""`python -m bot db upgrade|copy|forget`: the schema of a database, moving a server's data,
and forgetting a member (docs/privacy.md).

`upgrade` opens the database (which applies every migration it lacks) and prints its version.
`copy --from A --to B` copies every table of A into B, which must be empty (it is migrated
first). A must already exist and hold our schema (a mistyped path would otherwise be created
empty and "copied"), and hold data unless `--allow-empty`. Then it prints on both sides,
per server, the chips (accounts plus tables), the number of ledger rows, the open tables
and the audit: they must be equal, else the exit code is 1.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from bot.i18n import t
from bot.store.audit import AUDIT_GUILDS
from bot.store.contract import CopyableStore
from bot.store.errors import StoreError
from bot.store.factory import (
    DatabaseOpenError,
    DatabaseUrlError,
    open_checked,
    parse_database,
    parse_database_url,
    stored_schema_version,
)
from bot.store.privacy import forgotten_name
from bot.store.schema import LATEST, TABLES


def add_db_command(sub: argparse._SubParsersAction) -> None:
    """Register `db upgrade` and `db copy` on the `python -m bot` parser."""
    db = sub.add_parser("db", help=t("db.help"))
    actions = db.add_subparsers(dest="db_command", required=True)
    upgrade = actions.add_parser("upgrade", help=t("db.help_upgrade"))
    upgrade.add_argument("--database", default=None, help=t("db.option_database"))
    copy = actions.add_parser("copy", help=t("db.help_copy"))
    copy.add_argument("--from", dest="source", required=True, help=t("db.option_from"))
    copy.add_argument("--to", dest="target", required=True, help=t("db.option_to"))
    copy.add_argument("--allow-empty", action="store_true",
                      help=t("ops.db.option_allow_empty"))
    forget = actions.add_parser("forget", help=t("db.help_forget"))
    forget.add_argument("--server", type=int, required=True, help=t("db.option_server"))
    forget.add_argument("--member", type=int, required=True, help=t("db.option_member"))
    forget.add_argument("--database", default=None, help=t("db.option_database"))
    db.set_defaults(func=run_db)


_log = logging.getLogger("stoppa.db")


def run_db(args: argparse.Namespace) -> int:
    """Run `db upgrade` or `db copy`; the exit code (1 with one line on stderr when the
    databases are not usable; the traceback only with STOPPA_LOG_LEVEL=DEBUG)."""
    from bot.config import ConfigError

    try:
        if args.db_command in ("upgrade", "forget"):
            if args.database is None:
                database, setting = _configured_database()
            else:
                database, setting = args.database, "--database"
                parse_database_url(database, setting)
            if args.db_command == "forget":
                return asyncio.run(forget(database, setting, args.server, args.member))
            return asyncio.run(upgrade(database, setting))
        parse_database_url(args.source, "--from")
        parse_database_url(args.target, "--to")
        return asyncio.run(copy(args.source, args.target, allow_empty=args.allow_empty))
    except StoreError as error:
        message = error.message("en")
    except (DatabaseUrlError, ConfigError) as error:
        message = str(error)
    except DatabaseOpenError as error:
        if os.environ.get("STOPPA_LOG_LEVEL", "").strip().upper() == "DEBUG":
            logging.basicConfig()
            _log.error("database failure", exc_info=error.__cause__ or error)
        message = str(error)
    print(t("db.failed", error=message), file=sys.stderr)
    return 1


def _configured_database() -> tuple[str, str]:
    """The database of the settings and the variable that named it."""
    from bot.config import load_settings

    settings = load_settings()
    return settings.database, settings.database_setting


async def _open(database: str, setting: str) -> CopyableStore:
    return cast(CopyableStore, await open_checked(database, setting))


async def upgrade(database: str, setting: str = "--database") -> int:
    """Migrate `database` to the latest schema and say which version it is at."""
    store = await _open(database, setting)
    try:
        version = await store.schema_version()
    finally:
        await store.close()
    print(t("db.upgraded", database=_shown(database), version=version, latest=LATEST))
    return 0


async def forget(database: str, setting: str, server: int, member: int) -> int:
    """Forget `member` on `server` (docs/privacy.md): the store's one transaction, as
    `/privacy` runs it; `ForgetRefused` (a StoreError) while they are in a game in play."""
    store = await _open(database, setting)
    try:
        done = await store.forget_member(server, member)
    finally:
        await store.close()
    print(t("db.forgotten", server=str(server), member=str(member),
            name=forgotten_name(done.placeholder),
            amount=done.chips_returned))
    return 0


@dataclass(frozen=True, slots=True)
class Summary:
    """What must be equal on both sides of a copy."""

    servers: dict[int, tuple[int, int, int]]  # guild -> (balances, escrow, minted)
    ledger_rows: int
    open_tables: int
    audit: list[str]

    def comparable(self) -> tuple[object, ...]:
        return (self.servers, self.ledger_rows, self.open_tables, self.audit)


async def summarise(store: CopyableStore) -> Summary:
    """Per server chips, ledger rows, open tables and the audit of one store."""
    guilds = sorted(int(r[0]) for r in await store.query(AUDIT_GUILDS))
    servers = {g: await store.total_chips(g) for g in guilds}
    ledger = await store.query("SELECT COUNT(*) FROM ledger")
    open_tables = await store.query("SELECT COUNT(*) FROM tables WHERE status != 'closed'")
    return Summary(servers, int(ledger[0][0]), int(open_tables[0][0]), await store.audit())


def print_summary(side: str, database: str, summary: Summary) -> None:
    """The summary as lines a person reads."""
    print(t("db.summary_title", side=side, database=_shown(database)))
    for guild, (balances, escrow, _minted) in summary.servers.items():
        print(
            t(
                "db.summary_server",
                guild=guild,
                chips=balances + escrow,
                balances=balances,
                escrow=escrow,
            )
        )
    audit = (
        t("db.audit_problems", count=len(summary.audit)) if summary.audit else t("db.audit_clean")
    )
    print(
        t(
            "db.summary_totals",
            ledger=summary.ledger_rows,
            open_tables=summary.open_tables,
            audit=audit,
        )
    )


async def check_source(source: str) -> None:
    """Refuse (DatabaseOpenError) a source that does not exist or is not ours, before
    opening it creates or migrates anything."""
    version = await stored_schema_version(source, "--from")
    if version is None:
        raise DatabaseOpenError(
            t("ops.db.no_source", database=_shown(source), setting="--from", cwd=os.getcwd())
        )
    if version == 0:
        raise DatabaseOpenError(t("ops.db.not_ours", database=_shown(source), setting="--from"))


async def copy(source: str, target: str, *, allow_empty: bool = False) -> int:
    """Copy every table of `source` into the empty `target`; 0 if both sides then agree."""
    await check_source(source)
    src = await _open(source, "--from")
    try:
        if not allow_empty and not await src.is_empty():
            raise DatabaseOpenError(
                t("ops.db.empty_source", database=_shown(source), setting="--from")
            )
        dst = await _open(target, "--to")
        try:
            full = await dst.is_empty()
            if full:
                raise StoreError("target_not_empty", {"tables": ", ".join(full)})
            for table in TABLES:
                columns, rows = await src.export_rows(table)
                if rows:
                    await dst.import_rows(table, columns, rows)
                print(t("db.copied_table", table=table, rows=len(rows)))
            before, after = await summarise(src), await summarise(dst)
        finally:
            await dst.close()
    finally:
        await src.close()
    print_summary(t("db.side_from"), source, before)
    print_summary(t("db.side_to"), target, after)
    same = before.comparable() == after.comparable() and not after.audit
    print(t("db.equal") if same else t("db.different"))
    return 0 if same else 1


def _shown(database: str) -> str:
    """The database as printed: a URL's password is never shown."""
    return str(parse_database(database))


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m bot.cli.db ...` (the same as `python -m bot db ...`)."""
    parser = argparse.ArgumentParser(prog="python -m bot")
    add_db_command(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["db", *(argv if argv is not None else sys.argv[1:])])
    return run_db(args)
