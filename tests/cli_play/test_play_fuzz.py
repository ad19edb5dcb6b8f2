"""Whatever a player types, `play` answers in their language and goes on (hypothesis).

In process for speed (the subprocess tests beside this one drive the real command); the
input mixes the command words of both languages, numbers of every kind, cards, and noise."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.cli.play import play_session
from tests.cli_play.conftest import SNAKE

WORDS = ["pass", "call", "bet", "raise", "declare", "concede", "play", "best", "hand", "help",
         "passo", "vedo", "punto", "rilancio", "dichiaro", "cedo", "gioco", "migliore", "mano",
         "aiuto", "5", "10", "0", "11", "40", "200", "9" * 25, "-3", "²", "①", "7d", "1c",
         "10b", "3z", "1d", "**x**", "<@1>", "", "Ω"]
LINES = st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map(" ".join)


@settings(max_examples=25, deadline=None)
@given(lines=st.lists(LINES, max_size=40), lang=st.sampled_from(["en", "it"]),
       seed=st.integers(0, 1000))
def test_any_input_is_answered_without_identifiers(lines: list[str], lang: str,
                                                   seed: int) -> None:
    out: list[str] = []

    def echo(text: str = "", end: str = "\n", flush: bool = False) -> None:
        out.append(text + end)

    assert play_session(4, seed, lang, io.StringIO("\n".join(lines) + "\n"), echo) == 0
    text = "".join(out)
    assert not SNAKE.search(text), SNAKE.search(text)
    if lang == "it":
        assert "Not allowed" not in text and "I did not understand" not in text
