"""The log holds no card the table did not show (issue 15), at any level.

Hands with special hands of R-11 are dealt from a chosen deck: the holder is the eldest hand,
and the log may carry only the proof the table shows (the kings of a ricchezza, the aces of a
stoppa di assi, the whole hand of a stoppa povera), besides declared and played cards. A
bluff (a declared point lower than the best one) may show only the declared cards.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from bot.engine import Card, Declare, Hand, Pass, Rules
from bot.engine.events import SpecialHand
from tests.discord_table.driver import CARD
from tests.tables.helpers import CHANNEL, USERS, Harness, Passer, drive

KINGS = frozenset({"10c", "10d", "10s", "10b"})
ACES = frozenset({"1c", "1d", "1s", "1b"})
FIGURES = (8, 9, 10)


def seat_positions(rules: Rules, dealer: int, priority: int) -> list[int]:
    """The deck positions dealt to the player of `priority` (0 = eldest hand), by R-3."""
    n, pos = rules.players, 0
    out: list[int] = []
    for k in rules.deals:
        start = pos + priority * k
        out.extend(range(start, start + k))
        pos += n * k
    return out


def final_hands(rules: Rules, dealer: int, deck: Sequence[Card]) -> list[set[str]]:
    """Every seat's cards after all the deals (seat = its engine index)."""
    n = rules.players
    hands: list[set[str]] = [set() for _ in range(n)]
    for priority in range(n):
        seat = (dealer + 1 + priority) % n
        hands[seat] = {deck[p].code for p in seat_positions(rules, dealer, priority)}
    return hands


def special_of(cards: set[str], rules: Rules) -> str | None:
    ranks = [Card.parse(c).rank for c in cards]
    if ranks.count(10) == rules.rank_counts()[10]:
        return "ricchezza"
    if not any(r in FIGURES for r in ranks):
        return "misera"
    if ranks.count(1) == rules.rank_counts()[1]:
        return "assi"
    return None


def deck_with(rules: Rules, dealer: int, wanted: str, seed: int) -> list[Card]:
    """A deck whose eldest hand holds the special hand `wanted` and nobody else holds one
    (the 30 cards of a 4-player game are dealt; the rest stay in the deck)."""
    rng = random.Random(seed)
    used = rules.deck()
    mine = seat_positions(rules, dealer, 0)
    for _ in range(10_000):
        deck = list(used)
        rng.shuffle(deck)
        if wanted == "ricchezza":
            keep = [c for c in deck if c.code in KINGS]
        elif wanted == "assi":
            keep = [c for c in deck if c.code in ACES]
        else:
            keep = [c for c in deck if c.rank not in FIGURES][: len(mine)]
        rest = [c for c in deck if c not in keep]
        extra = [c for c in rest if wanted != "misera" or c.rank not in FIGURES]
        filler = [c for c in extra if not (wanted == "assi" and c.code in KINGS)]
        ordered: list[Card | None] = [None] * len(deck)
        own = keep + filler[: len(mine) - len(keep)]
        for pos, card in zip(mine, own, strict=True):
            ordered[pos] = card
        others = iter(c for c in deck if c not in own)
        full = [c if c is not None else next(others) for c in ordered]
        hands = final_hands(rules, dealer, full)
        eldest = (dealer + 1) % rules.players
        if special_of(hands[eldest], rules) == wanted and all(
            special_of(h, rules) is None for s, h in enumerate(hands) if s != eldest
        ):
            return full
    raise AssertionError(f"no deck found for {wanted}")


def chosen_decks(monkeypatch: pytest.MonkeyPatch, wanted: list[str],
                 dealt: list[tuple[list[set[str]], int]]) -> None:
    """Deal the service's hands from decks giving the eldest hand each special in `wanted`."""
    start = Hand.start.__func__  # type: ignore[attr-defined]

    def with_deck(cls: type[Hand], rules: Rules, chips: Sequence[int], dealer: int,
                  **kwargs: Any) -> Hand:
        kind = wanted[len(dealt) % len(wanted)]
        deck = deck_with(rules, dealer, kind, seed=len(dealt))
        dealt.append((final_hands(rules, dealer, deck), (dealer + 1) % rules.players))
        kwargs.pop("seed", None)
        kwargs.pop("deck", None)  # the fair deck is replaced by the chosen one
        return start(cls, rules, chips, dealer, deck=deck, **kwargs)

    monkeypatch.setattr(Hand, "start", classmethod(with_deck))


def public_cards(updates: list[Any]) -> set[str]:
    """Cards declared or played at the table, as the published events show them."""
    out: set[str] = set()
    for update in updates:
        for event in update.events:
            if event.kind in ("declare", "play"):
                out.update(event.event.data().get("cards") or ())
    return out


def proof(kind: str, hand: set[str]) -> set[str]:
    return {"ricchezza": set(KINGS), "assi": set(ACES), "misera": set(hand)}[kind]


