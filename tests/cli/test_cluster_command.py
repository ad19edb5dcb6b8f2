"""`python -m bot cluster` as an operator types it, without `--command` (issue 26): the
sub-command must reach the supervisor, not fall through to the plain bot."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from bot.__main__ import build_parser

ROOT = Path(__file__).resolve().parents[2]


def _clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "STOPPA_"))}
    return {**env, "PYTHONPATH": str(ROOT), **extra}


def test_the_parsed_command_stays_cluster_without_its_command_option() -> None:
    args = build_parser().parse_args(["cluster", "--processes", "3", "--shards", "3"])
    assert args.command == "cluster"
    assert args.child_command is None


def test_too_few_shards_are_refused_by_the_cluster_not_run_as_one_bot(tmp_path: Path) -> None:
    # before the fix the plain bot ran here and tried to log in to Discord with the token
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "cluster", "--processes", "3", "--shards", "2"],
        cwd=tmp_path, env=_clean_env(DISCORD_TOKEN="not-a-real-token"),
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 2, proc.stderr
    assert "3 processes need at least 3 shards" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
