"""Who asked not to be pinged on their turn, per server, kept in memory (`client.pings`).

The table publisher asks on every ping and `/pings` answers at once, so neither may wait for
the store: the client loads a server's opt-outs when the server becomes available (`load`),
`/pings` changes memory first (`set`) and then writes the store.
"""

from __future__ import annotations

import logging
from typing import Any

_log = logging.getLogger(__name__)


class PingOptOuts:
    """The members of each server who turned their turn pings off."""

    def __init__(self) -> None:
        self._off: dict[int, set[int]] = {}

    def opted_out(self, guild_id: int | None, user_id: int) -> bool:
        """Whether the member asked for no pings on this server (False when not loaded)."""
        return guild_id is not None and user_id in self._off.get(guild_id, ())

    def set(self, guild_id: int, user_id: int, on: bool) -> None:
        """Remember the member's choice (`/pings on|off`)."""
        off = self._off.setdefault(guild_id, set())
        if on:
            off.discard(user_id)
        else:
            off.add(user_id)

    async def load(self, store: Any, guild_id: int) -> None:
        """Read the server's opt-outs from the store and keep them."""
        try:
            stored = await store.pings_off(guild_id)
        except Exception:  # a broken store must not stop the server from loading: pings on
            _log.exception("could not read the ping opt-outs of guild %s", guild_id)
            return
        self._off[guild_id] = set(stored)
