"""The compiled build (``make compile``), seen from Python: which modules it compiles and
whether a build is stale: a build tool, beside the tests that ask it, importing nothing of
chuanma.

A compiled module (``deal.cpython-311-*.so``) shadows its ``.py`` file, so an edit after
the build would silently not run. ``make`` rebuilds before every target that runs code,
and the check runs on demand: at the start of a test run (``tests/conftest.py``) or as
``python tests/mypyc_build.py``. Which code runs (the build or the ``.py`` files,
``CHUANMA_PURE=1``) is engine/compiled.py's.
"""

from __future__ import annotations

import importlib.machinery
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).parent.parent  # the repository (no resolve(): it would stat)
#: the list of compiled modules, one path from the repository root a line (the Makefile reads it too)
MODULE_LIST = ROOT / "compiled-modules.txt"
#: the Python source of the C extensions' generated header (``build/move_codes.h``)
MOVE_CODES = "engine/move_codes.py"
STALE_ADVICE = "run `make compile` to rebuild, or `make clean-compiled` to run the pure-Python code"


def compiled_modules(listing: Path = MODULE_LIST) -> list[str]:
    """The modules ``make compile`` builds (``#`` starts a comment)."""
    names = []
    for line in listing.read_text(encoding="utf-8").splitlines():
        name = line.partition("#")[0].strip()
        if name:
            names.append(name)
    return names


def c_sources(root: Path = ROOT) -> list[str]:
    """The C extensions ``make compile`` builds beside the mypyc modules
    (``ingest/logs/_lines.c``), in the packages that hold those."""
    packages = sorted({name.partition("/")[0] for name in compiled_modules(root / MODULE_LIST.name)})
    return sorted(
        str(path.relative_to(root)) for package in packages for path in (root / package).glob("**/*.c")
    )


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


def main() -> int:
    """``python tests/mypyc_build.py``: exit 1 and say so when the build is stale."""
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
