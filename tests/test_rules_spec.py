"""The rules the code cites live in the repository: docs/rules-spec.md (issue 25).

A clone has no `../shared/RULES.md`, so the clauses (R-1 ... R-15), stakes and variants that
tests, docstrings and the README cite are written in `docs/rules-spec.md`. Where the project's
shared specification sits beside the clone (CI, the maintainers' machines), the two must name
the same clauses, stakes with the same defaults, and the same variants."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "docs" / "rules-spec.md"
CLAUSE = re.compile(r"^## (R-\d+)\b", re.MULTILINE)
CITED = re.compile(r"\bR-(\d+)\b")
#: a variant's name and value as the rules write them: `three_players=suit`
VARIANT = re.compile(r"`([a-z_]+)=([a-z_]+)`")
#: a row of the stakes table: | `ante` | ... | 60 |
STAKE_ROW = re.compile(r"^\| `([a-z_]+)` \|.*\| (\d+) \|$", re.MULTILINE)
#: the names of the values a variant takes, as listed: `four_aces` (the default), `none`
VALUE = re.compile(r"`([a-z_]+)`")


def shared_rules() -> Path | None:
    """The project's shared RULES.md beside this clone (or a worktree's parent), if any."""
    for folder in ROOT.parents:
        candidate = folder / "shared" / "RULES.md"
        if candidate.is_file():
            return candidate
    return None


def clauses(text: str) -> list[str]:
    return CLAUSE.findall(text)


def cited_ids() -> set[str]:
    """Every R-n cited by the code, the tests and the docs."""
    out: set[str] = set()
    files = [*ROOT.glob("bot/**/*.py"), *ROOT.glob("cogs/**/*.py"), *ROOT.glob("tests/**/*.py"),
             *ROOT.glob("bot/i18n/locales/*/*.toml"), ROOT / "README.md",
             ROOT / "docs" / "rules.md"]
    for path in files:
        out |= {f"R-{n}" for n in CITED.findall(path.read_text(encoding="utf-8"))}
    return out


def test_the_spec_has_every_clause_in_order() -> None:
    assert clauses(SPEC.read_text(encoding="utf-8")) == [f"R-{n}" for n in range(1, 16)]


def test_every_cited_clause_is_in_the_spec() -> None:
    cited = cited_ids()
    assert "R-8" in cited and "R-12" in cited  # the scan sees the tests' citations
    assert cited <= set(clauses(SPEC.read_text(encoding="utf-8")))


def test_the_spec_holds_the_defaults_of_the_code() -> None:
    """Its stakes table is the engine's defaults, and every variant it names is the engine's."""
    from bot.engine import Rules

    text = SPEC.read_text(encoding="utf-8")
    stakes = dict(STAKE_ROW.findall(text))
    defaults = Rules(players=4).to_dict()
    assert stakes and {k: int(v) for k, v in stakes.items()} == {k: defaults[k] for k in stakes}
    for name, _value in VARIANT.findall(text):
        assert name in defaults, name


def test_nothing_sends_readers_outside_the_repository() -> None:
    for path in [ROOT / "README.md", *ROOT.glob("docs/*.md"), *ROOT.glob("bot/**/*.py"),
                 *ROOT.glob("cogs/**/*.py")]:
        assert "../shared" not in path.read_text(encoding="utf-8"), path


@pytest.mark.skipif(shared_rules() is None, reason="no shared RULES.md beside this clone "
                    "(a user's clone); CI and the maintainers' checkouts have it")
def test_the_spec_keeps_in_step_with_the_shared_rules() -> None:
    shared_path = shared_rules()
    assert shared_path is not None
    shared, ours = shared_path.read_text(encoding="utf-8"), SPEC.read_text(encoding="utf-8")
    assert clauses(ours) == clauses(shared)
    assert dict(STAKE_ROW.findall(ours)) == dict(STAKE_ROW.findall(shared))
    assert set(VARIANT.findall(ours)) == set(VARIANT.findall(shared))
    for ident in ("R-11", "R-12"):  # the named values of blocked_stoppa and the other lists
        values = set(VALUE.findall(_clause(ours, ident)))
        assert values == set(VALUE.findall(_clause(shared, ident))), ident


def _clause(text: str, ident: str) -> str:
    return text.split(f"## {ident} ", 1)[1].split("\n## ", 1)[0]
