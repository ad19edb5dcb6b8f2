"""Small pure helpers of the service: notices, seats, dealer rotation, hand records."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from bot.engine import Action, Bet, Declare, Hand, Play, Raise
from bot.engine.events import Closed, Won
from bot.store import HandRecord
from bot.tables.cpus import is_cpu
from bot.tables.meta import TableMeta
from bot.tables.updates import Notice


def note(key: str, **params: Any) -> Notice:
    """A notice; params named player/by are user ids."""
    users = tuple(k for k in ("player", "by", "dealer") if k in params)
    return Notice(key, params, users)


def timeout_notice(user: int, action: Action) -> Notice:
    """The notice "Anna timed out: passes" (key `tables.timeout.<kind>`)."""
    kind = type(action).__name__.lower()
    params: dict[str, Any] = {"player": user}
    if isinstance(action, Bet):
        params["amount"] = action.amount
    elif isinstance(action, Raise):
        params["amount"] = action.to
    elif isinstance(action, Declare | Play):
        params["cards"] = " ".join(map(str, action.cards))
    elif kind not in ("pass", "call", "concede"):
        kind = "other"
        params["action"] = str(action)
    return Notice(f"tables.timeout.{kind}", params, ("player",))


def has_humans(seats: Iterable[int]) -> bool:
    return any(not is_cpu(u) for u in seats)


def next_dealer(seats: list[int], able: list[int], last: int, last_pos: int) -> int:
    """The next seat after the last dealer (by position if they left) that can play."""
    n = len(seats)
    start = seats.index(last) + 1 if last in seats else last_pos
    for i in range(n):
        user = seats[(start + i) % n]
        if user in able:
            return user
    return able[0]


def hand_record(hand: Hand, meta: TableMeta) -> HandRecord:
    players = meta.in_play.players
    result = hand.result or [0] * len(players)
    pots_won: dict[int, int] = {}
    closes: dict[int, int] = {}
    biggest: dict[int, int] = {}
    for event in hand.events:
        if isinstance(event, Won):
            user = players[event.seat]
            pots_won[user] = pots_won.get(user, 0) + 1
            biggest[user] = max(biggest.get(user, 0), event.amount)
        elif isinstance(event, Closed):
            closes[players[event.seat]] = 1
    return HandRecord(
        hand_no=meta.in_play.hand_no,
        seed=meta.in_play.hand_seed,
        events=json.dumps([e.to_dict() for e in hand.events]),
        result={players[i]: int(r) for i, r in enumerate(result)},
        pots_won=pots_won,
        closes=closes,
        biggest_pot=biggest,
        words=tuple((w.user, w.word) for w in meta.in_play.words),
    )
