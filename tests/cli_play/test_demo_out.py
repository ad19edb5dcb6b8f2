"""`python -m bot demo --out` to a folder it cannot write (issue 25): one clear line, in the
player's language, before any game is played; never a traceback after it."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli.demo import out_problem
from bot.i18n import t
from tests.cli_play.conftest import ROOT


def demo(out: Path, lang: str = "en") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    return subprocess.run(
        [sys.executable, "-m", "bot", "demo", "--hands", "1", "--seed", "1", "--lang", lang,
         "--out", str(out)],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=120, check=False,
    )


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("under", [False, True])
def test_a_file_where_the_folder_should_be(tmp_path: Path, lang: str, under: bool) -> None:
    blocker = tmp_path / "taken"
    blocker.write_text("not a folder")
    out = blocker / "images" if under else blocker
    proc = demo(out, lang)
    reason = t("demo.out_reason.not_a_folder", lang)
    assert proc.returncode == 2
    assert proc.stdout == ""  # no game was played
    assert proc.stderr.splitlines() == [t("demo.out_unusable", lang, dir=str(out), reason=reason)]
    assert blocker.read_text() == "not a folder"


def test_a_folder_without_permission(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Root may write anywhere, so the refusal of the file system is simulated."""
    def refuse(self: Path, *args: object, **kwargs: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", str(self))

    monkeypatch.setattr(Path, "mkdir", refuse)
    assert out_problem(tmp_path / "x") == "denied"
    monkeypatch.setattr(Path, "mkdir", lambda self, **kw: (_ for _ in ()).throw(
        OSError(errno.EROFS, "Read-only file system")))
    assert out_problem(tmp_path / "y") == "read_only"


def test_a_writable_folder_is_made_and_left_clean(tmp_path: Path) -> None:
    out = tmp_path / "a" / "b"
    assert out_problem(out) is None
    assert out.is_dir() and list(out.iterdir()) == []
