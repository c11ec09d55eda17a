"""The compiled build (``make compile``), seen from Python: which modules it compiles,
whether a build is stale, and the switch that runs the pure-Python modules instead.

A compiled module (``deal.cpython-311-*.so``) shadows its ``.py`` file, so an edit after
the build would silently not run. Nothing here runs when the engine is imported (no file
is looked at then): ``make`` rebuilds before every target that runs code, and the check
runs on demand, at the start of a test run (``tests/conftest.py``) or as
``python -m engine.mypyc_build``. ``CHUANMA_PURE=1`` makes ``engine`` and ``ingest``
import their ``.py`` files even where a build exists (``make test-pure``).

This module is never compiled itself, and imports nothing from the engine.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).parent.parent  # the repository (no resolve(): it would stat)
#: the list of compiled modules, one path from the repository root a line (the Makefile reads it too)
MODULE_LIST = ROOT / "compiled-modules.txt"
PURE_ENV = "CHUANMA_PURE"  # set and not 0: engine/__init__.py calls prefer_sources()
PACKAGES = ("engine", "ingest")
#: the Python source of the C extensions' generated header (``build/move_codes.h``)
MOVE_CODES = "engine/move_codes.py"


def pure_requested() -> bool:
    """Whether ``CHUANMA_PURE`` asks for the pure-Python modules (as engine/__init__.py reads it)."""
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def compiled_modules(listing: Path = MODULE_LIST) -> list[str]:
    """The modules ``make compile`` builds (``#`` starts a comment)."""
    names = []
    for line in listing.read_text(encoding="utf-8").splitlines():
        name = line.partition("#")[0].strip()
        if name:
            names.append(name)
    return names


def c_sources(root: Path = ROOT) -> list[str]:
    """The C extensions ``make compile`` builds beside the mypyc modules (``ingest/logs/_lines.c``)."""
    return sorted(
        str(path.relative_to(root)) for package in PACKAGES for path in (root / package).glob("**/*.c")
    )


def c_extension(name: str) -> ModuleType | None:
    """A C extension ``make compile`` built (``"ingest.logs._lines"``), or None where it is not
    built or ``CHUANMA_PURE`` asks for the Python code (each has a Python twin)."""
    if pure_requested():
        return None
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def built_files(source: Path) -> list[Path]:
    """The compiled modules built from ``source`` (``deal.py`` -> ``deal.cpython-311-*.so``)."""
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    return [p for p in source.parent.glob(source.stem + ".*") if any(p.name.endswith(s) for s in suffixes)]


def stale_builds(root: Path = ROOT, modules: Sequence[str] | None = None) -> list[str]:
    """One line per compiled module or C extension older than its source (empty: the
    build is fresh, or there is none)."""
    stale = []
    if modules is None:
        modules = compiled_modules(root / MODULE_LIST.name) + c_sources(root)
    for name in modules:
        source = root / name
        codes = root / MOVE_CODES  # a C extension's codes: the header generated from it
        for built in built_files(source):
            if source.stat().st_mtime > built.stat().st_mtime:
                stale.append(f"{name} changed after it was compiled to {built.name}")
            elif name.endswith(".c") and codes.is_file() and codes.stat().st_mtime > built.stat().st_mtime:
                stale.append(f"{MOVE_CODES} changed after {name} was compiled to {built.name}")
    return stale


STALE_ADVICE = "run `make compile` to rebuild, or `make clean-compiled` to run the pure-Python code"


class _SourcesFirst(importlib.abc.MetaPathFinder):
    """Finds the modules of :data:`PACKAGES` as ``.py`` files, ahead of the path finder
    that would prefer a compiled module beside them."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if path is None or fullname.partition(".")[0] not in PACKAGES:
            return None
        stem = fullname.rpartition(".")[2]
        for folder in path:
            source = Path(folder) / f"{stem}.py"
            if source.is_file():
                return importlib.util.spec_from_file_location(fullname, source)
        return None


def prefer_sources() -> None:
    """Import the packages' modules from their ``.py`` files from now on (idempotent)."""
    if not any(isinstance(finder, _SourcesFirst) for finder in sys.meta_path):
        sys.meta_path.insert(0, _SourcesFirst())


def main() -> int:
    """``python -m engine.mypyc_build``: exit 1 and say so when the build is stale."""
    stale = stale_builds()
    for line in stale:
        print(line, file=sys.stderr)
    if stale:
        print(STALE_ADVICE, file=sys.stderr)
        return 1
    print(f"the compiled build is fresh ({len(compiled_modules())} modules listed in {MODULE_LIST.name})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
