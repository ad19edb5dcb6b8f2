"""People at a table: members who play only through what the bot has shown them.

`Person` (in `person.py`) reads the components of the messages its member can see (the public
table message, the member's own ephemeral replies), picks its own move with a seeded RNG and
clicks, at a human pace in the loop's time. `Watch` (in `watch.py`) stands between the bot and
the fake Discord: interaction tokens expire after 15 minutes as Discord's do, and every request
is counted for `bench/bench_play.py`.
"""

from __future__ import annotations

from tests.people.person import Decision, Person
from tests.people.watch import TOKEN_LIFE, Watch

__all__ = ["TOKEN_LIFE", "Decision", "Person", "Watch"]
