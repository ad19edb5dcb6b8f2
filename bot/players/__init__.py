"""CPU players: the interface, a random baseline, and the easy and hard levels (issue 8).

```python
from bot.players import CpuPlayer, RandomPlayer, make_player
player = make_player("hard", seed=7)
action = player.choose(hand.seat_view(seat), hand.legal_actions(), hand.events_for(seat))
```

A player sees only its seat's typed view (`hand.seat_view(seat)`, a `SeatView`), the legal
actions and the events its seat saw; for `Bet` and `Raise` it may return another amount within
the view's `bet_range`. It imports the engine's values (cards, points, actions, views, rules),
never the `Hand`. Decisions are plain
synchronous code (the table service runs them off the event loop), deterministic given the seed.

Modules: `base` (interface, RandomPlayer), `levels` (LEVELS, make_player), `knowledge` (what
a view tells: own cards, unseen cards, shown cards), `estimate` (Monte Carlo odds of a point,
expected gain of a bet), `shedding` (a fast model of the stoppa on rank counts), `search`
(stoppa opening search), `strategy` (the thinking player and its `Style`), `easy`, `hard`,
`match` (offline games and duplicate duels, used by the demo and the strength benchmark).
"""

from __future__ import annotations

from bot.engine.actions import Action
from bot.players.base import CpuPlayer, RandomPlayer
from bot.players.levels import LEVELS, make_player

__all__ = ["LEVELS", "Action", "CpuPlayer", "RandomPlayer", "make_player"]
