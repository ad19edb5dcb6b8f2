"""`python -m bot learn` as a user types it, in a subprocess: wrong moves and junk on the way,
in English and Italian, to the end of the hand; `q` stops at once."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.i18n import t
from bot.learn import STEPS
from bot.learn.lesson import choices, lesson_step, same_move

ROOT = Path(__file__).resolve().parents[2]


def _answers() -> str:
    """At each step: a non-ASCII digit, a wrong move where there is one, then the asked one."""
    lines = []
    for index, step in enumerate(STEPS):
        moves = choices(lesson_step(index))
        right = next(i for i, m in enumerate(moves, 1) if same_move(m, step.asked))
        wrong = next((i for i, m in enumerate(moves, 1) if i != right), None)
        lines += ["²"] + ([str(wrong)] if wrong else []) + [str(right)]
    return "\n".join(lines) + "\n"


def _run(args: list[str], stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "learn", *args], input=stdin, capture_output=True,
        text=True, cwd=ROOT, timeout=60, check=False,
    )


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_lesson_in_the_terminal_reaches_the_end(lang: str) -> None:
    done = _run([] if lang == "en" else ["--lang", "it"], _answers())
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for index in range(len(STEPS)):
        assert t("learn.title", lang, step=index + 1, total=len(STEPS)) in out
    assert t("learn.title_end", lang) in out
    assert out.count(t("learn.not_quite", lang)) >= len(STEPS) - 1
    assert t("learn.pick_number", lang, count=2) in out
    assert "Traceback" not in done.stderr
    # no markdown printed raw (issue 39: "*primo di mano*"), and the terminal's next step last
    assert "*" not in out and "`" not in out
    assert out.rstrip().splitlines()[-1] == t("learn.cli_next", lang)
    assert ".venv/bin/python -m bot play" in out.rstrip().splitlines()[-1]
    if lang == "it":  # "ad Anna", never "a Anna"; cards named with their articles
        assert " ad Anna (" in out and " a Anna" not in out
        assert "il Tre di Coppe (3c), il Fante di Coppe (8c) e il Re di Coppe (10c)" in out


def test_q_stops_the_lesson() -> None:
    done = _run([], "q\n")
    assert done.returncode == 0
    assert "/learn" in done.stdout
    assert t("learn.title", "en", step=2, total=len(STEPS)) not in done.stdout
