"""Where the warehouse's code sits (docs/architecture.md, "How the code is laid out"):
``analytics/`` reads the store through its schema and catalog alone, and the package's
modules import each other, never their own face (``ingest/warehouse/__init__.py``), so no
import cycles."""

from __future__ import annotations

import ast
from pathlib import Path

import ingest.warehouse as face

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "ingest" / "warehouse"


def imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports (at any depth: lazy imports in functions count)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            found.add(node.module)
    return found


def test_analytics_imports_only_the_warehouse_schema_and_catalog() -> None:
    used = {
        module
        for path in sorted((ROOT / "analytics").rglob("*.py"))
        for module in imported_modules(path)
        if module.split(".")[0] == "ingest"
    }
    assert used == {"ingest.warehouse.schema", "ingest.warehouse.catalog"}


def test_the_modules_of_the_package_never_import_its_face() -> None:
    modules = sorted(p for p in PACKAGE.glob("*.py") if p.name != "__init__.py")
    assert len(modules) >= 9  # the scan sees the package
    offenders = [p.name for p in modules if "ingest.warehouse" in imported_modules(p)]
    assert offenders == []


def test_the_face_only_re_exports() -> None:
    """Every function and class the face names lives in one of the package's modules."""
    assert set(face._HOME) == set(face.__all__)  # each name imported on first use is listed
    named = [getattr(face, name) for name in face.__all__]
    homes = {item.__module__ for item in named if callable(item)}
    modules = {f"ingest.warehouse.{p.stem}" for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    assert homes <= modules
    assert {"ingest.warehouse.run", "ingest.warehouse.catalog", "ingest.warehouse.batches"} <= homes


def test_the_face_is_one_list() -> None:
    """``_FACE`` (what is imported on first use, and ``__all__``) is what the
    TYPE_CHECKING imports give mypy, module by module, each name re-exported as itself."""
    import ast

    tree = ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    guarded = next(n for n in tree.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING")
    typed: dict[str, set[str]] = {}
    for node in guarded.body:
        assert isinstance(node, ast.ImportFrom) and node.module is not None
        assert all(a.asname == a.name for a in node.names), ast.unparse(node)  # re-exported
        typed.setdefault(node.module.rpartition(".")[2], set()).update(a.name for a in node.names)
    assert typed == {module: set(names) for module, names in face._FACE.items()}
    assert sorted(face.__all__) == sorted(face._HOME)


def test_the_face_names_only_what_is_used() -> None:
    """Every name of the face is imported from it somewhere outside the package (the CLI,
    the dashboard, the benchmarks or the tests): a name nobody imports leaves it."""
    used: set[str] = set()
    for top in ("dashboard", "bench", "tests", "analytics", "engine", "ingest"):
        for path in sorted((ROOT / top).rglob("*.py")):
            if path.parent == PACKAGE:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            faces: set[str] = set()
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.module == "ingest.warehouse":
                    used.update(alias.name for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.module == "ingest":
                    faces.update(a.asname or a.name for a in node.names if a.name == "warehouse")
                elif isinstance(node, ast.Import):
                    faces.update(a.asname or a.name for a in node.names if a.name == "ingest.warehouse")
            for node in ast.walk(tree):
                if isinstance(node, ast.Attribute) and ast.unparse(node.value) in faces:
                    used.add(node.attr)
    assert set(face.__all__) - used == set()
