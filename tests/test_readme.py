"""The README agrees with the code: its invite URL and permission list (issue 15), and every
command line of the bash blocks of the README and of docs/ runs as typed (issues 26 and 39),
the backup, update and rollback lines included."""

from __future__ import annotations

import asyncio
import io
import os
import re
import signal
import subprocess
import sys
import tomllib
from asyncio.subprocess import Process
from pathlib import Path

import discord
import pytest
from dotenv import dotenv_values

from bot.invite import BOT_PERMISSIONS, invite_url, user_install_url
from tests.test_service import APP_ID, GOOD_TOKEN, FakeApi, api, finish, started  # noqa: F401

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
#: the README and every page of docs/, by path: their command lines all run as typed
DOCS = {"README.md": README} | {
    f"docs/{page.name}": page.read_text(encoding="utf-8")
    for page in sorted((ROOT / "docs").glob("*.md"))
}

#: discord.py's permission names as Discord's client shows them
SHOWN = {
    "read_messages": "View Channel",  # discord.py iterates view_channel under its old name
    "send_messages": "Send Messages",
    "send_messages_in_threads": "Send Messages in Threads",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
    "read_message_history": "Read Message History",
}


def test_the_permission_integer_is_computed_from_the_permissions() -> None:
    expected = discord.Permissions(
        view_channel=True, send_messages=True, send_messages_in_threads=True,
        embed_links=True, attach_files=True, read_message_history=True,
    ).value
    assert BOT_PERMISSIONS.value == expected == 274878024704
    assert f"permissions={expected}" in README
    assert invite_url("YOUR_APPLICATION_ID") in README


def test_the_member_install_is_explained_with_its_link() -> None:
    """Issue 38: the Developer Portal switch, the link with the user integration type, that
    a development server's commands cannot be installed to an account, what works where."""
    assert user_install_url("YOUR_APPLICATION_ID") in README
    for text in ("User Install", "STOPPA_DEV_GUILD", "| `/learn` |", "| `/verify table:N` |"):
        assert text in README, text


def test_every_permission_is_listed_and_no_other() -> None:
    granted = {name for name, value in BOT_PERMISSIONS if value}
    assert granted == set(SHOWN)
    for name in granted:
        assert f"| {SHOWN[name]} |" in README


def test_the_service_sections_are_there() -> None:
    for text in (".backup", "SIGTERM", "database file: ", "## Updating", "db upgrade"):
        assert text in README, text
    for text in ("python -m bot sync", "SIGTERM", "ephemeral disk", "PostgreSQL"):
        assert text in DOCS["docs/operators.md"], text
    assert (ROOT / "Procfile").read_text().strip() == "worker: python -m bot"


def test_the_readme_is_short_and_links_every_page_of_docs() -> None:
    """At most 300 lines (issue 39), and every page of docs/ reachable from it."""
    assert README.count("\n") <= 300
    for page in DOCS:
        if page != "README.md":
            assert f"]({page})" in README, page


def test_the_readme_quotes_the_schema_version_db_upgrade_prints() -> None:
    from bot.i18n import t
    from bot.store import SCHEMA_VERSION

    printed = t("db.upgraded", database="sqlite:////srv/stoppa/data/stoppa.db",
                version=SCHEMA_VERSION, latest=SCHEMA_VERSION)
    assert f"(`{printed}` today)" in README


def test_the_no_token_hint_names_the_venv_python() -> None:
    from bot.i18n import t

    for lang in ("en", "it"):
        hint = t("cli.no_token", lang)
        assert ".venv/bin/python -m bot demo" in hint
        assert re.search(r"(?<![/\w])python -m bot", hint) is None, hint


# --- every command line of the README's and docs' bash blocks, run as typed (issues 26, 39) --
#
# The lines are read from README.md and docs/*.md; each must be listed in HOW below, with the
# way a test runs it, so a new line in a bash block fails `test_every_command_line_is_checked`
# naming it until a check is written for it.

FENCE = re.compile(r"^ *```(\w+)\n(.*?)^ *```", re.M | re.S)

