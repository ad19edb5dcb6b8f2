"""`bench/paced_cpu.py` (CPU and garbage collections of bench_tables' paced actions) runs at a
tiny size and reports every action it was asked for and the collections of each phase."""

from __future__ import annotations

import asyncio
import importlib.util
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parents[1] / "bench" / "paced_cpu.py"


def test_paced_cpu_reports_the_actions_and_the_collections(
    capsys: pytest.CaptureFixture[str],
) -> None:
    spec = importlib.util.spec_from_file_location("paced_cpu", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    asyncio.run(module.measure(tables=3, warm=2, actions=40, profile=None))
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("paced actions 40: CPU ")
    assert "store hops 1." in lines[0]  # one transaction an action, a few more when dealing
    assert [line.split(":")[0].split()[-1] for line in lines[1:]] == ["open", "seq", "paced"]
