"""`python -m bot play`: you against CPU players in the terminal, reading stdin.

You sit in seat 1 (index 0); the CPU players follow. Your hand is shown with the card names,
every action at the table is narrated (see `bot.render.narration.Narrator`), and refused actions are
explained with the engine's reason (`engine.<code>` in the catalogues). Type `help` for the
commands and `quit` to leave; the game also ends cleanly at the end of the input (EOF).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

from bot.cli.demo import level_name, player_names
from bot.engine import MIN_PLAYERS, IllegalAction, Play, Rules, best_point
from bot.engine.events import StoppaBegan
from bot.engine.hand import Hand, can_pay_ante
from bot.engine.moves import MoveRefused, read_move
from bot.i18n import t
from bot.i18n.cards import cards_text
from bot.i18n.refusals import engine_refusal
from bot.players import make_player
from bot.render.narration import Narrator, hand_over_text

START_CHIPS = 1_000
HUMAN = 0
CPU_LEVELS = ("hard", "easy", "hard", "easy", "random")
SHORT = {"p": "pass", "c": "call", "b": "bet", "r": "raise", "d": "declare", "fold": "pass"}
MAX_CHOICES = 8
#: The commands whose words `--lang` may translate (`demo.play.words.<command>`: the words of
#: that language, separated by spaces); the English words always work too.
COMMANDS = ("pass", "call", "bet", "raise", "declare", "concede", "play", "best", "help",
            "hand", "quit")


def command_words(lang: str) -> dict[str, str]:
    """Each word typed in `lang` (and each English abbreviation) -> the English command."""
    words = dict(SHORT)
    for command in COMMANDS:
        for word in t(f"demo.play.words.{command}", lang).lower().split():
            words.setdefault(word, command)
    return words


def translate_words(text: str, lang: str) -> str:
    """`text` with its first word made the English command ("punto 20" -> "bet 20")."""
    words = text.split()
    if not words:
        return text
    first = command_words(lang).get(words[0].lower())
    if first is not None:
        words[0] = first
    return " ".join(words)


class Quit(Exception):
    """The player typed quit, or the input ended."""


class Refused(Exception):
    """What the player typed names no action they can take now: the catalogue message `key`
    says why (before the engine is asked, so in the player's words)."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


def command_word(command: str, lang: str) -> str:
    """The first word a player of `lang` types for the English `command` ("bet" -> "punto")."""
    words = t(f"demo.play.words.{command}", lang).split()
    return words[0] if words else command


def choice_text(action: str, lang: str) -> str:
    """A legal action's text ("bet 10", "play 5c") in the words of `lang`; an amount is
    written N, since the range line gives its bounds."""
    words = action.split()
    if not words:
        return action
    if words[0] in ("bet", "raise"):
        words[1:] = ["N"]
    words[0] = command_word(words[0], lang)
    return " ".join(words)


class Console:
    """The terminal side: reads lines from `stdin`, writes with `echo`."""

    def __init__(self, stdin: TextIO, echo: Callable[..., None], lang: str) -> None:
        self.stdin = stdin
        self.echo = echo
        self.lang = lang

    def say(self, key: str, **params: Any) -> None:
        """Print a catalogue message of the play section."""
        self.echo(t(f"demo.play.{key}", self.lang, **params))

    def ask(self, *, allow_empty: bool = False) -> str:
        """One line of input (stripped; blank lines are skipped unless `allow_empty`); Quit at
        EOF or on `quit`."""
        while True:
            self.echo(t("demo.play.prompt", self.lang), end="", flush=True)
            line = self.stdin.readline()
            if not line:
                self.echo("")
                raise Quit
            text = line.strip()
            if not self.stdin.isatty():  # piped input: show it, so the log reads as a dialogue
                self.echo(text)
            if text or allow_empty:
                break
        if translate_words(text, self.lang).lower() in ("quit", "exit", "q"):
            raise Quit
        return text


def interpret(text: str, hand: Hand, seat: int, lang: str = "en") -> Any:
    """The action meant by `text` (English words: see `translate_words`).

    Abbreviations, and `best` (or a bare `declare`) for the best point at a showdown; the rest
    is the one reading of a move (`bot.engine.moves.read_move`: "bet N" after a bet is the
    raise to N, an amount alone while betting is the bet of it, a rank or cards alone in the
    stoppa are the play), its refusals worded here.
    Raises ValueError when the text is not an action at all, Refused when it names no action
    the player has now.
    """
    words = text.lower().split()
    if not words:
        raise ValueError("empty")
    words[0] = SHORT.get(words[0], words[0])
    if hand.phase == "showdown" and words in (["best"], ["declare"]):
        return hand.default_action(seat)
    if words == ["best"]:
        words = ["declare"]  # the best point, outside a showdown: the engine says why not
    try:
        return read_move(" ".join(words), hand.seat_view(seat))
    except MoveRefused as refused:
        raise _refused(refused, lang) from None


def _refused(error: MoveRefused, lang: str) -> Exception:
    """The terminal's words for a typed move that names none (ValueError: not understood)."""
    params = error.params
    if error.code == "need_amount":
        return Refused("demo.play.need_amount", word=command_word(params["verb"], lang))
    if error.code == "play_what":
        return Refused("demo.play.play_what", plays=_plays(params["plays"], lang))
    if error.code == "bad_cards" and params["word"]:
        return Refused("input.bad_cards", text=params["word"])
    if error.code == "rank_none":
        return Refused("demo.play.rank_none", rank=params["rank"],
                       plays=_plays(params["plays"], lang))
    if error.code == "rank_ambiguous":
        return Refused("demo.play.rank_ambiguous", rank=params["rank"],
                       plays=_plays(params["plays"], lang),
                       word=command_word("play", lang),
                       example=" ".join(map(str, params["plays"][0].cards)))
    return ValueError(error.code)


def _plays(plays: Sequence[Play], lang: str) -> str:
    return ", ".join(" ".join(map(str, p.cards)) for p in plays) or t("cards.none", lang)


def show_state(console: Console, hand: Hand, names: list[str]) -> None:
    """Print what the human may see before choosing."""
    lang = console.lang
    view = hand.seat_view(HUMAN)
    phase, deal_no = view.phase, view.deal_no
    if deal_no is not None and phase in ("small_point", "showdown"):
        label = t("demo.play.phase_small_point", lang, number=deal_no + 1)
    else:
        label = t(f"demo.play.phase_{'showdown' if phase == 'showdown' else phase}", lang)
    console.say("your_turn", phase=label)
    console.say("hand", cards=cards_text([c.code for c in view.hand], lang))
    pots = view.pots
    if phase in ("small_point", "big_point", "showdown"):
        new = hand.eligible(HUMAN) if deal_no is not None else []  # in the order dealt
        if deal_no is not None:
            console.say("new_cards", cards=cards_text([c.code for c in new], lang))
        best = best_point(new if deal_no is not None else view.hand, ranking=view.rules.ranking)
        console.say("best", value=best.total, cards=" ".join(map(str, best.cards)))
        pot = pots.small[deal_no] if deal_no is not None else pots.big
        console.say("pots", pot=pot, bets=sum(pots.bets), chips=view.seats[HUMAN].chips)
    betting = view.betting
    if betting and betting.level:
        console.say("betting", level=betting.level, to_call=betting.to_call)
    elif betting:
        console.say("no_bet_yet")
    if betting and betting.bet_range:
        low, high = betting.bet_range
        word = command_word("raise" if betting.level else "bet", lang)
        console.say("range_raise" if betting.level else "range_bet", min=low, max=high,
                    word=word)
    showdown = view.showdown
    if showdown and showdown.declared:
        shown = "; ".join(
            f"{names[s]}: {' '.join(point.codes)}" for s, point in showdown.declared.items()
        )
        console.say("shown", shown=shown)
    if phase == "stoppa":
        counts = ", ".join(f"{names[s.seat]} {s.card_count}" for s in view.seats)
        console.say("needed", counts=counts)
    legal = [choice_text(str(a), lang) for a in view.legal]
    extra = [command_word("best", lang)] if phase == "showdown" else []
    listed = legal[:MAX_CHOICES] + (["..."] if len(legal) > MAX_CHOICES else [])
    console.say("choices", choices=" | ".join(extra + listed))


def human_turn(console: Console, hand: Hand, names: list[str]) -> None:
    """Ask until the human's action is accepted (Quit propagates)."""
    lang = console.lang
    show_state(console, hand, names)
    while True:
        typed = console.ask()
        text = translate_words(typed, lang)
        word = text.lower()
        if word in ("help", "h", "?"):
            console.say("help")
            continue
        if word == "hand":
            show_state(console, hand, names)
            continue
        try:
            action = interpret(text, hand, HUMAN, lang)
        except Refused as refused:
            console.echo(t(refused.key, lang, **refused.params))
            continue
        except ValueError:
            console.say("not_understood", text=typed)
            continue
        try:
            hand.act(HUMAN, action)
        except IllegalAction as exc:
            console.say("refused", reason=engine_refusal(exc.code, exc.params, lang))
            continue
        return


def seats_for_hand(rules: Rules, chips: Sequence[int]) -> list[int]:
    """The seats that can pay the ante and so play the next hand (R-5)."""
    return [s for s, ok in enumerate(can_pay_ante(rules, chips)) if ok]


def next_dealer(dealer: int, seats: Sequence[int], count: int) -> int:
    """The first seat after `dealer` (in playing order, R-3) that plays the next hand."""
    for step in range(1, count + 1):
        seat = (dealer + step) % count
        if seat in seats:
            return seat
    return dealer


def play_session(
    players: int, seed: int, lang: str, stdin: TextIO, echo: Callable[..., None],
    level: str | None = None,
) -> int:
    """Hands of the human against CPU players until quit, EOF or Ctrl-C, or until the human
    or all but two players cannot pay the ante (R-5: a player who cannot pay sits out; a hand
    needs 3 players), as at a table of the Discord bot. Every CPU plays at `level` when given,
    else the levels take turns (`CPU_LEVELS`)."""
    console = Console(stdin, echo, lang)
    names = player_names(players, lang)
    rng = random.Random(seed)
    levels = [level or CPU_LEVELS[(i - 1) % len(CPU_LEVELS)] for i in range(players)]
    cpus = {s: make_player(levels[s], rng.randrange(2**31)) for s in range(1, players)}
    chips = [START_CHIPS] * players
    dealer = rng.randrange(players)
    carry = 0
    console.say("intro", player=names[HUMAN], seat=HUMAN + 1, count=players - 1, chips=START_CHIPS)
    for s in range(1, players):
        console.say("opponent", player=names[s], level=level_name(levels[s], lang))
    hand_no = 0
    playing: list[int] = []
    in_hand: list[int] = []
    try:
        while True:
            seats = seats_for_hand(Rules(players=players), chips)
            if HUMAN not in seats:
                console.say("you_cannot_pay")
                break
            if len(seats) < MIN_PLAYERS:
                console.say("too_few", count=len(seats), need=MIN_PLAYERS)
                break
            for s in range(players):
                if s not in seats:
                    console.say("sits_out", player=names[s])
            if dealer not in seats:
                dealer = next_dealer(dealer, seats, players)
            hand_no += 1
            playing = seats
            in_hand = [chips[s] for s in seats]
            hand = play_hand(console, cpus, [names[s] for s in seats], seats, in_hand,
                             seats.index(dealer), hand_no, rng.randrange(2**31), carry)
            for i, s in enumerate(seats):
                chips[s] = in_hand[i]
            playing, in_hand = [], []
            carry = hand.carry_out
            dealer = next_dealer(dealer, seats, players)
            console.say("next_hand")
            console.ask(allow_empty=True)
    except (Quit, KeyboardInterrupt):
        echo("")
        for i, s in enumerate(playing[: len(in_hand)]):  # left during a hand: as it stands
            chips[s] = in_hand[i]
    console.say("bye", chips=chips[HUMAN])
    return 0


def play_hand(
    console: Console,
    cpus: Mapping[int, Any],
    names: list[str],
    seats: Sequence[int],
    chips: list[int],
    dealer: int,
    hand_no: int,
    seed: int,
    carry: int,
) -> Hand:
    """One hand of the players in `seats` (hand seat i is table seat `seats[i]`; the human,
    table seat 0, is always hand seat 0). `chips` are updated when the hand ends."""
    echo, lang = console.echo, console.lang
    rules = Rules(players=len(seats))
    narrator = Narrator(names, lang, show_deals=HUMAN)
    echo("")
    echo(t("demo.hand", lang, hand_no=hand_no, dealer=names[dealer]))
    hand = Hand.start(rules, chips, dealer, seed=seed, carry=carry)
    console.say("ante", ante=rules.ante, pot=rules.ante * len(seats) + carry)
    narrator.eldest = hand.eldest
    shown = 0
    try:
        while True:
            events = hand.events_for(HUMAN)
            new = [e for e in events[shown:] if e.kind != "ante"]
            for line in narrator.lines(new):
                echo(line)
            if any(isinstance(e, StoppaBegan) for e in new):
                console.say("stoppa_auto")  # why the stoppa's turns then come in bursts
            shown = len(events)
            seat = hand.to_act
            if seat is None:
                break
            if seat == HUMAN:
                for line in narrator.flush():  # your own forced plays, before you open
                    echo(line)
                human_turn(console, hand, names)
            else:
                hand.act(seat, cpus[seats[seat]].choose(
                    hand.seat_view(seat), hand.legal_actions(), hand.events_for(seat)
                ))
    finally:
        chips[:] = hand.chips
    assert hand.result is not None
    echo(hand_over_text(hand_no, hand.result, names, lang))
    return hand


def run_play(args: argparse.Namespace) -> int:
    """Entry point of `python -m bot play`; returns the exit code."""
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    return play_session(args.players, seed, args.lang, sys.stdin, print, level=args.level)
