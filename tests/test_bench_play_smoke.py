"""`bench/bench_play.py small`: people play two hands through what the bot shows them, and the
figures of issue 36 come out, each in a sane range (the full run is for the issue's note)."""

from __future__ import annotations

import pytest

from bot.cli.bench import bench_files, load

BENCH = load(next(p for p in bench_files() if p.stem == "bench_play"))

NAMES = (
    "interactions_per_decision", "interactions_per_decision_typed_amount",
    "private_messages_per_player_hand", "panel_edits_per_player_hand",
    "interaction_edits_per_action", "kib_uploaded_per_hand", "public_messages_per_hand",
    "pings_per_hand", "bot_token_requests_per_action",
)


@pytest.fixture(scope="module")
def figures() -> dict[str, float]:
    return BENCH.measure("small")


def test_every_line_is_printed(figures: dict[str, float]) -> None:
    printed = dict(line.split(" ") for line in BENCH.lines(figures))
    for name in NAMES:
        assert name in printed, name
        assert float(printed[name]) >= 0.0, name


def test_people_played_every_turn_through_the_components(figures: dict[str, float]) -> None:
    assert figures["hands"] == 2
    assert figures["decisions"] >= 10  # two people, two hands: several turns each
    assert figures["stuck_decisions"] == 0  # every turn the table showed was played
    assert figures["actions"] > figures["decisions"]  # the CPU player acted too
    # a decision takes at least its move, and a person never flails
    assert 1.0 <= figures["interactions_per_decision"] <= 3.0


def test_the_costs_are_in_a_sane_range(figures: dict[str, float]) -> None:
    assert 0 < figures["kib_uploaded_per_hand"] < 5000  # images are sent, not megabytes
    assert figures["private_messages_per_player_hand"] <= 20
    assert 0 < figures["bot_token_requests_per_action"] < 5
    assert figures["expired_token_requests"] == 0  # the bot never uses a dead token
    assert figures["public_messages_per_hand"] <= 2
