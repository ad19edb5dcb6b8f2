"""CPU players: the interface, a random baseline, and the easy and hard levels (issue 8).

```python
from bot.players import CpuPlayer, RandomPlayer, make_player
player = make_player("hard", seed=7)
action = player.choose(hand.view(seat), hand.legal_actions())
```

A player sees only `hand.view(seat)` (a JSON-able dict) and the legal actions; for `Bet` and
`Raise` it may return another amount within the view's `betting.bet_range`. Decisions are plain
synchronous code (the table service runs them off the event loop), deterministic given the seed.

Modules: `base` (interface, RandomPlayer), `levels` (LEVELS, make_player), `knowledge` (what
a view tells: own cards, unseen cards, shown cards), `estimate` (Monte Carlo odds of a point,
expected gain of a bet), `shedding` (a fast model of the stoppa on rank counts), `search`
(stoppa opening search), `strategy` (the thinking player and its `Style`), `easy`, `hard`,
`match` (offline games and duplicate duels, used by the demo and the strength benchmark).
"""

from __future__ import annotations

from bot.players.base import Action, CpuPlayer, RandomPlayer
from bot.players.levels import LEVELS, make_player

__all__ = ["LEVELS", "Action", "CpuPlayer", "RandomPlayer", "make_player"]
