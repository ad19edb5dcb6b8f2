"""`python -m bot demo`: a whole game of CPU players, offline, with the real engine and renderer.

It prints a readable log of every action in the chosen language (phases, bets, declarations,
stoppa turns such as "5-6-7-8 senza 9", payments), writes the table and hand images of a few
moments to `--out`, and ends with the chip counts. No token and no database are needed.
The event log as text is `bot.render.narration`, shared with `python -m bot play` and `learn`.
"""

from __future__ import annotations

import argparse
import errno
import random
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.engine import Rules
from bot.engine.events import Event
from bot.engine.hand import Hand, can_pay_ante
from bot.i18n import t
from bot.players import LEVELS, CpuPlayer, make_player
from bot.render.narration import Narrator, hand_over_text
from bot.tables.snapshot import public_hand_events

START_CHIPS = 1_000
DEMO_LEVELS = ("hard", "easy", "random")
#: moments whose images the demo writes (the first time each comes, plus every hand's end)
MOMENTS = ("small_point", "big_point", "stoppa")
#: The names of the images the demo writes: hand<n>_<moment>_<table or player>.png, and the
#: animated replay of each hand, hand<n>_replay.webp
IMAGE_NAME = re.compile(
    r"hand\d+_(?:(?:small_point|big_point|stoppa|over)_[^/]+\.png|replay\.webp)"
)


def player_names(count: int, lang: str) -> list[str]:
    """`count` display names from the catalogue (numbered if more are needed)."""
    names = [n.strip() for n in t("demo.names", lang).split(",") if n.strip()]
    return [names[i % len(names)] + ("" if i < len(names) else str(i)) for i in range(count)]


def level_name(level: str, lang: str) -> str:
    """The translated name of a CPU level ("hard" -> "difficile")."""
    return t(f"players.level.{level}", lang) if level in LEVELS else level


def table_events(hand: Hand) -> list[Event]:
    """The events everyone at the table saw, a special hand showing only its proof (as the
    table service shows them)."""
    return list(public_hand_events(hand))


class ImageWriter:
    """Writes table and hand images with `bot.render`; tolerant while it is unavailable."""

    def __init__(self, out: Path, names: list[str], lang: str) -> None:
        self.out = out
        self.names = names
        self.lang = lang
        self.written: list[Path] = []
        self.error: str | None = None

    def clear_old(self) -> int:
        """Delete the images an earlier demo wrote to the folder (only files named as this
        writer names them); returns how many. Other files in the folder are left alone."""
        if not self.out.is_dir():
            return 0
        removed = 0
        for path in self.out.iterdir():
            if path.is_file() and IMAGE_NAME.fullmatch(path.name):
                path.unlink()
                removed += 1
        return removed

    def write(self, hand: Hand, tag: str, hand_no: int, seat: int | None = None) -> None:
        """The table image (public view) and, if `seat` is given, that seat's hand."""
        if self.error is not None:
            return
        try:
            from bot.render import render_hand, render_table
            from bot.render.from_view import hand_snapshot, table_snapshot
        except ImportError as exc:
            self.error = str(exc)
            return
        try:
            self.out.mkdir(parents=True, exist_ok=True)
            table = table_snapshot(hand.seat_view(None), self.names, lang=self.lang,
                                   hand_no=hand_no, events=table_events(hand))
            self._save(f"hand{hand_no}_{tag}_table.png", render_table(table))
            if seat is not None:
                snap = hand_snapshot(hand.seat_view(seat), lang=self.lang,
                                     player=self.names[seat])
                name = self.names[seat].lower()
                self._save(f"hand{hand_no}_{tag}_{name}.png", render_hand(snap))
        except Exception as exc:  # the demo goes on without pictures, and says why
            self.error = f"{type(exc).__name__}: {exc}"

    def write_replay(self, hand: Hand, hand_no: int) -> None:
        """The animated replay of the finished hand (skipped, with the reason kept, when
        something failed)."""
        if self.error is not None:
            return
        try:
            from bot.render.replay import write_replay

            path = self.out / f"hand{hand_no}_replay.webp"
            self.written.append(write_replay(path, hand.events, self.names, hand_no, self.lang))
        except Exception as exc:  # the demo goes on without pictures, and says why
            self.error = f"{type(exc).__name__}: {exc}"

    def _save(self, filename: str, data: bytes) -> None:
        path = self.out / filename
        path.write_bytes(data)
        self.written.append(path)


