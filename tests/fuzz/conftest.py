"""The fuzz tests share one running bot per module (`World`): building it takes a second,
an example a few milliseconds."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.fuzz.world import World

#: Examples per fuzz test: small in CI (seconds), larger by hand:
#: `STOPPA_FUZZ_EXAMPLES=3000 .venv/bin/python -m pytest tests/fuzz`.
EXAMPLES = int(os.environ.get("STOPPA_FUZZ_EXAMPLES", "150"))


@pytest.fixture(scope="package")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """One bot with a table in play, finished hands and an open tournament."""
    built = World.build(tmp_path_factory.mktemp("fuzz"))
    try:
        yield built
        # the oracle saw refusals (a fuzz that only reached accepted paths checks little)
        if built.refusable >= 50:
            assert built.refusals > built.refusable // 10, (built.refusals, built.refusable)
    finally:
        built.close()
