"""Database names and failures on the operator's road (issue 26), in real subprocesses:
`db copy` refuses a source that is missing, not ours or empty; URL settings and options
refuse a bare word; PostgreSQL failures (bad port, unknown role, missing database) are one
line naming the database without its password, exit 1, at start and in `db upgrade`/`copy`."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tests.store.conftest import postgres_schema, postgres_url

ROOT = Path(__file__).resolve().parents[2]


def run(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "STOPPA_"))}
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], cwd=cwd, capture_output=True, text=True,
        timeout=90, env={**base, "PYTHONPATH": str(ROOT), **env},
    )


def one_line(proc: subprocess.CompletedProcess[str], code: int = 1) -> str:
    assert proc.returncode == code, proc.stdout + proc.stderr
    lines = [x for x in proc.stderr.splitlines() if x.startswith("stoppa")]
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    return lines[0]


def test_copy_from_a_missing_file_fails_and_creates_nothing(tmp_path: Path) -> None:
    proc = run(tmp_path, "db", "copy", "--from", "sqlite:///data/stoppa.db",
               "--to", f"sqlite:///{tmp_path / 'copy.db'}")
    line = one_line(proc)
    assert "no database at sqlite:///data/stoppa.db" in line and str(tmp_path) in line
    assert "agree" not in proc.stdout
    assert not (tmp_path / "data" / "stoppa.db").exists()
    assert not (tmp_path / "copy.db").exists()


def test_copy_from_a_file_that_is_not_ours_fails_and_leaves_it_alone(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE notes (x)")
    proc = run(tmp_path, "db", "copy", "--from", "sqlite:///other.db", "--to", "sqlite:///c.db")
    assert "does not hold this bot's data" in one_line(proc)
    with sqlite3.connect(other) as conn:  # not migrated into our schema
        assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master")] == ["notes"]


def test_an_empty_source_is_refused_unless_allowed(tmp_path: Path) -> None:
    assert run(tmp_path, "db", "upgrade", "--database", "sqlite:///empty.db").returncode == 0
    refused = run(tmp_path, "db", "copy", "--from", "sqlite:///empty.db", "--to", "sqlite:///c.db")
    assert "--allow-empty" in one_line(refused)
    assert not (tmp_path / "c.db").exists()
    allowed = run(tmp_path, "db", "copy", "--from", "sqlite:///empty.db", "--to",
                  "sqlite:///c.db", "--allow-empty")
    assert allowed.returncode == 0, allowed.stderr
    assert "Both sides agree" in allowed.stdout


@pytest.mark.parametrize("args", [
    ("db", "upgrade", "--database", "garbage2"),
    ("db", "copy", "--from", "garbage2", "--to", "sqlite:///c.db"),
    ("db", "copy", "--from", "sqlite:///c.db", "--to", "garbage2"),
    ("db", "upgrade", "--database", "mysql://h/db"),
])
def test_an_option_that_is_not_a_url_is_refused(tmp_path: Path, args: tuple[str, ...]) -> None:
    line = one_line(run(tmp_path, *args))
    assert "must be a database URL" in line and "sqlite:///" in line
    assert list(tmp_path.iterdir()) == []  # no file named garbage2 (nor c.db)


def test_a_database_url_setting_that_is_not_a_url_is_refused(tmp_path: Path) -> None:
    for command in ((), ("db", "upgrade")):
        proc = run(tmp_path, *command, DISCORD_TOKEN="x", STOPPA_DATABASE_URL="garbage")
        line = one_line(proc, 1 if command else 2)
        assert "STOPPA_DATABASE_URL must be a database URL" in line
    assert list(tmp_path.iterdir()) == []
    # STOPPA_DB stays a path
    assert run(tmp_path, "db", "upgrade", STOPPA_DB="plain.db").returncode == 0
    assert (tmp_path / "plain.db").exists()


def test_an_unwritable_sqlite_url_names_its_own_setting(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("not a folder")  # (the tests may run as root)
    url = f"sqlite:///{tmp_path / 'a-file' / 'x.db'}"
    proc = run(tmp_path, DISCORD_TOKEN="x", STOPPA_DATABASE_URL=url)
    line = one_line(proc)
    assert "STOPPA_DATABASE_URL" in line and "STOPPA_DB" not in line.replace("STOPPA_DATABASE", "")
    assert "cannot open the database file" in line


def _pg_variants() -> dict[str, tuple[str, str]]:
    """Broken URLs of the test server, each with a password in it, and the words expected."""
    parts = urlsplit(postgres_url())
    host = parts.hostname or "localhost"
    port = parts.port or 5432
    user = parts.username or "postgres"

    def url(user: str, port: int, db: str) -> str:
        return urlunsplit((parts.scheme, f"{user}:s3cret-pw@{host}:{port}", f"/{db}", "", ""))

    return {
        "bad port": (url(user, 1, "postgres"), "cannot reach the PostgreSQL server"),
        "wrong role": (url("no_such_role_26", port, "postgres"), "refused the login"),
        "missing database": (url(user, port, "no_such_db_26"), "does not exist"),
    }


@pytest.mark.parametrize("case", ["bad port", "wrong role", "missing database"])
def test_postgres_failures_are_one_line_without_the_password(tmp_path: Path, case: str) -> None:
    url, words = _pg_variants()[case]
    shown = url.replace("s3cret-pw", "***")
    runs = {
        "start": (run(tmp_path, DISCORD_TOKEN="x", STOPPA_DATABASE_URL=url), "STOPPA_DATABASE_URL"),
        "upgrade": (run(tmp_path, "db", "upgrade", "--database", url), "--database"),
        "copy": (run(tmp_path, "db", "copy", "--from", url, "--to", "sqlite:///c.db"), "--from"),
    }
    for name, (proc, setting) in runs.items():
        line = one_line(proc)
        assert words in line and shown in line and setting in line, (name, line)
        assert "s3cret" not in proc.stdout + proc.stderr, name
        assert "Discord" not in line, name
    start_log = runs["start"][0].stderr
    assert f"database: {shown} (PostgreSQL)" in start_log
    assert "database file" not in start_log


def test_postgres_failures_show_the_traceback_at_debug(tmp_path: Path) -> None:
    url, _ = _pg_variants()["missing database"]
    proc = run(tmp_path, "db", "upgrade", "--database", url, STOPPA_LOG_LEVEL="DEBUG")
    assert proc.returncode == 1
    assert "Traceback" in proc.stderr and "InvalidCatalogNameError" in proc.stderr
    assert "s3cret" not in proc.stderr


async def test_copy_between_postgres_schemas_still_works(tmp_path: Path) -> None:
    async with postgres_schema() as pg:
        store = await pg()
        await store.grant(111, 10, 250, reason="prize", by=1)
        proc = run(tmp_path, "db", "copy", "--from", pg.url, "--to", "sqlite:///copy.db")
        assert proc.returncode == 0, proc.stderr
        assert "Both sides agree" in proc.stdout


def test_the_url_forms_we_know_are_read() -> None:
    from bot.store.factory import parse_database_url

    assert parse_database_url("sqlite:///data/x.db", "S").location == "data/x.db"
    assert parse_database_url("sqlite:////srv/x.db", "S").location == "/srv/x.db"
    assert parse_database_url("postgresql://u@h/db", "S").kind == "postgresql"
    assert parse_database_url("postgres://u@h/db", "S").kind == "postgresql"  # asyncpg too


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_anything_else_is_refused_naming_the_setting_without_a_password(text: str) -> None:
    from bot.store.factory import DatabaseUrlError, parse_database_url

    url = text + "://u:hunter2@h/db"
    assume(not url.strip().startswith(("sqlite:///", "postgresql://", "postgres://")))
    with pytest.raises(DatabaseUrlError) as refused:
        parse_database_url(url, "--to")
    assert refused.value.message().startswith("--to must be a database URL")
    assert "hunter2" not in refused.value.message()


def test_a_password_with_an_at_sign_is_hidden_whole() -> None:
    from bot.store.factory import without_password

    assert without_password("postgresql://u:p@ss@h:5432/db") == "postgresql://u:***@h:5432/db"
    assert without_password("u:secret@h/db") == "u:***@h/db"
    assert without_password("postgresql://u@h/db") == "postgresql://u@h/db"
