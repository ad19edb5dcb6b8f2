"""`python -m bot learn`: the guided first hand of `/learn`, in the terminal.

The same lesson (`bot.learn`) and the same words; the moves are numbered, and a number (or
`q` to stop) answers. A wrong move is explained and asked again, as on Discord.
"""

from __future__ import annotations

import argparse
import re
import sys
from typing import TextIO

from bot.i18n import t
from bot.learn import Lesson
from bot.learn.texts import screen

#: markdown the terminal does not need
_MARKUP = ("**", "`")
#: Discord's italics, `*primo di mano*` (a star on each side of a word or words)
_ITALICS = re.compile(r"\*(\S(?:[^*\n]*\S)?)\*")


def plain(text: str) -> str:
    """The text without Discord's bold, italic and code marks."""
    for mark in _MARKUP:
        text = text.replace(mark, "")
    return _ITALICS.sub(r"\1", text)


def run_learn(args: argparse.Namespace, stdin: TextIO | None = None,
              stdout: TextIO | None = None) -> int:
    """Play the guided hand; 0 when it ends or the learner stops."""
    src, out = stdin or sys.stdin, stdout or sys.stdout
    lang = args.lang
    lesson = Lesson()
    step, answer = lesson.at(0), None
    print(t("learn.cli_intro", lang, name=t("learn.cli_name", lang)), file=out)
    while True:
        shown = screen(step, lang, t("learn.cli_name", lang), answer)
        print(f"\n=== {shown.title} ===", file=out)
        for line in shown.happened:
            print(f"  {line}", file=out)
        print("\n" + plain(shown.text), file=out)
        if step.over:
            print("\n" + t("learn.cli_next", lang), file=out)
            return 0
        for number, (_, label) in enumerate(shown.moves, 1):
            print(f"  {number}. {label}", file=out)
        print(f"  q. {t('learn.stop', lang)}", file=out)
        move = None
        while move is None:
            print("> ", end="", file=out, flush=True)
            line = src.readline()
            if not line or line.strip().lower() in ("q", "quit", "esci"):
                print(plain(t("learn.stopped", lang)), file=out)
                return 0
            choice = line.strip()
            if choice.isascii() and choice.isdigit() and 1 <= int(choice) <= len(shown.moves):
                move = shown.moves[int(choice) - 1][0]
            else:
                print(t("learn.pick_number", lang, count=len(shown.moves)), file=out)
        answer = lesson.answer(step.index, move)
        step = answer.next