def play_game(
    players: int,
    seed: int,
    hands: int,
    lang: str,
    out: Path | None,
    *,
    echo: Any = print,
) -> list[int]:
    """Play `hands` hands of CPU players, echoing the log; returns the final chips."""
    names = player_names(players, lang)
    levels = [DEMO_LEVELS[i % len(DEMO_LEVELS)] for i in range(players)]
    rng = random.Random(seed)
    cpus = [make_player(level, rng.randrange(2**31)) for level in levels]
    rules = Rules(players=players)
    chips = [START_CHIPS] * players
    dealer = rng.randrange(players)
    carry = 0
    images = ImageWriter(out, names, lang) if out is not None else None
    if images is not None:
        images.clear_old()
    table = DemoTable(names, cpus, Narrator(names, lang), images, echo)
    echo(t("demo.title", lang, players=players, hands=hands, seed=seed))
    _echo_seats(echo, names, levels, chips, lang)
    for hand_no in range(1, hands + 1):
        broke = [s for s, ok in enumerate(can_pay_ante(rules, chips)) if not ok]
        if broke:
            echo(t("demo.cannot_pay", lang, player=names[broke[0]]))
            break
        echo("")
        echo(t("demo.hand", lang, hand_no=hand_no, dealer=names[dealer]))
        echo(t("demo.antes", lang, ante=rules.ante, small=rules.small_point,
               big=rules.big_pot + carry))
        hand = Hand.start(rules, chips, dealer, seed=rng.randrange(2**31), carry=carry)
        table.play(hand, hand_no)
        assert hand.result is not None
        echo(hand_over_text(hand_no, hand.result, names, lang))
        if images is not None:
            images.write(hand, "over", hand_no)
            images.write_replay(hand, hand_no)
        chips = list(hand.chips)
        carry = hand.carry_out
        dealer = (dealer + 1) % players
    echo("")
    echo(t("demo.final", lang))
    _echo_seats(echo, names, levels, chips, lang)
    if images is not None:
        if images.written:
            echo(t("demo.images", lang, dir=str(out), count=len(images.written)))
        if images.error:
            echo(t("demo.images_skipped", lang, reason=images.error))
    return chips


def _echo_seats(echo: Any, names: list[str], levels: list[str], chips: list[int],
                lang: str) -> None:
    """A line a seat: its player, their level and chips."""
    for s, name in enumerate(names):
        echo(t("demo.seat", lang, player=name, level=level_name(levels[s], lang), chips=chips[s]))


@dataclass
class DemoTable:
    """The CPU players of the demo and what shows their hands: the narrated log (`echo`) and
    the images of each moment (once a game: `pictured`)."""

    names: list[str]
    cpus: list[CpuPlayer]
    narrator: Narrator
    images: ImageWriter | None
    echo: Any
    pictured: set[str] = field(default_factory=set)

    def play(self, hand: Hand, hand_no: int) -> None:
        """Play `hand` to its end, narrating each event and drawing each moment's image."""
        self.narrator.eldest = hand.eldest
        shown = 0
        while True:
            events = hand.events
            for line in self.narrator.lines(e for e in events[shown:] if e.kind != "ante"):
                self.echo(line)
            shown = len(events)
            seat = hand.to_act
            if seat is None:
                return
            moment = hand.phase
            if self.images is not None and moment in MOMENTS and moment not in self.pictured:
                self.pictured.add(moment)
                self.images.write(hand, moment, hand_no, seat)
            action = self.cpus[seat].choose(
                hand.seat_view(seat), hand.legal_actions(), hand.events_for(seat)
            )
            hand.act(seat, action)


#: why a folder cannot take the images, by errno (`demo.out_reason.<key>`); others: "other"
OUT_REASONS = {
    errno.EACCES: "denied", errno.EPERM: "denied", errno.EROFS: "read_only",
    errno.ENOSPC: "full", errno.EEXIST: "not_a_folder", errno.ENOTDIR: "not_a_folder",
}


def out_problem(out: Path) -> str | None:
    """Why the images cannot be written to the folder `out` (a `demo.out_reason` key), or
    None when they can: the folder is made if missing and a file written to it and removed,
    so the player hears it before the game, not from a traceback after it."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / ".stoppa-demo-write-test"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        if isinstance(exc, (FileExistsError, NotADirectoryError)) or out.is_file():
            return "not_a_folder"
        return OUT_REASONS.get(exc.errno or 0, "other")
    return None


def run_demo(args: argparse.Namespace) -> int:
    """Entry point of `python -m bot demo`; returns the exit code (2: `--out` unusable)."""
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    out = Path(args.out) if args.out else None
    if out is not None:
        problem = out_problem(out)
        if problem is not None:
            reason = t(f"demo.out_reason.{problem}", args.lang)
            print(t("demo.out_unusable", args.lang, dir=str(out), reason=reason),
                  file=sys.stderr)
            return 2
    play_game(args.players, seed, args.hands, args.lang, out)
    return 0
