"""The harness on either database: a SQLite file, or a fresh schema of the PostgreSQL server
named by `STOPPA_TEST_POSTGRES_URL` (skipped without it, as the store tests; failed under
`STOPPA_REQUIRE_POSTGRES=1`). What a person types must be treated alike on both."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from tests.harness.harness import Harness
from tests.store.conftest import postgres_schema

BACKENDS = ("sqlite", "postgresql")


@asynccontextmanager
async def harness_on(backend: str, tmp_path: Path, **options: Any) -> AsyncIterator[Harness]:
    """`Harness.create` on `backend` ("sqlite" or "postgresql")."""
    if backend == "sqlite":
        async with Harness.create(tmp_path, **options) as h:
            yield h
        return
    async with postgres_schema() as schema, Harness.create(
        tmp_path, database=schema.url, **options
    ) as h:
        yield h
