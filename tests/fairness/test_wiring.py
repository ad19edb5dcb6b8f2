"""Issue 30, wired into the table service: every hand played through the service is the deck
of the table's secret and the words recorded with it; the secret shows nowhere before the
table closes (updates, snapshots, meta, log lines, CPU players' views and seeds); a restart
between the opening and the first deal keeps the one commitment. On SQLite and PostgreSQL.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import Rules
from bot.engine.events import Event
from bot.fairness import (
    Commitment,
    DealInputs,
    TableSecret,
    WordError,
    first_dealer,
    normalise_word,
    verify_hand,
    verify_table,
)
from bot.players import CpuPlayer, make_player
from bot.store import TableRow
from bot.tables.fair import hands_of
from tests.store.conftest import postgres_schema
from tests.tables.helpers import CHANNEL, GUILD, USERS, Harness, drive, random_players


class Watched:
    """A CPU player whose every view, legal list and event list is kept (scanned later)."""

    def __init__(self, inner: CpuPlayer, seen: list[str]) -> None:
        self.inner = inner
        self.seen = seen

    def choose(self, view: Any, legal: list[Any], events: Any = ()) -> Any:
        self.seen.append(repr((view, legal, list(events))))
        return self.inner.choose(view, legal, events)


def watching(seen: list[str], seeds: list[int | None]) -> Callable[[str, int | None], Any]:
    def factory(level: str, seed: int | None) -> Any:
        seeds.append(seed)
        return Watched(make_player(level, seed), seen)

    return factory


@pytest.fixture(params=["sqlite", "postgresql"])
async def db(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Harness]:
    """An unstarted tables harness on either database (the test opens it with its options)."""
    if request.param == "sqlite":
        harness = Harness(tmp_path / "fair.db")
        try:
            yield harness
        finally:
            await harness.close()
        return
    async with postgres_schema() as open_store:
        harness = Harness(tmp_path / "unused.db", open_store)
        try:
            yield harness
        finally:
            await harness.close()


def used_mask(row: TableRow, players: int) -> int:
    return Rules(**{**row.settings, "players": players}).deck_mask()


async def check_every_hand(h: Harness, row: TableRow, secret: TableSecret,
                           words: dict[int, str]) -> int:
    """Each stored hand: its words are the dealt-in players' words in seat order, and the
    deck of the secret and those words deals, shows and plays exactly its cards."""
    hands = await h.store.hand_history(row.id, limit=1000)
    for hand in hands:
        seats = list(hand.result)
        assert hand.words == tuple((u, words[u]) for u in seats if words.get(u))
        inputs = DealInputs(secret, row.id, hand.hand_no, tuple(w for _, w in hand.words))
        events = json.loads(hand.events)
        check = verify_hand(inputs, used_mask(row, len(seats)),
                            [Event.from_dict(e) for e in events])
        assert check.ok, check.mismatches
        dealt = [c for e in events if e["kind"] == "deal" for c in e["data"]["cards"]]
        assert dealt == [c.code for c in check.deck[: len(dealt)]]
    return len(hands)


async def test_a_whole_game_deals_the_committed_decks_and_hides_the_secret_until_the_close(
    db: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    seen: list[str] = []
    seeds: list[int | None] = []
    await db.open(player_factory=watching(seen, seeds))
    words = {USERS[0]: "ciao", USERS[2]: "Zoë"}
    for user, word in words.items():
        await db.store.set_word(GUILD, user, word)
    humans = USERS[:3]
    opened = await db.svc.open_table(GUILD, CHANNEL, humans[0])
    row = await db.store.get_table(opened.table_id)
    secret, commitment = row.secret, row.commitment
    assert secret is not None and commitment is not None and not row.revealed
    assert commitment.matches(secret, row.id)
    assert opened.commitment == commitment.hex() and opened.revealed_secret is None
    for user in humans[1:]:
        await db.svc.join(GUILD, CHANNEL, user)
    await db.svc.add_cpu(GUILD, CHANNEL, humans[0])
    first = await db.svc.start_game(GUILD, CHANNEL, humans[0])
    dealt_in = list(first.players)
    assert first.dealer == dealt_in[first_dealer(secret, len(dealt_in))]
    await db.svc.call_round(GUILD, CHANNEL, humans[1])
    await drive(db, lambda s: s is None, random_players(humans, seed=3))
    await db.svc.wait_idle()

    hidden = secret.hex()
    closing = db.updates[-1]
    assert closing.kind == "closed"
    assert closing.state.revealed_secret == hidden
    before = db.updates[:-1]
    assert len(before) > 20
    for update in before:
        assert update.state.revealed_secret is None
        assert hidden not in repr(update) and hidden not in str(update.state)
    assert not any(hidden in r.getMessage() for r in caplog.records)
    assert seen and not any(hidden in text for text in seen)
    # CPU players' seeds are their own: kept in the meta when seated, not the table's
    closed = await db.store.get_table(row.id)
    assert closed.revealed and closed.secret == secret
    assert hidden not in json.dumps(closed.meta)
    assert seeds and all(s is not None for s in seeds)
    assert set(seeds) <= set(closed.meta["cpu_seeds"].values())
    hands = await check_every_hand(db, closed, secret, words)
    assert hands == closing.state.hand_no >= 3  # every hand dealt was finished and stored


async def test_a_restart_between_opening_and_the_first_deal_keeps_one_commitment(
    db: Harness,
) -> None:
    await db.open()
    opened = await db.svc.open_table(GUILD, CHANNEL, USERS[0])
    await db.svc.join(GUILD, CHANNEL, USERS[1])
    await db.restart()
    for user in USERS[2:]:
        await db.svc.join(GUILD, CHANNEL, user)
    started = await db.svc.start_game(GUILD, CHANNEL, USERS[0])
    assert started.commitment == opened.commitment
    row = await db.store.get_table(opened.table_id)
    assert row.commitment is not None and row.commitment.hex() == opened.commitment
    assert row.secret is not None and row.commitment.matches(row.secret, row.id)
    await db.svc.force_close(GUILD, CHANNEL, 1)
    assert db.updates[-1].state.commitment == opened.commitment


def _word_ok(word: str) -> bool:
    try:
        normalise_word(word)
    except WordError:
        return False
    return True


WORDS = st.text(min_size=0, max_size=12).filter(_word_ok)


async def _play(path: Path, words: dict[int, str], seed: int) -> None:
    h = Harness(path)
    await h.open()
    try:
        kept = {u: normalise_word(w) for u, w in words.items()}
        for user, word in kept.items():
            await h.store.set_word(GUILD, user, word)
        await h.seat_four()
        state = await h.svc.start_game(GUILD, CHANNEL, USERS[0])
        table_id = state.table_id
        await h.svc.call_round(GUILD, CHANNEL, USERS[1])
        await drive(h, lambda s: s is None, random_players(seed=seed))
        await h.svc.wait_idle()
        row = await h.store.get_table(table_id)
        revealed = h.updates[-1].state.revealed_secret
        assert revealed is not None
        secret = TableSecret.from_hex(revealed)
        published = Commitment.from_hex(h.updates[0].state.commitment or "")
        assert published.matches(secret, table_id)
        assert await check_every_hand(h, row, secret, kept) == h.updates[-1].state.hand_no >= 3
    finally:
        await h.close()


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(words=st.dictionaries(st.sampled_from(USERS), WORDS, max_size=4),
       seed=st.integers(0, 10_000))
def test_the_revealed_secret_and_recorded_words_reproduce_every_hand_played(
    tmp_path_factory: pytest.TempPathFactory, words: dict[int, str], seed: int
) -> None:
    path = tmp_path_factory.mktemp("fair") / "fair.db"
    asyncio.run(_play(path, words, seed))


async def test_a_hand_the_close_interrupted_is_verifiable_too(db: Harness) -> None:
    await db.open()
    await db.store.set_word(GUILD, USERS[1], "stella")
    await db.seat_four()
    state = await db.svc.start_game(GUILD, CHANNEL, USERS[0])
    await drive(db, lambda s: s is not None and s.hand_no == 2 and s.turn >= state.turn + 20,
                random_players(seed=4))
    await db.svc.force_close(GUILD, CHANNEL, 1)
    row = await db.store.get_table(state.table_id)
    assert row.revealed and row.secret is not None and row.commitment is not None
    hands = await hands_of(db.store, row)
    assert [(h.check.hand_no, h.aborted) for h in hands] == [(1, False), (2, True)]
    assert hands[1].words == ((USERS[1], "stella"),)
    checked = verify_table(row.commitment, row.secret, row.id, [h.check for h in hands])
    assert checked.ok and all(len(v.dealt) >= 4 for v in checked.hands)
    # a card the log claims but the deck did not deal is caught
    forged_json = [e.to_dict() for e in hands[1].check.events]
    deal = next(e for e in forged_json if e["kind"] == "deal")
    deal["data"]["cards"] = list(reversed(deal["data"]["cards"]))
    forged = [Event.from_dict(e) for e in forged_json]
    bad = verify_table(row.commitment, row.secret, row.id,
                       [hands[0].check, replace(hands[1].check, events=forged)])
    assert not bad.ok
