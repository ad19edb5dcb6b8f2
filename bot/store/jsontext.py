"""JSON text in columns (both databases store JSON as text)."""

from __future__ import annotations

import json
from typing import Any


def dumps(value: Any) -> str:
    """Compact JSON for a column."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def int_keys(text: str | None) -> dict[int, int]:
    """A JSON object {user: n} read back with integer keys."""
    return {int(k): int(v) for k, v in json.loads(text or "{}").items()}
