"""What the service publishes: `TableState` snapshots, `Notice`s and `Update`s.

Everything here is plain data (no Discord types). User ids are ints; CPU seats have negative
ids. A `Notice` is a catalogue key plus params: the cog translates it per server with
`notice.text(lang, names)`, where `names` maps user ids to display names.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.i18n import t


@dataclass(frozen=True, slots=True)
class Notice:
    """A ready-to-translate message: `t(key, lang, **params)`.

    `users` names the params that hold a user id; `text()` replaces them by display names.
    """

    key: str
    params: dict[str, Any] = field(default_factory=dict)
    users: tuple[str, ...] = ()

    def text(self, lang: str = "en", names: Mapping[int, str] | None = None) -> str:
        """The message in `lang`, user ids replaced by `names` (or `<@id>` / "CPU n")."""
        params = dict(self.params)
        for name in self.users:
            params[name] = display_name(params[name], names)
        return t(self.key, lang, **params)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {"key": self.key, "params": dict(self.params), "users": list(self.users)}


def display_name(user: int, names: Mapping[int, str] | None = None) -> str:
    """A display name for `user`: from `names`, else a mention, else "CPU n" for CPU seats."""
    if names and user in names:
        return names[user]
    if user < 0:
        return f"CPU {(-user) % 10}"
    return f"<@{user}>"


@dataclass(frozen=True, slots=True)
class SeatState:
    """One seat of a table as everyone may see it.

    status: "seated" (no hand running), "playing", "waiting" (joined during a hand),
    "sitting_out" (could not pay the ante), "leaving" (removed at the end of the hand).
    """

    user_id: int
    cpu: str | None
    chips: int
    cards: int
    status: str
    seat: int | None = None  # engine seat in the current hand


@dataclass(frozen=True, slots=True)
class TableState:
    """The public snapshot of a table, published after every committed change.

    `turn` is the action counter to send back as `expected_turn` (with `hand_no` as
    `expected_hand`) so that a stale button or a double click is refused.
    `view` is the public part of the engine's `hand.view(...)` (no cards of anyone), or None
    between hands; `events` are the last public events (with "user" added to each).
    """

    table_id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    status: str
    seats: tuple[SeatState, ...]
    players: tuple[int, ...]
    dealer: int | None
    eldest: int | None
    hand_no: int
    turn: int
    phase: str | None
    deal_no: int | None
    to_act: int | None
    deadline: float | None
    pots: dict[str, Any] | None
    betting: dict[str, Any] | None
    declared: list[dict[str, Any]]
    stoppa: dict[str, Any] | None
    events: list[dict[str, Any]]
    view: dict[str, Any] | None
    stakes: dict[str, Any]
    carry: int
    round_called: bool

    def seat_of(self, user: int) -> SeatState | None:
        """The seat of `user`, if seated."""
        return next((s for s in self.seats if s.user_id == user), None)


@dataclass(frozen=True, slots=True)
class Update:
    """One committed change of a table, for the listeners (`service.subscribe`).

    kind: "opened", "joined", "cpu_added", "left", "kicked", "started", "action" (a human),
    "cpu" (a CPU seat), "timeout", "round_called", "hand_over", "lobby" (waiting for
    players), "closed".
    `events` are the public engine events of the change (dicts with "user" added);
    `to_act` is the user who must act next (None if nobody).
    """

    kind: str
    table_id: int
    guild_id: int
    channel_id: int
    state: TableState
    events: list[dict[str, Any]]
    notices: list[Notice]
    to_act: int | None
