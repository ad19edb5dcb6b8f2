"""Property: after any sequence of operations (grants, removals, daily claims, table moves in
and out of the escrow, refunds and closes, gifts between members, tournaments registered and
then paid out, cancelled or left open, across two servers) the store agrees with a plain
Python model of the chips, `audit()` finds nothing, and on every server
sum(balances) + sum(escrow and pools) == chips minted net of burns."""

from __future__ import annotations

import asyncio
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from bot.store import (
    CooldownActive,
    GiveRefused,
    InsufficientFunds,
    Move,
    Store,
    StoreContract,
    StoreError,
    TournamentError,
)
from bot.store.models import TableSave
from bot.store.sql import Statement

from .conftest import postgres_schema, postgres_url

GUILDS = (1, 2)
USERS = (1, 2, 3, -1)

amounts = st.integers(1, 400) | st.integers(-400, -1)
#: table moves lean towards payments into the escrow, so payouts and refunds have chips to use
table_amounts = st.integers(1, 300) | st.integers(1, 300) | st.integers(-300, -1)
grant = st.tuples(st.just("grant"), st.sampled_from(GUILDS), st.sampled_from(USERS), amounts)
daily = st.tuples(
    st.just("daily"), st.sampled_from(GUILDS), st.sampled_from(USERS), st.integers(0, 3)
)
start = st.tuples(st.just("start"), st.sampled_from(GUILDS), st.integers(0, 2000))
open_table = st.tuples(st.just("open"), st.sampled_from(GUILDS), st.integers(1, 2))
moves = st.tuples(
    st.just("moves"),
    st.integers(0, 5),
    st.lists(st.tuples(st.sampled_from(USERS), table_amounts), min_size=1, max_size=4),
)
close = st.tuples(st.just("close"), st.integers(0, 5))
members = [u for u in USERS if u > 0]
give = st.tuples(
    st.just("give"),
    st.sampled_from(GUILDS),
    st.sampled_from(USERS),
    st.sampled_from(USERS),
    st.integers(1, 600),
)
tourney = st.tuples(
    st.just("tourney"),
    st.sampled_from(GUILDS),
    st.integers(0, 700),
    st.lists(st.sampled_from(members), min_size=1, max_size=4),
    st.sampled_from(["pay", "cancel", "open", "withdraw"]),
)
#: table operations weigh more: they are where chips move through the escrow
op = st.one_of(
    grant, daily, start, open_table, open_table, moves, moves, moves, moves, close, give, tourney
)


@dataclass
class Model:
    start: dict[int, int] = field(default_factory=lambda: dict.fromkeys(GUILDS, 1000))
    balances: dict[tuple[int, int], int] = field(default_factory=dict)
    minted: dict[int, int] = field(default_factory=lambda: dict.fromkeys(GUILDS, 0))
    last_daily: dict[tuple[int, int], float] = field(default_factory=dict)
    tables: list[tuple[int, int]] = field(default_factory=list)  # (id, guild)
    escrow: dict[int, int] = field(default_factory=dict)
    paid: dict[int, dict[int, int]] = field(default_factory=dict)  # table -> user -> net in
    version: dict[int, int] = field(default_factory=dict)
    open_channels: set[int] = field(default_factory=set)
    pools: dict[int, int] = field(default_factory=lambda: dict.fromkeys(GUILDS, 0))

    def balance(self, guild: int, user: int) -> int:
        if (guild, user) not in self.balances:
            self.balances[guild, user] = self.start[guild]
            self.minted[guild] += self.start[guild]
        return self.balances[guild, user]


