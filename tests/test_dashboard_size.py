"""The dashboard and the command line stay readable: no module over
~500 lines (the label table of ``i18n.py`` aside: it is data) and no function over ~80,
so a newcomer reads one job at a time."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

DASHBOARD = Path(__file__).resolve().parent.parent / "dashboard"
MODULES = sorted(DASHBOARD.rglob("*.py"))
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 80
TABLES = {"i18n.py"}  # every label in 中文 and English: a table, not logic


def test_the_dashboard_has_modules_to_check() -> None:
    names = {p.relative_to(DASHBOARD).as_posix() for p in MODULES}
    assert {"cli/__init__.py", "app.py", "app_pages/replay.py", "cached_queries.py"} <= names


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(DASHBOARD).as_posix())
def test_module_and_its_functions_are_short(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    if path.name not in TABLES:
        assert len(text.splitlines()) <= MAX_MODULE_LINES, f"{path.name}: split it by job"
    long = [
        f"{node.name} ({node.end_lineno - node.lineno + 1} lines, line {node.lineno})"
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES
    ]
    assert not long, f"{path.name}: split into named steps: {long}"