def cards_in_logs(records: list[logging.LogRecord]) -> set[str]:
    return {code for r in records for code in CARD.findall(r.getMessage())}


async def play_hands(h: Harness, hands: int, players: dict[int, Any],
                     until: Callable[[Any], bool] | None = None) -> None:
    await h.seat_four()
    await h.svc.start_game(1, CHANNEL, USERS[0])
    target = hands

    def done(state: Any) -> bool:
        return state is None or state.hand_no > target

    await drive(h, until or done, players)


@pytest.mark.parametrize("kinds", [["ricchezza"], ["assi"], ["misera"],
                                   ["ricchezza", "misera", "assi"]])
async def test_special_hands_log_only_their_proof(
    h: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
    kinds: list[str],
) -> None:
    caplog.set_level(logging.DEBUG)
    dealt: list[tuple[list[set[str]], int]] = []
    chosen_decks(monkeypatch, kinds, dealt)
    await play_hands(h, len(kinds), {u: Passer() for u in USERS})
    specials = [u for u in h.updates for e in u.events if e.kind == "special"]
    assert len(specials) >= len(kinds)
    allowed = public_cards(h.updates)
    for number, (hands, eldest) in enumerate(dealt[: len(kinds)]):
        allowed |= proof(kinds[number], hands[eldest])
    logged = cards_in_logs(caplog.records)
    assert logged - allowed == set()
    # the scan sees the proof: the special hands' cards are in the log
    for number, (hands, eldest) in enumerate(dealt[: len(kinds)]):
        assert proof(kinds[number], hands[eldest]) <= logged


class Bluffer:
    """Bets the minimum when it may, calls, and declares its weakest point at a showdown."""

    name = "bluffer"

    def __init__(self) -> None:
        self.bluffs: list[tuple[tuple[str, ...], tuple[str, ...]]] = []

    def choose(self, view: Any, legal: list[Any], events: Any = ()) -> Any:
        declares = [a for a in legal if isinstance(a, Declare)]
        if declares:
            best, worst = declares[0], declares[-1]
            self.bluffs.append((tuple(map(str, worst.cards)), tuple(map(str, best.cards))))
            return worst
        names = {type(a).__name__ for a in legal}
        for kind in ("Bet", "Call"):
            if kind in names:
                return next(a for a in legal if type(a).__name__ == kind)
        return next((a for a in legal if not isinstance(a, Pass)), legal[0])


async def test_a_bluff_logs_only_the_declared_cards(
    h: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    players = {u: Bluffer() for u in USERS}
    await play_hands(h, 1, players)
    bluffs = [b for p in players.values() for b in p.bluffs if b[0] != b[1]]
    assert bluffs, "nobody bluffed"
    logged = cards_in_logs(caplog.records)
    assert logged - public_cards(h.updates) == set()
    assert any(set(shown) <= logged for shown, _ in bluffs)


def test_debug_logging_never_prints_gateway_payloads() -> None:
    """At DEBUG, discord.py would print every gateway event, and the interaction of a button
    pressed on a private hand reply carries that reply (the player's cards)."""
    from bot.logs import setup_logging

    root = logging.getLogger()
    saved = (root.level, list(root.handlers), logging.getLogger("discord.gateway").level)
    try:
        setup_logging("DEBUG")
        assert logging.getLogger("stoppa.table").isEnabledFor(logging.DEBUG)
        assert not logging.getLogger("discord.gateway").isEnabledFor(logging.DEBUG)
        assert logging.getLogger("discord.gateway").isEnabledFor(logging.INFO)
        setup_logging("WARNING")
        assert not logging.getLogger("discord.gateway").isEnabledFor(logging.INFO)
    finally:
        for handler in list(root.handlers):
            if handler not in saved[1]:
                root.removeHandler(handler)
        root.setLevel(saved[0])
        logging.getLogger("discord.gateway").setLevel(saved[2])


@pytest.mark.parametrize(
    ("kind", "blocked", "expected"),
    [
        ("ricchezza", "four_aces", ["10c", "10d", "10s", "10b"]),
        ("assi", "four_aces", ["1c", "1d", "1s", "1b"]),
        ("assi", "three_aces", ["1c", "1d", "1s", "1b"]),
        ("assi", "four_aces_no_king", None),  # "no king" is proved by the whole hand
        ("misera", "four_aces", None),
    ],
)
def test_R11_the_logged_proof_of_each_special_hand(
    kind: str, blocked: str, expected: list[str] | None
) -> None:
    from bot.tables.journal import loggable_data

    hand = ["1c", "1d", "1s", "1b", "10c", "10d", "10s", "10b", "7c", "5d"]
    event = SpecialHand(0, kind, tuple(hand), ())
    data = loggable_data(event, {"blocked_stoppa": blocked})
    assert data["cards"] == (hand if expected is None else expected)
    assert event.cards == tuple(hand)  # the published event is not changed
