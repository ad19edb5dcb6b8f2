"""`python -m bot play` driven with piped input (issue 8)."""

from __future__ import annotations

import io
import itertools
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli.play import play_session
from bot.i18n import t

ROOT = Path(__file__).resolve().parents[2]


def _script(lines: int) -> str:
    """Answers that fit every kind of turn: some are refused, the right one goes through."""
    cycle = itertools.cycle(["pass", "best", *map(str, range(1, 11))])
    return "\n".join(itertools.islice(cycle, lines)) + "\n"


def _run(stdin: str, lang: str = "en", seed: int = 3, players: int = 4) -> tuple[int, str]:
    out: list[str] = []

    def echo(text: str = "", end: str = "\n", flush: bool = False) -> None:
        out.append(text + end)

    code = play_session(players, seed, lang, io.StringIO(stdin), echo)
    return code, "".join(out)


@pytest.mark.parametrize("lang", ["en", "it"])
def test_whole_hand_with_piped_input_ends_cleanly_on_eof(lang: str) -> None:
    code, text = _run(_script(400), lang)
    assert code == 0
    assert t("demo.hand_over", lang, hand_no=1, results="")[:10] in text
    bye = t("demo.play.bye", lang, chips=0).split(":")[0]
    assert text.rstrip().splitlines()[-1].startswith(bye)
    assert "Traceback" not in text


def test_hand_shown_with_card_names_and_refusals_explained() -> None:
    code, text = _run("raise 5\nbet 100000\nfrobnicate\nhelp\nquit\n", seed=11)
    assert code == 0
    assert " of " in text  # card names such as "Four of Swords (4s)"
    assert "Not allowed:" in text  # the engine's reason, from the engine.* catalogue
    assert 'I did not understand "frobnicate"' in text
    assert "Commands:" in text
    assert "Goodbye" in text


def test_italian_names_and_messages() -> None:
    code, text = _run("bet 100000\nquit\n", lang="it", seed=11)
    assert code == 0
    assert " di " in text and "Non è permesso:" in text and "Arrivederci" in text


def test_immediate_eof() -> None:
    code, text = _run("")
    assert code == 0 and "Goodbye" in text


def test_python_m_bot_play_subprocess() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "play", "--players", "3", "--seed", "5"],
        input=_script(300),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Hand 1 is over" in proc.stdout
    assert "Goodbye" in proc.stdout