async def _apply(store: StoreContract, model: Model, step: tuple, now: float) -> None:
    kind = step[0]
    if kind == "grant":
        _, guild, user, amount = step
        # create the account first in both, so a refused grant does not leave them apart
        assert await store.balance(guild, user) == model.balance(guild, user)
        have = model.balance(guild, user)
        try:
            new = await store.grant(guild, user, amount, reason="test", by=0)
        except InsufficientFunds:
            event("removal refused")
            assert have + amount < 0
        else:
            assert new == have + amount >= 0
            model.balances[guild, user] = new
            model.minted[guild] += amount
    elif kind == "daily":
        _, guild, user, hours = step
        have = model.balance(guild, user)
        last = model.last_daily.get((guild, user))
        at = now + hours * 10 * 3600
        try:
            claim = await store.claim_daily(guild, user, now=at)
        except CooldownActive:
            event("daily refused")
            assert last is not None and at < last + 72_000
        else:
            assert last is None or at >= last + 72_000
            assert claim.balance == have + 200
            model.balances[guild, user] = claim.balance
            model.minted[guild] += 200
            model.last_daily[guild, user] = at
    elif kind == "give":
        _, guild, giver, receiver, amount = step
        if giver == receiver or giver < 0 or receiver < 0:
            with pytest.raises(GiveRefused):  # refused before any account is touched
                await store.give(guild, giver, receiver, amount, now=now)
            return
        # create both accounts first in both, so a refused gift does not leave them apart
        for user in (giver, receiver):
            assert await store.balance(guild, user) == model.balance(guild, user)
        have = model.balance(guild, giver)
        try:
            result = await store.give(guild, giver, receiver, amount, now=now)
        except InsufficientFunds:
            assert have < amount
        else:
            model.balances[guild, giver] = result.giver_balance
            model.balances[guild, receiver] = result.receiver_balance
            assert result.giver_balance == have - amount
    elif kind == "tourney":
        _, guild, buy_in, entrants, outcome = step
        t = await store.create_tournament(guild, 99, buy_in=buy_in, max_players=4)
        registered: list[int] = []
        for user in entrants:
            assert await store.balance(guild, user) == model.balance(guild, user)
            have = model.balance(guild, user)
            try:
                await store.register(t.id, user)
            except TournamentError:
                assert user in registered
            except InsufficientFunds:
                assert have < buy_in
            else:
                registered.append(user)
                model.balances[guild, user] = have - buy_in
        pool = buy_in * len(registered)
        if outcome == "pay" and pool:
            first = registered[0]
            payouts = {first: pool - pool // 3}
            if pool // 3:
                payouts[registered[-1]] = payouts.get(registered[-1], 0) + pool // 3
            await store.pay_tournament(t.id, payouts)
            for user, amount in payouts.items():
                model.balances[guild, user] += amount
            event("tournament paid")
        elif outcome == "cancel":
            await store.cancel_tournament(t.id)
            for user in registered:
                model.balances[guild, user] += buy_in
        elif outcome == "withdraw" and registered:
            await store.unregister(t.id, registered[0])
            model.balances[guild, registered[0]] += buy_in
            model.pools[guild] += pool - buy_in
        else:
            model.pools[guild] += pool
    elif kind == "start":
        _, guild, amount = step
        await store.update_server_settings(guild, by=0, starting_balance=amount)
        model.start[guild] = amount
    elif kind == "open":
        _, guild, channel = step
        channel += 10 * guild
        if channel in model.open_channels:
            return
        row = await store.create_table(guild, channel, settings={}, seats=list(USERS))
        model.tables.append((row.id, guild))
        model.open_channels.add(channel)
        model.escrow[row.id], model.paid[row.id], model.version[row.id] = 0, {}, 0
    elif kind == "moves":
        _, index, pairs = step
        if not model.tables:
            return
        table_id, guild = model.tables[index % len(model.tables)]
        if table_id not in model.version:  # closed
            return
        moves = [Move(u, a, "bet" if a > 0 else "pot", 1) for u, a in pairs]
        before = {u: model.balance(guild, u) for u in USERS}
        assert await store.balances(guild, list(USERS)) == before
        after = dict(before)
        for u, a in pairs:
            after[u] -= a
        escrow = model.escrow[table_id] + sum(a for _, a in pairs)
        # the moves of one save apply as a whole: each user's balance changes once, by the net
        # of their moves, which the balance must cover; the escrow must not go negative
        ok = escrow >= 0 and all(after[u] >= 0 for u in USERS)
        try:
            row = await store.save_table(
                table_id,
                TableSave(model.version[table_id], moves=moves),
            )
        except (InsufficientFunds, StoreError):
            event("moves refused")
            assert not ok
        else:
            event("moves applied")
            assert ok and row.escrow == escrow
            model.escrow[table_id] = escrow
            model.version[table_id] += 1
            for u in USERS:
                model.balances[guild, u] = after[u]
            for u, a in pairs:
                model.paid[table_id][u] = model.paid[table_id].get(u, 0) + a
    elif kind == "close":
        _, index = step
        if not model.tables:
            return
        table_id, guild = model.tables[index % len(model.tables)]
        if table_id not in model.version:
            return
        # refund what each put in net (cut to the escrow), the rest as a carry to user 1
        left = model.escrow[table_id]
        refunds = []
        for u, net in sorted(model.paid[table_id].items()):
            give = min(max(net, 0), left)
            if give:
                refunds.append(Move(u, -give, "refund"))
                left -= give
        if left:
            refunds.append(Move(1, -left, "carry"))
        for m in refunds:
            model.balance(guild, m.user)
        row = await store.close_table(
            table_id, expected_version=model.version[table_id], refunds=refunds
        )
        assert (row.status, row.escrow) == ("closed", 0)
        event(f"closed with {len(refunds)} refunds")
        for m in refunds:
            model.balances[guild, m.user] -= m.amount
        model.escrow[table_id] = 0
        del model.version[table_id]
        model.open_channels.discard(row.channel_id)


async def _scenario(steps: list[tuple]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(str(Path(tmp) / "p.db"))
        try:
            await _check(store, steps)
        finally:
            await store.close()


async def _scenario_on_postgresql(steps: list[tuple]) -> None:
    async with postgres_schema() as open_store:
        await _check(await open_store(), steps)


async def _check(store: StoreContract, steps: list[tuple]) -> None:
    model = Model()
    for guild in GUILDS:
        await store.update_server_settings(guild, by=0, give_enabled=True)
    for step in steps:
        await _apply(store, model, step, now=1_000_000.0)
    for guild in GUILDS:
        users = [u for g, u in model.balances if g == guild]
        assert await store.balances(guild, users) == {
            u: model.balances[guild, u] for u in users
        }
        balances, escrow, minted = await store.total_chips(guild)
        assert balances + escrow == minted == model.minted[guild]
        tables = sum(e for t, e in model.escrow.items() if (t, guild) in model.tables)
        assert escrow == tables + model.pools[guild]
    assert await store.audit() == []


@settings(max_examples=60, deadline=None)
@given(st.lists(op, min_size=10, max_size=40))
def test_audit_is_clean_after_random_operations(steps: list[tuple]) -> None:
    asyncio.run(_scenario(steps))


@settings(max_examples=25, deadline=None)
@given(st.lists(op, min_size=10, max_size=40))
def _random_operations_on_postgresql(steps: list[tuple]) -> None:
    asyncio.run(_scenario_on_postgresql(steps))


def test_audit_is_clean_after_random_operations_on_postgresql() -> None:
    postgres_url()  # skips (or fails under STOPPA_REQUIRE_POSTGRES=1) without a server
    _random_operations_on_postgresql()


async def test_audit_detects_a_tampered_balance_and_escrow(db_path: str) -> None:
    store = await Store.open(db_path)
    try:
        row = await store.create_table(1, 1, settings={}, seats=[1])
        await store.save_table(row.id, TableSave(0, moves=[Move(1, 60, "ante")]))
        def tamper(tx):  # write behind the ledger's back, without ledger rows
            yield Statement("UPDATE accounts SET balance = balance + 7")
            yield Statement("UPDATE tables SET escrow = escrow - 1")

        await store._transaction(tamper)
        problems = await store.audit()
        assert any("user 1: balance 947, ledger says 940" in p for p in problems)
        assert any(f"table {row.id}: escrow 59, ledger says 60" in p for p in problems)
        assert any("!= minted 1000" in p for p in problems)
    finally:
        await store.close()
