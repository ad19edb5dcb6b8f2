"""`bench_players.py ceiling`: the clairvoyant expert sees the true cards (and only it, in the
benchmark), and a duel's `make`/`on_start` hooks seat it without changing other duels."""

from __future__ import annotations

from pathlib import Path

from bot.cli.bench import load
from bot.engine import Rules
from bot.engine.hand import Hand
from bot.players.base import CpuPlayer
from bot.players.knowledge import point_key, read_view
from bot.players.match import duel_scores, make_duel_player, play_hand

BENCH = load(Path(__file__).resolve().parents[2] / "bench" / "bench_players.py")


def test_the_clairvoyants_sample_is_the_true_cards_of_every_opponent() -> None:
    watched: list[Hand] = []
    seer = BENCH.Clairvoyant(3, watched, BENCH.SEERS["clairvoyant"])
    checked = 0

    def check(hand: Hand, seat: int, action: object) -> None:
        nonlocal checked
        if seat != 0 or hand.betting is None:
            return
        view = hand.seat_view(0)
        know = read_view(view)
        spot = seer.bet_spot(view, know)
        (sample,) = seer.opponent_samples(know, spot.my_cards, spot.opponents, spot.big, 400)
        for o, key in zip(spot.opponents, sample.keys, strict=True):
            assert key == point_key([c.index for c in hand.eligible(o.seat)], know.by_total)
        checked += 1

    others = [make_duel_player("easy", s) for s in range(3)]
    for deal in range(4):
        play_hand(Rules(players=4), [seer, *others], deal % 4, seed=deal, on_turn=check,
                  on_start=watched.append)
    assert checked > 0 and len(watched) == 4


def test_a_duels_own_maker_seats_its_players_and_sees_every_hand() -> None:
    made: list[str] = []
    hands: list[Hand] = []

    def make(level: str, seed: int) -> CpuPlayer:
        made.append(level)
        return make_duel_player(level, seed)

    scores = duel_scores("easy", "random", 2, seed=4, make=make, on_start=hands.append)
    assert scores == duel_scores("easy", "random", 2, seed=4)
    assert made == ["easy", "easy", "random", "random"] and len(hands) == 4
    for seer in BENCH.SEERS:
        assert len(BENCH._chunk((seer, "random", 1, 9, 4))) == 1