#: how each command line is checked (docs/contributors.md says the same in "How the README's
#: command lines are tested")
HOW = {
    "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/python -m bot":
        "install the bot alone; run against the fake Discord API",
    ".venv/bin/pip install -e .": "install the bot alone",
    ".venv/bin/pip install -e '.[test]'": "install the test tools as CI does",
    ".venv/bin/python -m pytest": "what CI runs",
    ".venv/bin/python -m bot demo": "offline",
    ".venv/bin/python -m bot demo --players 5 --seed 7 --hands 3 --lang it --out data/demo":
        "offline",
    ".venv/bin/python -m bot play": "offline, scripted input",
    ".venv/bin/python -m bot play --level expert": "offline, scripted input",
    ".venv/bin/python -m bot learn": "offline, the lesson's moves",
    ".venv/bin/python -m bot bench": "benchmark",
    '.venv/bin/python bench/bench_tables.py full': "benchmark, small size",
    'mkdir -p backup && sqlite3 data/stoppa.db ".backup \'backup/stoppa-$(date +%F).db\'"':
        "update, in a fresh clone",
    "git pull": "update, in a fresh clone",
    "git checkout 'HEAD@{1}'": "update, in a fresh clone",
    'cp "backup/stoppa-$(date +%F).db" data/stoppa.db'
    " && rm -f data/stoppa.db-wal data/stoppa.db-shm": "update, in a fresh clone",
    "sudo systemctl stop stoppa": "needs root and systemd: not run",
    "sudo systemctl start stoppa": "needs root and systemd: not run",
    'sudo -u postgres createdb --owner="$USER" stoppa': "needs root and systemd: not run",
    ".venv/bin/python -m bot db upgrade": "SQLite (update) and PostgreSQL",
    ".venv/bin/python -m bot db copy --from sqlite:///data/stoppa.db"
    " --to postgresql://user@localhost/stoppa": "PostgreSQL",
    ".venv/bin/python -m bot db forget --server 123456789012345678 --member 234567890123456789":
        "a fresh database, then a member who played",
    ".venv/bin/python -m bot sync": "fake Discord API",
    ".venv/bin/python -m bot cluster --processes 2 --shards 8": "fake Discord API",
}
#: the placeholder database of the README's PostgreSQL examples
README_PG_URL = "postgresql://user@localhost/stoppa"


def fenced(language: str, text: str | None = None) -> list[str]:
    """The lines of every fenced block in `language` (of `text`, else of the README and every
    page of docs/): a trailing backslash joins the next line, and comments (a whole line, or
    after two spaces) are left out."""
    lines: list[str] = []
    for body_text in DOCS.values() if text is None else [text]:
        for lang, body in FENCE.findall(body_text):
            if lang != language:
                continue
            pending = ""
            for raw in body.splitlines():
                if raw.rstrip().endswith("\\"):
                    pending += raw.rstrip()[:-1].strip() + " "
                    continue
                line = re.sub(r"\s{2,}#.*$", "", pending + raw.strip()).strip()
                pending = ""
                if line and not line.startswith("#"):
                    lines.append(line)
    return list(dict.fromkeys(lines))


def command_lines() -> list[str]:
    return fenced("bash")


def lines_checked_as(how: str) -> list[str]:
    found = [line for line in command_lines() if HOW.get(line) == how]
    assert found, f"no README or docs line is checked as {how!r} any more: update HOW"
    return found


def test_every_command_line_is_checked() -> None:
    unchecked = [line for line in command_lines() if line not in HOW]
    assert not unchecked, f"command lines without a test (add them to HOW): {unchecked}"
    gone = [line for line in HOW if line not in command_lines()]
    assert not gone, f"HOW lists lines no page has any more: {gone}"
    assert fenced("bash", "```bash\na  # note\n# only a comment\nb \\\n  c\n```\n") == ["a", "b c"]
    assert "sync" in " ".join(fenced("bash", DOCS["docs/operators.md"]))  # the docs are read


def test_every_python_line_uses_the_venv() -> None:
    for line in command_lines():
        assert re.search(r"(?<![/\w])python3? -m bot", line) is None, line
        assert re.search(r"(?<![/\w])pip ", line) is None, line


def test_the_docs_say_how_the_lines_are_checked() -> None:
    page = DOCS["docs/contributors.md"]
    assert "## How the README's command lines are tested" in page
    for how in set(HOW.values()):
        assert how in page, how


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    """A fresh folder where `.venv` is the virtual environment running the tests and `bench`
    is the repository's, so the README's lines run there as typed."""
    (tmp_path / ".venv").symlink_to(Path(sys.prefix))
    (tmp_path / "bench").symlink_to(ROOT / "bench")
    return tmp_path


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "STOPPA_"))}
    return {**env, "PYTHONPATH": str(ROOT), **extra}


