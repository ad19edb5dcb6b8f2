"""`python -m bot bench`: every benchmark of `bench/` at its small size, in one table.

Each `bench/bench_<area>.py` has `run(size: str = "full") -> dict[str, float]`. The files are
loaded by path (from the repository next to the `bot` package, or from the current directory),
so this works whether or not `bench` is importable; a file that fails to import or to run is
skipped with a note.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import bot

SIZE = "small"


def bench_dir() -> Path | None:
    """The `bench/` folder: beside the `bot` package, else in the current directory."""
    for candidate in (Path(bot.__file__).resolve().parents[1] / "bench", Path.cwd() / "bench"):
        if candidate.is_dir():
            return candidate
    return None


def bench_files(folder: Path | None = None) -> list[Path]:
    """Every `bench_*.py` of the bench folder, sorted."""
    folder = folder or bench_dir()
    return sorted(folder.glob("bench_*.py")) if folder else []


def load(path: Path) -> ModuleType:
    """Import a benchmark file by path (as `bench.<stem>`)."""
    name = f"bench.{path.stem}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def run_all(
    size: str = SIZE, files: list[Path] | None = None, echo: Callable[..., None] = print
) -> dict[str, dict[str, float]]:
    """Run every benchmark at `size`; returns {area: figures}; failures are echoed, skipped."""
    results: dict[str, dict[str, float]] = {}
    for path in files if files is not None else bench_files():
        area = path.stem.removeprefix("bench_")
        try:
            module = load(path)
        except Exception as exc:
            echo(f"# skipped {area}: import failed: {type(exc).__name__}: {exc}")
            continue
        run = getattr(module, "run", None)
        if not callable(run):
            echo(f"# skipped {area}: no run(size) function")
            continue
        start = time.perf_counter()
        try:
            figures = run(size)
        except Exception as exc:
            echo(f"# skipped {area}: run failed: {type(exc).__name__}: {exc}")
            echo("".join(traceback.format_exception_only(exc)).rstrip())
            continue
        results[area] = {k: float(v) for k, v in figures.items()}
        echo(f"# {area}: {time.perf_counter() - start:.1f} s")
    return results


def table(results: dict[str, dict[str, float]]) -> str:
    """One text table: area, figure, value."""
    rows = [
        (area, name, value) for area, figures in results.items() for name, value in figures.items()
    ]
    if not rows:
        return ""
    w_area = max(len("area"), *(len(r[0]) for r in rows))
    w_name = max(len("figure"), *(len(r[1]) for r in rows))
    lines = [f"{'area':<{w_area}}  {'figure':<{w_name}}  {'value':>14}"]
    lines.append("-" * len(lines[0]))
    for area, name, value in rows:
        digits = 4 if abs(value) < 1 else 2
        shown = f"{value:14.{digits}f}" if math.isfinite(value) else f"{value:>14}"
        lines.append(f"{area:<{w_area}}  {name:<{w_name}}  {shown}")
    return "\n".join(lines)


def run_bench(args: argparse.Namespace) -> int:
    """Entry point of `python -m bot bench`: 0 if every benchmark ran, 1 if one failed."""
    files = bench_files()
    results = run_all(SIZE, files)
    print(table(results))
    return 0 if len(results) == len(files) else 1
