"""CPU players: decision time per phase, and strength measured in fair duplicate duels.

``run("small")`` (a few seconds) returns each level's decision times in milliseconds (median,
95th percentile and maximum over every decision of a few 4-player hands, overall and per phase:
``<level>_<phase>_ms_p95`` for small_point, big_point, showdown, stoppa), the expert's mean
cost as a ratio to hard's measured in the same run (``expert_cost_vs_hard`` and per phase), and
whole hands per second of the easy and random levels playing themselves. ``run("full")`` times
more hands and adds the strength table: duplicate duels (``bot.players.match``: the same deals
with the seats swapped, dealer rotating), reporting team A's mean chips per player per hand
(``<a>_vs_<b>_chips``; ``_6p`` at six players) and the half-width of its 95% interval
(``<a>_vs_<b>_ci95``). ``hard2`` is hard with a tighter, more aggressive style. The strength
figures can be negative, so ``run("small")`` leaves them out. The duels run in parallel
processes (``workers``, default: every core).

``duels NAME[,NAME...] [workers]`` runs only the named duels of ``DUELS`` (e.g.
``expert_vs_hard,hard_vs_easy``) and ``timing`` only the full-size decision times, so that the
table can be measured in runs of a few minutes each (``full`` is every one of them in one run).

``ledger A B DEALS [PLAYERS]`` prints where team A's chips went in a duel against B
(``match.duel_ledgers``: antes, small and big points by how each round ended, stoppa, special
hands; mean per player per hand and 95% half-width): run it for two levels against the same B
(same seed, so the same decks and opponents) to see in which phase one wins more.

``ceiling SEER OPPONENTS DEALS [workers]`` duels a ``Clairvoyant`` (the expert seeing the
opponents' true cards when it bets and declares: it cheats, and lives only here) against each of
the comma-separated levels: what perfect reading would be worth to the expert's search, the
ceiling against which to set the expert's strength goals. SEER is ``clairvoyant`` (the expert's
own model of the answers to its bets) or ``clairvoyant2`` (another model: ``SEERS``);
``ledger clairvoyant B DEALS`` says where its chips come from.

``decisions [hands]`` prints a digest of every action the CPU players choose over seeded hands
of 3 to 6 players (per level; the hard level plays a fifth of the hands, the expert a tenth):
equal digests before and after a change mean the players decide exactly as before.

Run (from the repository root, so that ``bot`` is this tree):
``PYTHONPATH=. .venv/bin/python bench/bench_players.py MODE`` with MODE one of ``small``,
``full``, ``timing``, ``duels NAMES [workers]``, ``ledger A B DEALS [PLAYERS]``,
``ceiling SEER OPPONENTS DEALS [workers]``,
``decisions [hands]``.
"""

from __future__ import annotations

import hashlib
import os
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

from bot.engine import Rules
from bot.engine.hand import Hand
from bot.players import LEVELS, make_player
from bot.players.base import CpuPlayer
from bot.players.bet_search import Responder
from bot.players.estimate import Opponent, Sample, percentile, strength_table
from bot.players.expert import ExpertPlayer
from bot.players.knowledge import Knowledge, point_key
from bot.players.match import (
    START_CHIPS,
    PlayerMaker,
    duel_ledgers,
    duel_scores,
    make_duel_player,
    mean_interval,
    play_hand,
)

SIZES = {"small": (2, 3), "full": (12, 20)}  # (hands timed per level, hands for hands/s)
#: (A, B, duplicate deals, players): sized so that each group of the closing note's runs
#: stays under 15 minutes on the 2-core VM
DUELS: tuple[tuple[str, str, int, int], ...] = (
    ("expert", "hard", 200, 4),
    ("expert", "easy", 150, 4),
    ("expert", "hard2", 150, 4),
    ("hard", "easy", 300, 4),
    ("expert", "hard", 80, 6),
    ("expert", "easy", 60, 6),
    ("expert", "hard2", 60, 6),
    ("hard", "easy", 150, 6),
    ("easy", "random", 300, 4),
)
PHASES = ("small_point", "big_point", "showdown", "stoppa")
CHUNK = 10


def duel_name(a: str, b: str, players: int) -> str:
    """``expert_vs_hard`` at 4 players, ``expert_vs_hard_6p`` at 6."""
    return f"{a}_vs_{b}" + ("" if players == 4 else f"_{players}p")


