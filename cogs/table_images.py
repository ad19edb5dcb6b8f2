"""The table image's snapshot from the service's typed `TableState` (what the publisher and
`/stoppa status` draw): the engine's spectator view during a hand, the seats between hands.

Only the table's own facts are added here: the names of the seats, which are CPU players and
which are away; every rule fact is the view's (`bot.render.from_view`).
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.render.from_view import lobby_snapshot, table_snapshot
from bot.render.snapshots import TableSnapshot
from bot.tables import TableState, display_name, is_cpu


def table_snapshot_of(
    state: TableState, names: Mapping[int, str], *, lang: str, title: str = ""
) -> TableSnapshot:
    """The snapshot to draw for `state`, the users named by `names` (else "CPU n"/mention)."""
    if state.view is not None and state.players:
        users = state.players  # engine seats during a hand
        away = {users.index(s.user_id) for s in state.seats if s.away and s.user_id in users}
        return table_snapshot(
            state.view, [names.get(u, display_name(u)) for u in users], lang=lang,
            hand_no=state.hand_no, title=title, cpu=[is_cpu(u) for u in users],
            events=state.hand_events, away=away,
        )
    users = tuple(s.user_id for s in state.seats)
    return lobby_snapshot(
        [names.get(u, display_name(u)) for u in users], [s.chips for s in state.seats],
        lang=lang, hand_no=state.hand_no, title=title, cpu=[is_cpu(u) for u in users],
    )
