"""The shard settings and the cluster command are documented (issue 17, traffic)."""

from __future__ import annotations

from pathlib import Path

from dotenv import dotenv_values

from bot.config import load_settings

ROOT = Path(__file__).resolve().parents[2]


def test_env_example_lists_the_shard_settings_and_they_load_empty() -> None:
    values = dotenv_values(ROOT / ".env.example")
    assert "STOPPA_SHARD_COUNT" in values and "STOPPA_SHARD_IDS" in values
    settings = load_settings({k: v or "" for k, v in values.items()})
    assert settings.shard_count is None and settings.shard_ids is None


def test_the_operators_page_says_when_a_cluster_is_needed() -> None:
    readme = (ROOT / "docs" / "operators.md").read_text(encoding="utf-8")
    for text in ("## Running a cluster", "2,500 servers", "python -m bot cluster --processes",
                 "| `STOPPA_SHARD_COUNT` |", "| `STOPPA_SHARD_IDS` |", "(server id >> 22)"):
        assert text in readme
