"""Our client is said once (issue 34): 13 `# type: ignore[override]  # our client is always a
StoppaBot` said the same thing; `bot.discord_utils.client_type.for_stoppa_bot` (and `guarded`,
typed through it) now says it, and mypy checks every override's body with `StoppaBot`."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_no_override_is_silenced() -> None:
    silenced = [
        f"{path.relative_to(ROOT)}:{n}"
        for folder in ("bot", "cogs")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "type: ignore[override]" in line
    ]
    assert silenced == []


def test_for_stoppa_bot_returns_the_method_itself() -> None:
    from bot.discord_utils import for_stoppa_bot

    async def method(self: object, interaction: object) -> None:
        return None

    assert for_stoppa_bot(method) is method  # type: ignore[arg-type]
