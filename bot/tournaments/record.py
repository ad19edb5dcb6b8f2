"""`TournamentRecord`: what is stored of a tournament besides the store's own columns.

One JSON document, kept in the tournament's row (`TournamentRow.state`) and, once it runs, in
its table's meta too (`TableMeta.tournament`: a `TableTournament`, with the tournament's id),
written in the same transaction as every hand: the `TournamentState`, who opened it and each
CPU entrant's level.
`info` turns it and the row's columns into the `TournamentInfo` the Discord side reads.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bot.tournaments.info import Entrant, Place, TournamentInfo
from bot.tournaments.state import Phase, TournamentState, payouts, stakes_for

#: the store's status of a tournament row -> the phase people see
STATUSES: dict[str, Phase] = {
    "open": Phase.REGISTERING,
    "running": Phase.RUNNING,
    "finished": Phase.FINISHED,
    "cancelled": Phase.CANCELLED,
}


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    """The state of a tournament, its opener and its CPU entrants' levels (user id -> level)."""

    state: TournamentState
    opened_by: int | None = None
    cpus: Mapping[int, str] = field(default_factory=dict)

    def with_state(self, state: TournamentState) -> TournamentRecord:
        """The same record with a new state."""
        return replace(self, state=state)

    def with_cpu(self, user: int, level: str) -> TournamentRecord:
        """The record with one more CPU entrant."""
        return replace(self, cpus={**self.cpus, user: level})

    def to_dict(self) -> dict[str, Any]:
        """JSON-able fields."""
        return {
            "state": self.state.to_dict(),
            "opened_by": self.opened_by,
            "cpus": {str(u): level for u, level in self.cpus.items()},
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> TournamentRecord:
        """The record of `to_dict`."""
        opened_by = d.get("opened_by")
        return cls(
            TournamentState.from_dict(d["state"]),
            None if opened_by is None else int(opened_by),
            {int(u): str(level) for u, level in (d.get("cpus") or {}).items()},
        )

    def to_json(self) -> str:
        """The JSON text stored in the tournament's row."""
        return json.dumps(self.to_dict(), separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> TournamentRecord:
        """The record of `to_json`."""
        return cls.from_dict(json.loads(text))

    def info(
        self,
        *,
        tournament_id: int,
        guild: int,
        channel: int,
        status: str,
        entrants: Sequence[int],
        table_id: int | None,
        pool: int | None = None,
    ) -> TournamentInfo:
        """What the Discord side sees. `status` is the row's ("open", "running", ...);
        `entrants` the registered user ids (used while registering: a running tournament
        seats its state's players); `pool` the escrowed chips (None: the state's pool)."""
        state = self.state
        phase = STATUSES.get(status, Phase.CANCELLED)
        if phase is Phase.RUNNING and state.phase is Phase.FINISHED:
            phase = Phase.FINISHED  # the last hand is played; the pool is being paid
        seated = [int(p) for p in state.players] if state.players else list(entrants)
        k = state.config.schedule.hands_per_level
        paid = payouts(state) if state.phase is Phase.FINISHED else {}
        return TournamentInfo(
            id=tournament_id,
            guild_id=guild,
            channel_id=channel,
            status=phase,
            config=state.config,
            entrants=tuple(Entrant(u, self.cpus.get(u)) for u in seated),
            prize_pool=(
                pool if pool is not None and phase is not Phase.FINISHED
                else state.config.buy_in * len(seated)
            ),
            level=state.level + 1,
            stakes=stakes_for(state),
            hands_played=state.hands_played,
            hands_to_next_level=k - state.hands_played % k,
            stacks={int(p): s for p, s in zip(state.players, state.stacks, strict=False)},
            places=tuple(
                Place(int(p.player), p.place, p.hand)
                for p in sorted(state.places, key=lambda p: p.place)
            ),
            payouts={int(p): v for p, v in paid.items()},
            table_id=table_id,
            opened_by=self.opened_by,
        )


@dataclass(frozen=True, slots=True)
class TableTournament:
    """The tournament a table plays, as its meta keeps it (`TableMeta.tournament`): the
    tournament's id, its record, and whether it was cancelled (what a closed table shows).
    Parsed once when the meta is loaded; a change is a new value (`with_record`)."""

    id: int
    record: TournamentRecord
    cancelled: bool = False

    def with_record(self, record: TournamentRecord) -> TableTournament:
        """The same tournament with a new record."""
        return replace(self, record=record)

    def to_dict(self) -> dict[str, Any]:
        """The JSON-able form: the id beside the record's fields, and "status": "cancelled"
        once cancelled (the form tables have always stored)."""
        cancelled = {"status": "cancelled"} if self.cancelled else {}
        return {"id": self.id, **self.record.to_dict(), **cancelled}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableTournament:
        """The value of `to_dict` (after a JSON round trip)."""
        return cls(int(data["id"]), TournamentRecord.from_dict(data),
                   data.get("status") == "cancelled")
