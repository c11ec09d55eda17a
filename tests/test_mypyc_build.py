"""The compiled build's bookkeeping (tests/mypyc_build.py) and the switch to pure Python
(engine/compiled.py): the module list is data read
by both the Makefile and the code, importing the engine looks at no build, a stale build
is found on demand, and ``CHUANMA_PURE=1`` runs the ``.py`` files past a compiled one.

Each case runs in a copy of the engine package in a temporary folder, with a file that
poses as a compiled module (not a real one: importing it fails, which is the point)."""

from __future__ import annotations

import importlib.machinery
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from mypyc_build import MODULE_LIST, ROOT, compiled_modules, stale_builds

from engine.compiled import pure_requested

SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]  # e.g. .cpython-311-x86_64-linux-gnu.so


def copy_engine(tmp_path: Path) -> Path:
    shutil.copytree(
        ROOT / "engine", tmp_path / "engine", ignore=shutil.ignore_patterns("__pycache__", "*.so")
    )
    shutil.copy(MODULE_LIST, tmp_path / MODULE_LIST.name)
    return tmp_path


def fake_build(root: Path, module: str, *, older: bool) -> Path:
    """A 'compiled' ``module`` beside its source, older or newer than it."""
    source = root / module
    built = source.with_name(source.stem + SUFFIX)
    built.write_bytes(b"not a shared library")
    now = time.time()
    os.utime(built, (now - 100, now - 100) if older else (now + 100, now + 100))
    os.utime(source, (now, now))
    return built


def python(root: Path, code: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("CHUANMA_PURE", "PYTHONPATH")}
    return subprocess.run(
        [sys.executable, "-c", code], cwd=root, env={**clean, **env},
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


def test_the_list_is_data_the_makefile_reads_too() -> None:
    modules = compiled_modules()
    assert modules and len(set(modules)) == len(modules)
    for name in modules:
        assert (ROOT / name).is_file() and name.endswith(".py") and not name.endswith("__init__.py")
    assert "engine/compiled.py" not in modules  # the switch to pure Python stays pure
    if shutil.which("make") is None:
        pytest.skip("no make on this machine")
    shown = subprocess.run(
        ["make", "-s", "--no-print-directory", "--eval", "show-compiled: ; @echo $(COMPILED)", "show-compiled"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    assert shown.stdout.split() == modules


def test_importing_the_engine_ignores_a_stale_build(tmp_path: Path) -> None:
    root = copy_engine(tmp_path)
    fake_build(root, "engine/tiles.py", older=True)
    done = python(root, "import engine, sys; print(engine.__file__)")
    assert done.returncode == 0, done.stderr  # once: StaleBuildError at import
    assert Path(done.stdout.strip()).parent == root / "engine"


def test_a_stale_build_is_found_on_demand(tmp_path: Path) -> None:
    root = copy_engine(tmp_path)
    assert stale_builds(root) == []
    built = fake_build(root, "engine/deal.py", older=False)
    assert stale_builds(root) == []
    fake_build(root, "engine/deal.py", older=True)
    assert stale_builds(root) == [f"engine/deal.py changed after it was compiled to {built.name}"]
    (root / "tests").mkdir()
    shutil.copy(ROOT / "tests" / "mypyc_build.py", root / "tests")
    done = subprocess.run(
        [sys.executable, "tests/mypyc_build.py"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1
    assert "engine/deal.py changed after it was compiled" in done.stderr and "make compile" in done.stderr


def test_pure_mode_runs_the_sources_past_a_compiled_module(tmp_path: Path) -> None:
    root = copy_engine(tmp_path)
    fake_build(root, "engine/tiles.py", older=False)
    code = "import engine.tiles as t; print(t.__file__); print(t.tile_name(0))"
    compiled = python(root, code)
    assert compiled.returncode != 0  # the path finder takes the 'compiled' module first
    pure = python(root, code, CHUANMA_PURE="1")
    assert pure.returncode == 0, pure.stderr
    where, name = pure.stdout.split()
    assert Path(where) == root / "engine" / "tiles.py" and name == "1m"
    assert python(root, code, CHUANMA_PURE="0").returncode != 0


def test_a_pure_run_runs_the_sources() -> None:
    """``make test-pure`` checks itself: under CHUANMA_PURE=1 no compiled module loaded."""
    if not pure_requested():
        pytest.skip("not a CHUANMA_PURE=1 run")
    import engine.deal
    import ingest.replay.session_replay

    for module in (engine.deal, ingest.replay.session_replay):
        assert module.__file__ is not None and module.__file__.endswith(".py"), module.__file__
