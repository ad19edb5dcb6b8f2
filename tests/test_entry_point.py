"""`python -m bot` without a token (issue: project skeleton)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(args: list[str], env_extra: dict[str, str], tmp_path: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "STOPPA_"))}
    env.update(env_extra)
    # run in an empty folder so that no developer's .env is picked up
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_no_token_exits_2_with_help(tmp_path: Path) -> None:
    for args in ([], ["run"]):
        proc = _run(args, {}, tmp_path)
        assert proc.returncode == 2, proc.stderr
        assert "DISCORD_TOKEN" in proc.stderr
        assert "python -m bot demo" in proc.stderr
        assert "discord.com/developers" in proc.stderr


def test_bad_setting_exits_2_naming_it(tmp_path: Path) -> None:
    proc = _run([], {"DISCORD_TOKEN": "tok-123-secret", "STOPPA_TURN_TIMEOUT": "later"}, tmp_path)
    assert proc.returncode == 2
    assert "STOPPA_TURN_TIMEOUT" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert "tok-123-secret" not in proc.stderr + proc.stdout


def test_token_from_dotenv_file_is_never_printed(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=zz-secret-zz\nSTOPPA_LOG_LEVEL=LOUD\n")
    proc = _run([], {}, tmp_path)
    assert proc.returncode == 2
    assert "STOPPA_LOG_LEVEL" in proc.stderr
    assert "zz-secret-zz" not in proc.stderr + proc.stdout


def test_help_lists_the_offline_commands(tmp_path: Path) -> None:
    proc = _run(["--help"], {}, tmp_path)
    assert proc.returncode == 0
    for word in ("run", "demo", "play", "bench"):
        assert word in proc.stdout
