"""Forgetting a member (issue 39, docs/privacy.md), on SQLite and PostgreSQL: afterwards no row
of that server holds their id, every other member's balance, hands, replays and statistics
read as before (the forgotten one under their placeholder), the audit is clean, and a member
in a game in play is refused with nothing changed."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.store import HandRecord, Move
from bot.store.contract import StoreContract
from bot.store.models import RatingUpdate, TableSave
from bot.store.privacy import REASON_FORGET, ForgetRefused, forgotten_name, is_forgotten
from bot.store.schema import TABLES

from .conftest import GUILD, OTHER_GUILD

GONE, ANNA, BRUNO = 412345678901234567, 412345678901234999, 498765432109876543
CPU = -11


async def _play(store: StoreContract) -> int:
    """A server where GONE managed, was granted and gave chips, played a hand (rated, with a
    fair word) at a table now closed, entered a finished tournament... and has a word and pings
    off; GONE also has an account on another server. Returns the hand's id."""
    await store.update_server_settings(GUILD, by=GONE, give_enabled=True)
    await store.set_stakes(GUILD, {"ante": 80}, by=GONE)
    await store.grant(GUILD, ANNA, 300, reason="prize", by=GONE)
    await store.grant(GUILD, GONE, 250, reason="prize", by=ANNA)
    await store.give(GUILD, GONE, BRUNO, 40)
    await store.balance(OTHER_GUILD, GONE)
    table = await store.create_table(GUILD, 1, settings={"ante": 80}, seats=[GONE, ANNA, CPU])
    moves = [Move(GONE, 80, "ante", 1), Move(ANNA, 80, "ante", 1), Move(CPU, 80, "ante", 1)]
    table = await store.save_table(table.id, TableSave(0, status="playing", moves=moves))
    events = json.dumps([{"type": "Won", "seat": 1, "user": ANNA, "from": [GONE, CPU]}])
    ratings = (RatingUpdate(GONE, 24.0, 8.0, 1, -80), RatingUpdate(ANNA, 26.0, 8.0, 1, 160))
    hand = HandRecord(1, 4, events, {GONE: -80, ANNA: 160, CPU: -80}, {ANNA: 1},
                      ratings=ratings, words=((GONE, "lucky"), (ANNA, "ciao")))
    table = await store.save_table(
        table.id, TableSave(1, moves=[Move(ANNA, -240, "pot", 1)], hand=hand)
    )
    await store.close_table(table.id, expected_version=2)
    await store.set_word(GUILD, GONE, "zebra")
    await store.set_pings(GUILD, GONE, False)
    (stored,) = await store.player_hands(GUILD, ANNA)
    return stored.id


async def _rows(store: StoreContract) -> dict[str, list[dict[str, Any]]]:
    out = {}
    for table in TABLES:
        columns, rows = await store.export_rows(table)
        out[table] = [dict(zip(columns, row, strict=True)) for row in rows]
    return out