def shell(line: str, cwd: Path, *, stdin: str = "", timeout: float = 300,
          **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-c", line], cwd=cwd, input=stdin, capture_output=True,
                          text=True, timeout=timeout, env=clean_env(**env))


@pytest.mark.slow
def test_the_offline_lines_run(workdir: Path) -> None:
    for line in lines_checked_as("offline"):
        proc = shell(line, workdir)
        assert proc.returncode == 0, (line, proc.stderr)
        assert proc.stdout.count("\n") > 20, line  # a whole game was narrated
    images = sorted(p.name for p in (workdir / "data" / "demo").iterdir())
    assert any(name.endswith(".png") for name in images), images
    assert any(name.endswith("_replay.webp") for name in images), images


def test_play_runs_with_scripted_input(workdir: Path) -> None:
    for line in lines_checked_as("offline, scripted input"):
        proc = shell(line, workdir, stdin="help\nhand\npass\npass\nquit\n")
        assert proc.returncode == 0, proc.stderr
        assert "Your hand:" in proc.stdout and "Choices:" in proc.stdout
        assert "Goodbye: you leave with" in proc.stdout and "Traceback" not in proc.stderr
        if "--level expert" in line:
            assert proc.stdout.count(": CPU expert") == 3, proc.stdout[:300]


def test_learn_runs_to_the_end_of_the_lesson(workdir: Path) -> None:
    from bot.learn import STEPS
    from bot.learn.lesson import choices, lesson_step, same_move

    (line,) = lines_checked_as("offline, the lesson's moves")
    answers = [
        next(i for i, m in enumerate(choices(lesson_step(n)), 1) if same_move(m, step.asked))
        for n, step in enumerate(STEPS)
    ]
    proc = shell(line, workdir, stdin="".join(f"{a}\n" for a in answers))
    assert proc.returncode == 0, proc.stderr
    assert "Stoppa!" in proc.stdout and "Traceback" not in proc.stderr


@pytest.mark.slow
def test_the_benchmark_lines_run_at_their_small_size(workdir: Path) -> None:
    for line in lines_checked_as("benchmark") + lines_checked_as("benchmark, small size"):
        small = line.replace(" full", " small")
        proc = shell(small, workdir, timeout=580)
        assert proc.returncode == 0, (small, proc.stderr)
        assert re.search(r"\d", proc.stdout), small


def test_the_install_and_test_lines_are_what_ci_runs() -> None:
    """The run line installs the bot alone (no test tools); the test lines install the test
    tools and run the tests exactly as `.ci/run` does."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    (test_line,) = lines_checked_as("what CI runs")
    assert ci.rstrip().splitlines()[-1] == test_line  # the test command, exactly
    (tools,) = lines_checked_as("install the test tools as CI does")
    assert tools.replace(".venv/bin/pip install", ".venv/bin/python -m pip install --quiet") in ci
    (install,) = lines_checked_as("install the bot alone; run against the fake Discord API")
    venv, pip, run = install.split(" && ")
    assert venv == "python3 -m venv .venv" and '"$PY" -m venv .venv' in ci
    assert lines_checked_as("install the bot alone") == [pip] == [".venv/bin/pip install -e ."]
    assert run == ".venv/bin/python -m bot"  # run by test_the_run_line_starts_the_bot
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    needed = " ".join(project["dependencies"])
    for tool in ("pytest", "hypothesis", "mypy", "ruff"):
        assert tool not in needed and any(tool in r for r in project["optional-dependencies"]
                                          ["test"])


def test_the_root_lines_name_what_exists() -> None:
    """The lines that need root and systemd are not run; the unit they name is in deploy/
    (and installs itself as `stoppa`), the database tool is PostgreSQL's."""
    for line in lines_checked_as("needs root and systemd: not run"):
        assert line.startswith("sudo "), line
        if "systemctl" in line:
            unit = line.split()[-1]
            assert (ROOT / "deploy" / f"{unit}.service").exists(), line
        else:
            assert line.startswith("sudo -u postgres createdb "), line


def test_the_env_block_is_a_valid_configuration() -> None:
    from bot.config import load_settings

    lines = fenced("dotenv")
    values = dotenv_values(stream=io.StringIO("\n".join(lines)))
    assert values["STOPPA_DATABASE_URL"] == "postgresql://user:password@localhost:5432/stoppa"
    settings = load_settings({k: v or "" for k, v in values.items()}, dotenv=False)
    assert settings.database_setting == "STOPPA_DATABASE_URL"


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args], cwd=cwd,
        capture_output=True, text=True, check=True,
    ).stdout.strip()


