"""`python -m bot play` run as a user runs it: a subprocess fed typed lines on stdin."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: an engine identifier ("small_point", "card_not_held") that no person should read
SNAKE = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")


def play(lines: Sequence[str], *, lang: str = "en", seed: int = 3, players: int = 4) -> str:
    """The whole output of `python -m bot play` given `lines` as typed input; the process must
    end by itself (at the end of the input) with exit code 0 and nothing on stderr."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    env.pop("DISCORD_TOKEN", None)
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "play", "--seed", str(seed), "--lang", lang,
         "--players", str(players)],
        input="".join(f"{line}\n" for line in lines), capture_output=True, text=True,
        cwd=ROOT, env=env, timeout=60, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "", proc.stderr
    assert "Traceback" not in proc.stdout
    return proc.stdout


def answer_to(output: str, typed: str) -> list[str]:
    """The lines printed right after the prompt where `typed` was entered (up to the next
    prompt)."""
    marker = f"> {typed}\n"
    assert marker in output, f"{typed!r} was never read"
    after = output.split(marker, 1)[1]
    return after.split("\n> ", 1)[0].splitlines()
