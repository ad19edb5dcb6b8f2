"""The table service: the async layer between the Discord cogs and the engine/store.

Discord-free: it takes guild/channel/user ids and engine actions, and returns `TableState`
snapshots (for rendering) and `Update`s with notices (what happened, who acts next).

```python
from bot.tables import TableService, TableError, FakeClock

service = await TableService.start(store, turn_timeout=60.0, seed=None, clock=None,
                                   cpu_delay=0.0, player_factory=make_player)
await service.stop()
await service.open_table(guild, channel, user, *, own_thread=False) -> TableState  # opener sits
await service.check_can_open(guild, user)                         # before making a thread
await service.back(guild, user) -> TableState | None              # a sat-out player is back
await service.join(guild, channel, user) -> TableState            # 3-6 seats, 10 x ante to sit
await service.leave(guild, channel, user) -> TableState           # mid-hand: at the hand's end
await service.add_cpu(guild, channel, by, level="easy") -> TableState   # "random"|"easy"|"hard"
await service.start_game(guild, channel, user) -> TableState      # deals the first hand
await service.act(guild, channel, user, action, *, expected_hand=None, expected_turn=None,
                  lang=None)
    -> TableState                  # action: an engine Action or its text ("raise 60")
await service.call_round(guild, channel, user) -> TableState      # R-14
await service.force_close(guild, channel, by) -> TableState       # admin; refunds the escrow
await service.kick(guild, channel, by, user) -> TableState        # admin
await service.message_posted(table_id, message_id) -> TableState  # the listener's report
service.table_unseen(table_id) / table_seen(table_id)   # ... of its message: the clock
service.state(channel) / state_by_id(table_id) / table_of(guild, user) -> TableState | None
service.tables() -> list[TableState]
service.open_tables(guild) -> list[TableState]   # one server's, oldest first
service.hand_for(guild, channel, user) -> PlayerHand   # private: typed view, actions, tokens
await service.open_tournament(channel, create) -> TableState   # a tournament's table (below)
await service.open_practice(guild, user, cpus, level) -> TableState   # their practice table
service.practice(user) -> PracticeTable | None   # snapshot + the member's hand (below)
await service.practice_act(user, table_id, action, hand, turn) / practice_next(user, table_id)
    / practice_leave(user, table_id) -> TableState   # then the CPU seats' moves
service.subscribe(async_callback)                # async callback(update: Update)
await service.wait_idle()                        # CPU moves and fired timers done (tests)
```

Errors: `TableError(code, **params)` (`.code`, `.params`, `.key`, `.message(lang)`; messages
`tables.errors.<code>`); the engine's `IllegalAction` passes through (messages `engine.<code>`).

Notices are `Notice(key, params, users)`: `notice.text(lang, names)` translates, replacing the
params listed in `users` (user ids) by display names. The turn-timeout notice key is
`tables.timeout.<action kind>` (pass, call, declare, play, ...).

Each open table is a `TableSession` (`bot.tables.session`); the service is their registry.
Every change: the session's lock -> checks (seat to act, `expected_hand`/`expected_turn` tokens:
`TableState.hand_no`/`.turn`) -> engine -> one store transaction with the state, the meta and
the chip `Move`s (+ a `HandRecord` at the end of a hand) -> listeners. If the transaction fails
the in-memory table is rebuilt from the stored row. The session is the only writer of its
table: its policy answers decisions (`Deal | Wait | Close`, `Settled`: `bot.tables.policy`)
and the helpers beside it take arguments and return values (`dealing`, `writes`, `seating`,
`closing`); the turn timer (`TurnClock`) and the CPU players (`CpuTurns`) keep a task each.
The meta (`TableMeta`) is typed and a dict only at the JSON boundary.

Chips: a seat's engine chips at the start of a hand are its store balance; after every engine
step each seat's chip change becomes a Move (+ into the table escrow, - back to the player).
Between hands the escrow holds only a carried big pot (variant unclaimed_big_pot=carry).

Tournament tables (issue 21, `bot.tournaments.table_policy`; opened by
`bot.tournaments.service.TournamentService.start`): ordinary tables whose hands the
tournament's state drives (tournament chips, no balance moves while it plays; nobody joins;
leavers stay in, sat out), each hand saved with the tournament's state; `TableState.tournament`
is its `TournamentInfo`; the last updates are "tournament_over" (prizes paid) and "closed".

Practice tables (issue 29, `bot.tables.policies.practice`): one member against CPU players
with practice chips (no ledger move, no hand record), the member's and not a channel's (never
`state(channel)`, `table_of` or `tables()`; no listener hears them), no turn clock, CPU seats
at once (`practice_act` returns at the member's next decision or the hand's end).

Decisions where the rules are silent: see `bot.tables.service` (next hand starts at once,
leavers default until the hand ends, R-14 counting, CPU ids, CPU without chips leaves).
"""

from __future__ import annotations

from bot.tables.clock import Clock, FakeClock, SystemClock
from bot.tables.cpus import is_cpu
from bot.tables.errors import CODES, TableError
from bot.tables.meta import TableMeta
from bot.tables.player_hand import PlayerHand, PracticeTable
from bot.tables.service import TableService
from bot.tables.updates import (
    HandOver,
    Notice,
    Payment,
    PotWon,
    SeatState,
    ShownPoint,
    TableEvent,
    TableState,
    Update,
    display_name,
)

__all__ = [
    "CODES",
    "Clock",
    "FakeClock",
    "HandOver",
    "Notice",
    "Payment",
    "PlayerHand",
    "PotWon",
    "PracticeTable",
    "SeatState",
    "ShownPoint",
    "SystemClock",
    "TableError",
    "TableEvent",
    "TableMeta",
    "TableService",
    "TableState",
    "Update",
    "display_name",
    "is_cpu",
]
