"""Smoke test of every benchmark: `run("small")` of each `bench/bench_*.py` gives positive figures.

This is also what `python -m bot bench` runs; it loads the files by path (bot.cli.bench).
"""

from __future__ import annotations

import math

import pytest

from bot.cli.bench import bench_files, load, run_all, table

FILES = bench_files()


def test_bench_folder_found() -> None:
    names = {p.stem for p in FILES}
    assert "bench_players" in names, names


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_small_run_gives_positive_numbers(path) -> None:
    figures = load(path).run("small")
    assert figures, f"{path.stem} returned no figures"
    for name, value in figures.items():
        assert isinstance(name, str) and name
        assert isinstance(value, int | float) and not isinstance(value, bool), name
        assert math.isfinite(value) and value > 0, f"{path.stem}.{name} = {value}"


def test_bench_table_skips_a_broken_file(tmp_path) -> None:
    broken = tmp_path / "bench_broken.py"
    broken.write_text("import no_such_module_here\n")
    empty = tmp_path / "bench_norun.py"
    empty.write_text("X = 1\n")
    good = tmp_path / "bench_tiny.py"
    good.write_text("def run(size='full'):\n    return {'answers_per_s': 42.0}\n")
    notes: list[str] = []
    results = run_all("small", [broken, empty, good], echo=notes.append)
    assert results == {"tiny": {"answers_per_s": 42.0}}
    assert any("skipped broken" in n for n in notes)
    assert any("skipped norun" in n for n in notes)
    assert "answers_per_s" in table(results) and "42.00" in table(results)