def decision_times(level: str, hands: int, seed: int = 1) -> dict[str, list[float]]:
    """Seconds taken by every decision of `level` players in `hands` 4-player hands, by the
    phase the decision was made in; the key ``cpu`` holds each decision's CPU time (this
    thread's, which a busy shared VM does not inflate)."""
    rules = Rules(players=4)
    players = [make_player(level, seed + i) for i in range(4)]
    times: dict[str, list[float]] = {phase: [] for phase in (*PHASES, "cpu")}
    for h in range(hands):
        hand = Hand.start(rules, [START_CHIPS] * 4, h % 4, seed=seed * 1000 + h)
        while hand.to_act is not None:
            seat = hand.to_act
            view, legal, events = hand.seat_view(seat), hand.legal_actions(), hand.events_for(seat)
            start, start_cpu = time.perf_counter(), time.thread_time()
            action = players[seat].choose(view, legal, events)
            times["cpu"].append(time.thread_time() - start_cpu)
            times[view.phase].append(time.perf_counter() - start)
            hand.act(seat, action)
    return times


def hands_per_second(level: str, hands: int, seed: int = 2) -> float:
    """Whole 4-player hands per second with four `level` players (views included)."""
    rules = Rules(players=4)
    players = [make_player(level, seed + i) for i in range(4)]
    start = time.perf_counter()
    for h in range(hands):
        play_hand(rules, players, h % 4, seed=seed * 1000 + h)
    return hands / (time.perf_counter() - start)


def decision_digest(level: str, hands: int) -> str:
    """A digest of the seat and action of every decision of `level` players over `hands`
    seeded hands (3 to 6 players, uneven stacks, rotating dealer)."""
    digest = hashlib.sha256()
    for i in range(hands):
        players = 3 + i % 4
        cpus = [make_player(level, 100 * i + s) for s in range(players)]
        hand = Hand.start(
            Rules(players=players), [1000 + 37 * s for s in range(players)], i % players, seed=i
        )
        while hand.to_act is not None:
            seat = hand.to_act
            view = hand.seat_view(seat)
            action = cpus[seat].choose(view, hand.legal_actions(), hand.events_for(seat))
            digest.update(f"{seat}:{action};".encode())
            hand.act(seat, action)
    return digest.hexdigest()[:16]


def _chunk(args: tuple[str, str, int, int, int]) -> list[float]:
    a, b, deals, seed, players = args
    make, on_start = seer_seating()
    return duel_scores(a, b, deals, seed, players, make=make, on_start=on_start)


def seer_seating() -> tuple[PlayerMaker, Callable[[Hand], None]]:
    """A duel's player maker that also knows the clairvoyant levels (`SEERS`), and the hook
    that shows them each hand (every other level as `match.make_duel_player` makes it)."""
    watched: list[Hand] = []

    def make(level: str, seed: int) -> CpuPlayer:
        if level in SEERS:
            return Clairvoyant(seed, watched, SEERS[level])
        return make_duel_player(level, seed)

    return make, watched.append


#: the clairvoyant levels and the answers each expects to its bets: the expert's own model
#: (`clairvoyant`), and one where opponents call when strength squared reaches the price
#: (`clairvoyant2`: more calls from middling points, so fewer hopeless bluffs)
SEERS = {
    "clairvoyant": ExpertPlayer.responder,
    "clairvoyant2": Responder(raise_above=ExpertPlayer.responder.raise_above, power=2.0),
}


class Clairvoyant(ExpertPlayer):
    """The expert, except that its betting and declaring see the opponents' true cards (one
    sample: the hand being played). It cheats, so it lives here only: ``ceiling`` measures
    with it what perfect reading of the hidden cards would be worth to the expert's search,
    an upper bound for any better inference."""

    def __init__(self, seed: int, watched: list[Hand], responder: Responder) -> None:
        super().__init__(seed, "clairvoyant")
        self.watched = watched  # every hand dealt so far; the last is the one in play
        self.responder = responder

    def opponent_samples(
        self,
        know: Knowledge,
        my_cards: list[int],
        opponents: list[Opponent],
        big: bool,
        samples: int,
        deadline: float | None = None,
    ) -> list[Sample]:
        hand = self.watched[-1]
        mine = point_key(my_cards, know.by_total)
        my_priority = know.priority(know.seat)
        sample = Sample(1.0)
        for o in opponents:
            key = point_key([c.index for c in hand.eligible(o.seat)], know.by_total)
            table = strength_table(tuple(know.deck), o.size, know.by_total)
            sample.keys.append(key)
            sample.strength.append(percentile(table, key))
            beaten = mine > key or (mine == key and my_priority < know.priority(o.seat))
            sample.beaten.append(beaten)
        return [sample]


