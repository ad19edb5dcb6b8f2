"""Each metrics test counts from zero and leaves recording off, as the bot starts."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import bot.metrics as metrics


@pytest.fixture(autouse=True)
def recording_off() -> Iterator[None]:
    metrics.disable()
    yield
    metrics.disable()
