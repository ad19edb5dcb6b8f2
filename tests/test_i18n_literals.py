"""No user-facing literal strings in cogs/ or bot/render/ (issue: Italian and English everywhere).

Every text a Discord user sees must come from the catalogues. This test parses the source and
fails on string literals that look like prose (two or more words), and on literals given to the
keyword arguments that discord.py shows to users (label=, placeholder=, content=, title=...),
unless they are catalogue keys or identifiers. Docstrings, log calls and exception messages raised
for developers are allowed. A line may opt out with a trailing `# i18n: not user-facing`.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHECKED = [ROOT / "cogs", ROOT / "bot" / "render", ROOT / "bot" / "discord_utils"]
SHOWN_KWARGS = {
    "label", "placeholder", "content", "title", "description", "text", "footer", "name",
    "value", "default",
}
KEY = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z0-9_{}]+)+$")
IDENT = re.compile(r"^[A-Za-z0-9_:.\-/{}()?<>\\+*\[\]^$|#%=,;@!&~ ]*$")
PROSE = re.compile(r"[A-Za-zÀ-ÿ]{2,}[ ,.'’:!?-]+[A-Za-zÀ-ÿ]{2,}")
LOG_METHODS = {"debug", "info", "warning", "error", "exception", "critical", "log"}
OPT_OUT = "i18n: not user-facing"


def _files() -> list[Path]:
    out: list[Path] = []
    for folder in CHECKED:
        if folder.exists():
            out.extend(sorted(folder.rglob("*.py")))
    return out


class _Finder(ast.NodeVisitor):
    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.allowed: set[int] = set()  # ids of Constant nodes that are fine
        self.problems: list[tuple[int, str]] = []

    def _allow_subtree(self, node: ast.AST) -> None:
        for sub in ast.walk(node):
            self.allowed.add(id(sub))

    def visit_Module(self, node: ast.Module) -> None:
        self._allow_docstring(node)
        self.generic_visit(node)

    def _allow_docstring(self, node: ast.AST) -> None:
        body = getattr(node, "body", None)
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            self.allowed.add(id(body[0].value))

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._allow_docstring(node)
        self.generic_visit(node)

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._allow_docstring(node)
        self.generic_visit(node)

    def visit_Raise(self, node: ast.Raise) -> None:
        self._allow_subtree(node)

    def visit_Assert(self, node: ast.Assert) -> None:
        self._allow_subtree(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in LOG_METHODS:
            self._allow_subtree(node)
            return
        for kw in node.keywords:
            if kw.arg in SHOWN_KWARGS and isinstance(kw.value, ast.Constant):
                value = kw.value.value
                if isinstance(value, str) and value and not KEY.match(value):
                    shown = any(ch.isupper() for ch in value) or " " in value
                    if shown and id(kw.value) not in self.allowed:
                        self._report(kw.value, value)
                        self.allowed.add(id(kw.value))
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if id(node) in self.allowed or not isinstance(node.value, str):
            return
        value = node.value
        if KEY.match(value) or not PROSE.search(value):
            return
        self._report(node, value)

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        literal = "".join(
            part.value for part in node.values
            if isinstance(part, ast.Constant) and isinstance(part.value, str)
        )
        if id(node) not in self.allowed and PROSE.search(literal):
            self._report(node, literal)
        self._allow_subtree(node)

    def _report(self, node: ast.AST, value: str) -> None:
        line = getattr(node, "lineno", 0)
        if line and OPT_OUT in self.lines[line - 1]:
            return
        self.problems.append((line, value[:60]))


def find_literals(source: str) -> list[tuple[int, str]]:
    """The user-facing literals of one module's source, as (line, text)."""
    finder = _Finder(source.splitlines())
    finder.visit(ast.parse(source))
    return finder.problems


@pytest.mark.parametrize("path", _files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_user_facing_literals(path: Path) -> None:
    problems = find_literals(path.read_text(encoding="utf-8"))
    assert not problems, "user-facing text outside the catalogues:\n" + "\n".join(
        f"{path.relative_to(ROOT)}:{line}: {text!r}" for line, text in problems
    )


def test_the_checker_catches_literals() -> None:
    bad = (
        "import discord\n"
        "async def f(i):\n"
        "    await i.response.send_message('It is not your turn')\n"
        "    b = discord.ui.Button(label='Join')\n"
    )
    assert [line for line, _ in find_literals(bad)] == [3, 4]


def test_the_checker_allows_keys_logs_and_docstrings() -> None:
    good = (
        '"""A module docstring with words."""\n'
        "import logging\n"
        "log = logging.getLogger(__name__)\n"
        "def f(t, lang):\n"
        '    """Docstring here too."""\n'
        "    log.info('table opened in %s', 1)\n"
        "    b = dict(label=t('tables.join', lang), custom_id='stoppa:1:join')\n"
        "    raise ValueError('a developer message')\n"
    )
    assert find_literals(good) == []
