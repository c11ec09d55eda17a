"""No module reaches into another's private names (the engine's classes are
split over state.py, claims.py and deal.py by inheritance; each may use only the private
names it defines itself): a ``self._x`` a module reads it also writes or defines, so does
an ``X._x`` (a class's or a module's), and no module imports another's ``_name``."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
MODULES = sorted(p for package in ("engine", "ingest") for p in (ROOT / package).rglob("*.py"))


def _private_self_names(tree: ast.AST) -> tuple[set[str], set[str]]:
    """(used, defined): ``self._x`` read anywhere; ``self._x`` assigned and ``def _x``."""
    used: set[str] = set()
    defined: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
            if node.attr.startswith("_") and not node.attr.startswith("__"):
                (defined if isinstance(node.ctx, ast.Store) else used).add(node.attr)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("_"):
            defined.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            defined.add(node.target.id)  # a class-level field
    return used, defined


def _foreign_dotted_names(tree: ast.AST) -> set[str]:
    """``X._x`` read where ``X`` is not ``self`` and the module neither defines nor assigns
    ``_x`` (``Deal._on_draw`` with ``_on_draw`` defined in another module)."""
    defined: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            defined.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            defined.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            defined.add(node.id)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            defined.add(node.target.id)
    return {
        f"{node.value.id}.{node.attr}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id != "self"
        and node.attr.startswith("_")
        and not node.attr.startswith("__")
        and node.attr not in defined
    }


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(ROOT)) for p in MODULES])
def test_a_module_uses_only_its_own_private_names(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    used, defined = _private_self_names(tree)
    assert not used - defined, f"{path.name} uses private names it does not define: {sorted(used - defined)}"
    dotted = _foreign_dotted_names(tree)
    assert not dotted, f"{path.name} reads private names another module defines: {sorted(dotted)}"
    foreign = [
        f"{node.module}.{alias.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        and node.module
        and node.module.split(".")[0] in ("engine", "ingest")
        for alias in node.names
        if alias.name.startswith("_") and not alias.name.startswith("__")
    ]
    assert not foreign, f"{path.name} imports another module's private names: {foreign}"
