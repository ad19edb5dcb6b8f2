"""The players package imports one way (base <- strategy <- easy/hard <- levels): no cycle."""

from __future__ import annotations

import ast
from pathlib import Path

PLAYERS_DIR = Path(__file__).resolve().parents[2] / "bot" / "players"


def _imports() -> dict[str, set[str]]:
    """Each module of the package -> the modules of the package it imports (anywhere in it)."""
    graph: dict[str, set[str]] = {}
    for path in PLAYERS_DIR.glob("*.py"):
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            module = node.module if isinstance(node, ast.ImportFrom) else None
            if module and module.startswith("bot.players."):
                found.add(module.rsplit(".", 1)[1])
        graph[path.stem] = found
    return graph


def test_no_module_of_the_players_package_imports_itself_back() -> None:
    graph = _imports()

    def reachable(start: str) -> set[str]:
        seen: set[str] = set()
        todo = list(graph.get(start, ()))
        while todo:
            module = todo.pop()
            if module not in seen:
                seen.add(module)
                todo.extend(graph.get(module, ()))
        return seen

    assert graph["levels"] >= {"easy", "hard", "base"}
    cycles = sorted(m for m in graph if m != "__init__" and m in reachable(m))
    assert cycles == []
