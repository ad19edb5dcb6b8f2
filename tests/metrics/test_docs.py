"""docs/operators.md lists every metric the bot serves, and `.env.example` its two variables."""

from __future__ import annotations

from pathlib import Path

from dotenv import dotenv_values
from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families

import bot.metrics as metrics
from bot.client import create_bot
from bot.config import load_settings
from bot.metrics.server import BotCollector

ROOT = Path(__file__).resolve().parents[2]
OPERATORS = (ROOT / "docs" / "operators.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    start = OPERATORS.index(title)
    return OPERATORS[start:OPERATORS.index("\n## ", start)]


def test_every_metric_served_is_in_the_operators_list(tmp_path: Path) -> None:
    recorder = metrics.enable()
    recorder.register(BotCollector(create_bot(str(tmp_path / "x.db"), sync_commands=False)))
    text = generate_latest(recorder.registry).decode()
    families = {family.name for family in text_string_to_metric_families(text)}
    assert len(families) == 15
    listed = section("## Watching a running bot")
    for name in families:
        shown = name + "_total" if f"{name}_total" in text else name
        assert f"`{shown}" in listed, shown
    assert "scrape_configs:" in listed and "/readyz" in listed and "/livez" in listed


def test_env_example_documents_the_metrics_variables_and_leaves_them_off() -> None:
    values = dotenv_values(ROOT / ".env.example")
    assert "STOPPA_METRICS_PORT" in values and "STOPPA_METRICS_HOST" in values
    assert load_settings({k: v or "" for k, v in values.items()}).metrics is None
    for variable in ("STOPPA_METRICS_PORT", "STOPPA_METRICS_HOST"):
        assert f"| `{variable}` |" in OPERATORS
