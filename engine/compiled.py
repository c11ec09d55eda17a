"""Which code runs: the hot modules compiled with mypyc (``make compile``) or their ``.py``
files, and a C extension or its Python twin.

A compiled module (``deal.cpython-311-*.so``) shadows its ``.py`` file. ``CHUANMA_PURE=1``
makes ``engine`` and ``ingest`` import their ``.py`` files even where a build exists
(``make test-pure``): engine/__init__.py applies it before any module of the engine loads.
Whether a build is stale is asked on demand (tests/mypyc_build.py, at the start of a test
run), never here: importing the engine looks at no file.

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

PURE_ENV = "CHUANMA_PURE"  # set and not 0: engine/__init__.py calls prefer_sources()
PACKAGES = ("engine", "ingest")


def pure_requested() -> bool:
    """Whether ``CHUANMA_PURE`` asks for the pure-Python modules (as engine/__init__.py reads it)."""
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def c_extension(name: str) -> ModuleType | None:
    """A C extension ``make compile`` built (``"ingest.logs._lines"``), or None where it is
    not built or ``CHUANMA_PURE`` asks for the Python code (each has a Python twin)."""
    if pure_requested():
        return None
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


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
