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


@pytest.mark.parametrize("lang", ["en", "it"])
def test_python_m_bot_play_level_seats_every_cpu_at_that_level(lang: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "play", "--players", "3", "--seed", "5", "--level",
         "expert", "--lang", lang],
        input=_script(300),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    name = t("players.level.expert", lang)
    opponents = [line for line in proc.stdout.splitlines() if line.endswith(f" {name}")]
    assert len(opponents) == 2, proc.stdout[:600]


def _lines(stdin: str, **kwargs: object) -> list[str]:
    code, text = _run(stdin, **kwargs)  # type: ignore[arg-type]
    assert code == 0
    return text.splitlines()


def test_R12_your_forced_plays_are_shown_before_you_open() -> None:
    lines = _lines(_script(300), seed=7)
    opening = next(i for i, line in enumerate(lines)
                   if line.startswith(t("demo.play.your_turn", "en", phase="stoppa")[:20]))
    assert lines[opening - 1] == "Anna: 6-7-8-9-10"  # played for you, before you choose
    # and the player was told why the stoppa's turns come in a burst (issue 39)
    told = lines.index(t("demo.play.stoppa_auto", "en"))
    assert lines[told - 1].startswith("--- Stoppa") and told < opening
    assert any(line.startswith("Anna: ") and "senza" in line for line in lines[opening:])


def test_R5_the_ante_is_printed_with_each_hand() -> None:
    text = "\n".join(_lines(_script(300)))
    assert t("demo.play.ante", "en", ante=60, pot=240) in text


def test_no_level_0_before_a_bet() -> None:
    text = "\n".join(_lines(_script(300)))
    assert "Current bet 0" not in text
    assert t("demo.play.no_bet_yet", "en") in text
    assert "Current bet 10: 10 to call." in text or "Current bet 20" in text


def test_R5_the_session_goes_on_while_three_players_can_pay_the_ante() -> None:
    # the human keeps raising to the maximum and calling: chips move fast, seats go broke
    cycle = itertools.cycle(["raise 200", "bet 200", "call", "best", *map(str, range(1, 11))])
    script = "\n".join(itertools.islice(cycle, 6000)) + "\n"
    found = False
    for seed in range(30):
        code, text = _run(script, seed=seed, players=5)
        assert code == 0
        sits = t("demo.play.sits_out", "en", player="")
        if sits in text:
            found = True
            after = text.split(sits, 1)[1]
            assert "=== Hand" in after  # a player sat out and the game went on
            break
    assert found, "no seed made a player sit a hand out"


def test_R5_the_session_stops_when_fewer_than_three_can_pay() -> None:
    from bot.cli.play import seats_for_hand
    from bot.engine import Rules

    rules = Rules(players=4)
    assert seats_for_hand(rules, [1000, 59, 1000, 1000]) == [0, 2, 3]
    assert seats_for_hand(rules, [1000, 0, 60, 10]) == [0, 2]


@pytest.mark.parametrize(
    ("typed", "meant"),
    [("passo", "pass"), ("vedo", "call"), ("punto 20", "bet 20"), ("rilancio 60", "raise 60"),
     ("dichiaro 7d 6d", "declare 7d 6d"), ("gioco 5c", "play 5c"), ("migliore", "best"),
     ("aiuto", "help"), ("esci", "quit"), ("pass", "pass"), ("Passo", "pass")],
)
def test_italian_command_words(typed: str, meant: str) -> None:
    from bot.cli.play import translate_words

    assert translate_words(typed, "it") == meant


def test_italian_words_play_a_hand() -> None:
    code, text = _run("passo\naiuto\nesci\n", lang="it", seed=11)
    assert code == 0
    assert "Non ho capito" not in text
    assert "Comandi" in text and "Arrivederci" in text


class _CtrlC(io.StringIO):
    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        raise KeyboardInterrupt


def test_ctrl_c_ends_the_session_cleanly() -> None:
    out: list[str] = []
    code = play_session(4, 3, "en", _CtrlC(), lambda text="", end="\n", flush=False:
                        out.append(text + end))
    assert code == 0
    assert "".join(out).rstrip().splitlines()[-1].startswith("Goodbye")


def test_ctrl_c_in_a_real_terminal_session_exits_without_a_traceback() -> None:
    import signal
    import time

    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "play", "--seed", "5"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        cwd=ROOT,
    )
    try:
        assert proc.stdout is not None
        buffer = ""
        deadline = time.monotonic() + 60
        while "> " not in buffer and time.monotonic() < deadline:
            buffer += proc.stdout.read(1)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert "Goodbye" in out


def test_a_short_payment_and_the_stoppa_automation_are_said_in_words() -> None:
    """Issue 39: a payment short of what was owed (R-13: never more than the chips one has)
    says so instead of "pays 0 to Anna"; an all-in names the bet to match, not a "level"."""
    from bot.engine.events import Paid
    from bot.i18n import t
    from bot.render.narration import Narrator

    narrator = Narrator(["Anna", "Bruno", "Carla"], "it")
    (none,) = narrator.lines([Paid(2, 0, 0, 30, 3)])
    assert none == "Carla deve 30 ad Anna (3 carte in mano) ma non ha più fiches: non paga niente."
    (short,) = Narrator(["Anna", "Bruno", "Carla"], "en").lines([Paid(1, 2, 10, 30, 3)])
    assert short == "Bruno owes 30 to Carla (3 cards left) but has only 10 left: pays 10."
    for lang in ("en", "it"):
        assert "level" not in t("demo.allin", lang, player="A", amount=19, level=19).lower()
        assert "livello" not in t("demo.allin", lang, player="A", amount=19, level=19)
        assert "level" not in t("render.level", lang, amount=40).lower()