def strength(
    duels: tuple[tuple[str, str, int, int], ...] = DUELS, workers: int | None = None
) -> dict[str, float]:
    """The duel table: mean chips per player per hand of A against B, and the 95% half-width."""
    jobs = [
        (a, b, min(CHUNK, deals - start), 7919 * (start + 1) + i, players)
        for i, (a, b, deals, players) in enumerate(duels)
        for start in range(0, deals, CHUNK)
    ]
    chunks = []
    with ProcessPoolExecutor(max_workers=workers or os.cpu_count() or 1) as pool:
        for done, chunk in enumerate(pool.map(_chunk, jobs), 1):
            chunks.append(chunk)
            print(f"# duel chunk {done}/{len(jobs)}", file=sys.stderr, flush=True)
    figures: dict[str, float] = {}
    for a, b, _, players in duels:
        scores = [
            s
            for job, chunk in zip(jobs, chunks, strict=True)
            if (job[0], job[1], job[4]) == (a, b, players)
            for s in chunk
        ]
        mean, half = mean_interval(scores)
        figures[f"{duel_name(a, b, players)}_chips"] = mean
        figures[f"{duel_name(a, b, players)}_ci95"] = half
    return figures


def timing(hands: int) -> dict[str, float]:
    """Each level's decision times (ms) overall and per phase, and the expert's mean cost as
    a ratio to hard's (overall and per phase), all measured in this run."""
    figures: dict[str, float] = {}
    means: dict[str, dict[str, float]] = {}
    for level in reversed(LEVELS):
        by_phase = decision_times(level, hands)
        means[level] = {}
        series = {
            "decision": [s for p in PHASES for s in by_phase[p]],
            "decision_cpu": by_phase["cpu"],
            **{phase: by_phase[phase] for phase in PHASES},
        }
        for name, seconds in series.items():
            ms = sorted(1000 * s for s in seconds)
            if not ms:
                continue
            figures[f"{level}_{name}_ms_median"] = statistics.median(ms)
            figures[f"{level}_{name}_ms_p95"] = ms[int(0.95 * (len(ms) - 1))]
            figures[f"{level}_{name}_ms_max"] = ms[-1]
            means[level][name] = statistics.fmean(ms)
    for name, hard_mean in means["hard"].items():
        expert_mean = means["expert"].get(name)
        if expert_mean and hard_mean:
            suffix = "" if name == "decision" else f"_{name.removeprefix('decision_')}"
            figures[f"expert_cost_vs_hard{suffix}"] = expert_mean / hard_mean
    return figures


def run(size: str = "full", workers: int | None = None) -> dict[str, float]:
    """The figures at `size` ("small": a few seconds; "full": adds the strength duels)."""
    if size not in SIZES:
        raise ValueError(f"size must be one of {', '.join(SIZES)}")
    timed, counted = SIZES[size]
    figures = timing(timed)
    figures["easy_hands_per_s"] = hands_per_second("easy", counted)
    figures["random_hands_per_s"] = hands_per_second("random", 5 * counted)
    if size == "full":
        figures.update(strength(DUELS, workers))
    return figures


def chosen_duels(names: str) -> tuple[tuple[str, str, int, int], ...]:
    """The duels of `DUELS` named in `names` (comma-separated `duel_name`s)."""
    wanted = set(names.split(","))
    known = {duel_name(a, b, p): (a, b, d, p) for a, b, d, p in DUELS}
    unknown = wanted - set(known)
    if unknown:
        raise SystemExit(f"unknown duels {sorted(unknown)}: choose among {sorted(known)}")
    return tuple(known[name] for name in known if name in wanted)


if __name__ == "__main__":
    size = sys.argv[1] if len(sys.argv) > 1 else "full"
    if size == "decisions":
        hands = int(sys.argv[2]) if len(sys.argv) > 2 else 300
        for level in LEVELS:
            n = {"hard": max(10, hands // 5), "expert": max(10, hands // 10)}.get(level, hands)
            print(f"{level:8} {n:5} hands  {decision_digest(level, n)}")
        sys.exit(0)
    if size == "ledger":
        a, b, deals = sys.argv[2], sys.argv[3], int(sys.argv[4])
        make, on_start = seer_seating()
        rows = duel_ledgers(a, b, deals, seed=1, players=int(sys.argv[5]) if len(sys.argv) > 5
                            else 4, make=make, on_start=on_start)
        for name in sorted({name for row in rows for name in row}):
            mean, half = mean_interval([row.get(name, 0.0) for row in rows])
            print(f"{name:42} {mean:9.2f} ±{half:6.2f}")
        sys.exit(0)
    if size == "ceiling":
        seer, opponents, deals = sys.argv[2], sys.argv[3].split(","), int(sys.argv[4])
        if seer not in SEERS:
            raise SystemExit(f"unknown clairvoyant {seer!r}: choose among {sorted(SEERS)}")
        table = strength(tuple((seer, b, deals, 4) for b in opponents),
                         int(sys.argv[5]) if len(sys.argv) > 5 else None)
    elif size == "duels":
        table = strength(chosen_duels(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else None)
    elif size == "timing":
        table = timing(SIZES["full"][0])
    else:
        table = run(size, int(sys.argv[2]) if len(sys.argv) > 2 else None)
    for name, value in table.items():
        print(f"{name:34} {value:12.2f}")