async def test_a_forgotten_member_leaves_no_trace_and_the_books_balance(
    store: StoreContract,
) -> None:
    hand_id = await _play(store)
    # a tournament not over holds the member back; once cancelled (every buy-in refunded), not
    cup = await store.create_tournament(GUILD, 1, buy_in=50, max_players=4,
                                        state=json.dumps({"seats": [GONE, ANNA]}))
    for user in (GONE, ANNA):
        await store.register(cup.id, user)
    with pytest.raises(ForgetRefused) as refused:
        await store.forget_member(GUILD, GONE)
    assert refused.value.reason == "tournament"
    await store.cancel_tournament(cup.id)
    before = await store.member_data(GUILD, GONE)
    assert before.tournaments == 1
    assert before.balance == 1000 + 250 - 40 - 80 and before.hands == 1 and before.word
    assert before.pings_off and before.rated_seasons == 1 and before.ledger_rows >= 4
    others = await store.balances(GUILD, [ANNA, BRUNO])
    anna_stats = await store.stats(GUILD, ANNA)
    totals = await store.total_chips(GUILD)

    gone = await store.forget_member(GUILD, GONE)

    assert is_forgotten(gone.placeholder) and forgotten_name(gone.placeholder) == "anon-1"
    assert gone.chips_returned == before.balance
    assert await store.audit() == []
    rows = await _rows(store)
    for table, found in rows.items():
        for row in found:
            if row.get("guild_id") == OTHER_GUILD:
                continue
            for column, value in row.items():
                assert str(GONE) not in str(value), (table, column, row)
    assert any(r["user_id"] == GONE for r in rows["accounts"] if r["guild_id"] == OTHER_GUILD)
    # what the others see is what they saw, with the placeholder where GONE was
    assert await store.balances(GUILD, [ANNA, BRUNO]) == others
    assert await store.stats(GUILD, ANNA) == anna_stats
    (hand,) = await store.player_hands(GUILD, ANNA)
    assert hand.id == hand_id and hand.result == {gone.placeholder: -80, ANNA: 160, CPU: -80}
    assert hand.words == ((gone.placeholder, "lucky"), (ANNA, "ciao"))  # the proof stays
    assert json.loads(hand.events)[0]["from"] == [gone.placeholder, CPU]
    replay = await store.stored_hand(GUILD, hand_id)
    assert replay is not None and replay.events == hand.events
    assert await store.player_hands(GUILD, gone.placeholder) == [hand]
    entrants = (await store.get_tournament(cup.id)).entrants
    assert sorted(entrants) == sorted([gone.placeholder, ANNA])
    # the chips went back to the bank, in the ledger
    balances, escrow, minted = await store.total_chips(GUILD)
    assert (balances, escrow) == (totals[0] - gone.chips_returned, totals[1])
    assert minted == totals[2] - gone.chips_returned
    forget_rows = [r for r in rows["ledger"] if r["reason"] == REASON_FORGET]
    assert [(r["src_id"], r["dst_kind"], r["amount"]) for r in forget_rows] == [
        (gone.placeholder, "mint", gone.chips_returned)
    ]
    # nothing is left to show, and a second member forgotten gets the next placeholder
    assert await store.member_data(GUILD, GONE) == type(before)(None, 0, 0, 0, 0, False, False)
    assert (await store.forget_member(GUILD, BRUNO)).placeholder == gone.placeholder + 1
    assert await store.audit() == []


async def test_a_member_in_a_game_in_play_is_refused_and_nothing_changes(
    store: StoreContract,
) -> None:
    table = await store.create_table(GUILD, 1, settings={}, seats=[GONE, ANNA])
    await store.save_table(table.id, TableSave(0, status="playing",
                                               moves=[Move(GONE, 60, "ante", 1)]))
    before = await _rows(store)
    with pytest.raises(ForgetRefused) as refused:
        await store.forget_member(GUILD, GONE)
    assert refused.value.reason == "seated" and "leave it" in refused.value.message("en")
    assert await _rows(store) == before
    await store.save_table(table.id, TableSave(1, moves=[Move(GONE, -60, "refund", 1)]))
    await store.close_table(table.id, expected_version=2)
    assert (await store.forget_member(GUILD, GONE)).chips_returned == 1000


#: the tables of the schema that never name a member: a lease's owner is a process, a season
#: has a name and dates
NAME_NOBODY = {"table_leases", "seasons"}


def test_every_table_that_can_name_a_member_is_forgotten_and_documented() -> None:
    """A table added to the schema must be handled by the forget transaction and listed in
    docs/privacy.md, or be declared here as naming nobody."""
    from pathlib import Path

    from bot.store.privacy import DELETED, ID_COLUMNS, TEXT_COLUMNS

    handled = {t for t, _, _ in ID_COLUMNS} | set(TEXT_COLUMNS) | set(DELETED)
    handled |= {"tournament_entries"}  # through its tournament's server (ENTRIES)
    assert set(TABLES) - NAME_NOBODY == handled
    page = (Path(__file__).resolve().parents[2] / "docs" / "privacy.md").read_text("utf-8")
    for table in handled:
        assert f"`{table}`" in page, table
