"""`PracticeMeta`: what a practice table keeps in its meta (`TableMeta.practice`).

Its own module, apart from the practice policy (`bot.tables.policies.practice`), because the
meta parses it at load and the policy imports the meta: the value imports nothing of
`bot.tables`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any


@dataclass(frozen=True, slots=True)
class PracticeMeta:
    """What a practice table was opened with (its member, how many CPU opponents of which
    level, the stack every seat starts with) and each seat's practice chips between hands."""

    owner: int
    cpus: int
    level: str
    stack: int
    stacks: Mapping[int, int] = field(default_factory=dict)

    def with_stacks(self, stacks: Mapping[int, int]) -> PracticeMeta:
        """The same table with these practice chips."""
        return replace(self, stacks=dict(stacks))

    def to_dict(self) -> dict[str, Any]:
        """The JSON-able form (the meta's `practice`)."""
        return {"owner": self.owner, "cpus": self.cpus, "level": self.level,
                "stack": self.stack, "stacks": {str(u): c for u, c in self.stacks.items()}}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PracticeMeta:
        """The value of `to_dict` (after a JSON round trip)."""
        return cls(int(data["owner"]), int(data["cpus"]), str(data["level"]),
                   int(data["stack"]),
                   {int(u): int(c) for u, c in (data.get("stacks") or {}).items()})
