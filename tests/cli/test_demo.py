"""`python -m bot demo`: a whole offline game, log and real PNG images (issue 8)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from bot.cli.demo import play_game
from bot.engine.events import Closed, Played, Senza
from bot.i18n import t
from bot.render.narration import Narrator

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("lang", ["en", "it"])
def test_demo_plays_logs_and_writes_pngs(lang: str, tmp_path: Path) -> None:
    lines: list[str] = []
    chips = play_game(4, 12, 3, lang, tmp_path, echo=lines.append)
    text = "\n".join(lines)
    assert sum(chips) == 4 * 1000  # no chip created or lost (no carry by default)
    assert t("demo.big_point", lang) in text
    assert t("demo.final", lang) in text
    assert t("demo.hand_over", lang, hand_no=3, results="")[:12] in text
    pngs = sorted(tmp_path.glob("*.png"))
    assert len(pngs) >= 4
    assert any("table" in p.name for p in pngs) and any("table" not in p.name for p in pngs)
    for path in pngs:
        with Image.open(path) as image:
            assert image.format == "PNG"
            assert image.width > 100 and image.height > 100
    replays = sorted(tmp_path.glob("*_replay.webp"))  # one animated replay per hand (issue 19)
    assert [p.name for p in replays] == [f"hand{n}_replay.webp" for n in (1, 2, 3)]
    for path in replays:
        with Image.open(path) as image:
            assert image.format == "WEBP" and getattr(image, "n_frames", 1) > 10
    assert t("demo.images", lang, dir=str(tmp_path), count=len(pngs) + len(replays)) in text


def test_demo_reaches_the_stoppa_and_narrates_turns(tmp_path: Path) -> None:
    lines: list[str] = []
    play_game(4, 5, 4, "en", None, echo=lines.append)
    text = "\n".join(lines)
    assert "--- Stoppa" in text
    assert " senza " in text and "stoppa!" in text
    assert "pays" in text


def test_R12_narrator_groups_a_turn_like_the_blog() -> None:
    names = ["Anna", "Bruno", "Carla"]
    events = [
        Played(0, (c,), i > 0)
        for i, c in enumerate(["5c", "6d", "7s", "8b"])
    ]
    events += [
        Senza(0, 9),
        Played(1, ("9c",), True),
    ]
    events += [Played(1, ("1c", "1d"), True)]
    events += [Closed(1)]
    lines = Narrator(names, "it").lines(events)
    assert lines == ["Anna: 5-6-7-8 senza 9", "Bruno: 9-1-1 stoppa!"]


def test_python_m_bot_demo_without_token_or_database(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["DISCORD_TOKEN"] = ""
    out = tmp_path / "imgs"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot",
            "demo",
            "--players",
            "5",
            "--seed",
            "2",
            "--hands",
            "2",
            "--out",
            str(out),
            "--lang",
            "it",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Fiches finali:" in proc.stdout
    assert list(out.glob("*.png"))
    assert not list(tmp_path.glob("*.db")) and not list(tmp_path.glob("**/*.sqlite*"))


def test_demo_out_clears_its_own_old_images_only(tmp_path: Path) -> None:
    play_game(4, 12, 3, "en", tmp_path, echo=lambda *_: None)
    old = {p.name for p in tmp_path.glob("hand3_*.png")}
    assert old
    keep = tmp_path / "my_notes.png"
    keep.write_bytes(b"mine")
    (tmp_path / "hand9_stoppa_table.png").write_bytes(b"an image of an older, longer demo")
    (tmp_path / "hand9_replay.webp").write_bytes(b"a replay of an older, longer demo")
    lines: list[str] = []
    play_game(4, 12, 1, "en", tmp_path, echo=lines.append)
    names = {p.name for p in tmp_path.glob("*.*")}
    assert not any(n.startswith(("hand2_", "hand3_", "hand9_")) for n in names)
    assert keep.read_bytes() == b"mine"
    written = [p for p in tmp_path.glob("hand*.*")]
    assert t("demo.images", "en", dir=str(tmp_path), count=len(written)) in "\n".join(lines)


@pytest.mark.parametrize("hands", ["0", "-2", "many"])
def test_demo_hands_must_be_at_least_one(hands: str, tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "demo", "--hands", hands, "--out", str(tmp_path)],
        capture_output=True, text=True, cwd=ROOT, timeout=60,
    )
    assert proc.returncode == 2
    assert "--hands" in proc.stderr
    assert t("cli.not_a_count", "en", text=hands) in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not list(tmp_path.glob("*.png"))


def test_the_italian_demo_does_not_call_the_seed_a_suit() -> None:
    lines: list[str] = []
    play_game(3, 4, 1, "it", None, echo=lines.append)
    assert "numero di partenza 4" in lines[0]
    assert "seme" not in lines[0]
    assert "seme" not in t("cli.option.seed", "it")