def test_the_backup_update_and_rollback_lines_run(tmp_path: Path) -> None:
    """The lines of "Data and backups" and "Updating", in order, as typed, in a fresh clone
    whose database is one schema version old: the backup is made (its folder too), `git pull`
    brings the new commit, `db upgrade` says the version the README quotes, the rollback goes
    back to the old commit and puts the backup in place of the upgraded database."""
    import sqlite3

    from bot.store.schema import LATEST, migrate, schema_version

    origin, clone = tmp_path / "origin", tmp_path / "clone"
    origin.mkdir()
    git(origin, "init", "-q", "-b", "main")
    (origin / "VERSION").write_text("old\n")
    git(origin, "add", "VERSION")
    git(origin, "commit", "-q", "-m", "old")
    git(tmp_path, "clone", "-q", str(origin), str(clone))
    (origin / "VERSION").write_text("new\n")
    git(origin, "commit", "-q", "-am", "new")
    (clone / ".venv").symlink_to(Path(sys.prefix))
    (clone / "data").mkdir()
    with sqlite3.connect(clone / "data" / "stoppa.db") as db:
        migrate(db, LATEST - 1)
        db.execute("INSERT INTO servers (guild_id) VALUES (7)")
    db.close()

    lines = [line for line in command_lines() if HOW[line] == "update, in a fresh clone"]
    backup, pull, checkout, restore = lines
    upgrade = ".venv/bin/python -m bot db upgrade"
    for line in (backup, pull, upgrade, checkout, restore):
        proc = shell(line, clone)
        assert proc.returncode == 0, (line, proc.stderr)
        if line == pull:
            assert (clone / "VERSION").read_text() == "new\n"
        if line == upgrade:
            assert f"schema at version {LATEST} (latest {LATEST})." in proc.stdout
            with sqlite3.connect(clone / "data" / "stoppa.db") as db:
                assert schema_version(db) == LATEST
            db.close()
        if line == checkout:
            assert (clone / "VERSION").read_text() == "old\n"
    (made,) = (clone / "backup").iterdir()
    assert re.fullmatch(r"stoppa-\d{4}-\d\d-\d\d\.db", made.name)
    with sqlite3.connect(clone / "data" / "stoppa.db") as db:
        assert schema_version(db) == LATEST - 1  # the backup, before the upgrade
        assert db.execute("SELECT guild_id FROM servers").fetchall() == [(7,)]
    db.close()
    assert not (clone / "data" / "stoppa.db-wal").exists()


async def test_the_postgres_lines_run(workdir: Path) -> None:
    from tests.store.conftest import postgres_schema
    from tests.store.test_db_command import _fill

    (upgrade,) = [line for line in command_lines() if line.endswith(" db upgrade")]
    (copy,) = lines_checked_as("PostgreSQL")
    (workdir / "data").mkdir()
    await _fill(str(workdir / "data" / "stoppa.db"))
    # as typed: the placeholder server is not there; one line says so
    typed = shell(copy, workdir)
    assert typed.returncode == 1
    (line,) = [x for x in typed.stderr.splitlines() if x.startswith("stoppa")]
    assert "PostgreSQL" in line and README_PG_URL in line, typed.stderr
    async with postgres_schema() as pg:
        # with the URL in .env pointing at the test server, as the README's .env block does
        done = shell(upgrade, workdir, STOPPA_DATABASE_URL=pg.url)
        assert done.returncode == 0, done.stderr
        assert "schema at version" in done.stdout
        copied = shell(copy.replace(README_PG_URL, pg.url), workdir)
        assert copied.returncode == 0, copied.stderr
        assert "Both sides agree" in copied.stdout


def test_the_forget_line_runs(workdir: Path) -> None:
    """As typed, on the fresh database of an empty folder (nothing to forget: exit 0); then
    with that member's balance and a grant: forgotten, the books still balance."""
    import asyncio as aio
    import sqlite3

    from bot.store import Store

    (line,) = lines_checked_as("a fresh database, then a member who played")
    typed = shell(line, workdir)
    assert typed.returncode == 0, typed.stderr
    assert typed.stdout.strip() == ("Server 123456789012345678: member 234567890123456789 is"
                                    " now anon-1 in every row; 0 chips went back to the bank.")
    assert typed.stdout.strip().replace("\n", " ") in " ".join(DOCS["docs/privacy.md"].split())

    async def fill() -> None:
        store = await Store.open(str(workdir / "data" / "stoppa.db"))
        await store.grant(123456789012345678, 234567890123456789, 5, reason="prize", by=1)
        await store.close()

    aio.run(fill())
    again = shell(line, workdir)
    assert again.returncode == 0 and "anon-2" in again.stdout and "1,005 chips" in again.stdout
    with sqlite3.connect(workdir / "data" / "stoppa.db") as db:
        assert not db.execute("SELECT 1 FROM accounts WHERE user_id = 234567890123456789"
                              ).fetchall()


# --- lines that need Discord: against the fake Discord API of tests/test_service.py ---------
#
# A `sitecustomize` module on PYTHONPATH points discord.py's REST base URL at the fake API
# (FAKE_DISCORD_API) in every Python process the line starts, children of a cluster included,
# so the command line itself is exactly the README's.

SITE = (
    "import os\n"
    "if os.environ.get('FAKE_DISCORD_API'):\n"
    "    import discord.http\n"
    "    discord.http.Route.BASE = os.environ['FAKE_DISCORD_API']\n"
)


async def launch_line(
    line: str, workdir: Path, api: FakeApi, **env: str  # noqa: F811
) -> Process:
    site = workdir / "fake-site"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(SITE)
    extra = {"FAKE_DISCORD_API": api.base, "DISCORD_TOKEN": GOOD_TOKEN, **env}
    environment = clean_env(**extra)
    environment["PYTHONPATH"] = f"{site}{os.pathsep}{ROOT}"
    return await asyncio.create_subprocess_exec(
        "bash", "-c", line, cwd=workdir, env=environment,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )


async def test_the_run_line_starts_the_bot(workdir: Path, api: FakeApi) -> None:  # noqa: F811
    (install,) = lines_checked_as("install the bot alone; run against the fake Discord API")
    run = install.split(" && ")[-1]
    proc = await launch_line(run, workdir, api)
    await started(proc, api)  # logged in, store open, commands synced, gateway asked
    proc.send_signal(signal.SIGTERM)
    code, log = await finish(proc)
    assert code == 0, log
    assert ("PUT", f"/applications/{APP_ID}/commands") in api.requests
    assert f"database file: {(workdir / 'data' / 'stoppa.db').resolve()}" in log


async def test_the_sync_line_syncs_and_stops(workdir: Path, api: FakeApi) -> None:  # noqa: F811
    (sync, _cluster) = lines_checked_as("fake Discord API")
    code, log = await finish(await launch_line(sync, workdir, api))
    assert code == 0, log
    assert ("PUT", f"/applications/{APP_ID}/commands") in api.requests
    assert ("GET", "/gateway/bot") not in api.requests


@pytest.mark.slow
async def test_the_cluster_line_starts_two_bots_that_log_in(
    workdir: Path, api: FakeApi  # noqa: F811
) -> None:
    (_sync, cluster) = lines_checked_as("fake Discord API")
    proc = await launch_line(cluster, workdir, api)

    def logins() -> int:
        return sum(1 for r in api.requests if r == ("GET", "/oauth2/applications/@me"))

    async with asyncio.timeout(90):  # each process logs in, then dials Discord's gateway
        while logins() < 2 or not any(r[0] == "PUT" for r in api.requests):
            assert proc.returncode is None, await proc.communicate()
            await asyncio.sleep(0.2)
        await asyncio.sleep(1.0)
    proc.send_signal(signal.SIGTERM)
    code, log = await finish(proc, timeout=90)
    assert code == 0, log
    assert "2 processes, 8 shards: 0-3 | 4-7" in log, log
    assert logins() == 2
    # only the process with shard 0 synced the commands
    assert [r for r in api.requests if r[0] == "PUT"] == [
        ("PUT", f"/applications/{APP_ID}/commands")
    ]


def _anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_link_between_the_pages_leads_somewhere() -> None:
    """Each relative link of the README and docs/ names a file that exists, and an anchor
    names one of that page's headings."""
    for page, text in DOCS.items():
        here = (ROOT / page).parent
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if target.startswith(("http://", "https://", "mailto:")):
                continue
            path, _, anchor = target.partition("#")
            file = (here / path).resolve() if path else ROOT / page
            assert file.exists(), (page, target)
            if anchor:
                headings = re.findall(r"^#+ (.+)$", file.read_text(encoding="utf-8"), re.M)
                assert anchor in {_anchor(h) for h in headings}, (page, target)
