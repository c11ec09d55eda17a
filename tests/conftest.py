"""Before any test runs: refuse a stale compiled build, whose modules would shadow the
edited ``.py`` files (the on-demand check of tests/mypyc_build.py; importing the engine
looks at no file). Under ``CHUANMA_PURE=1`` the build is not used, so not checked."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from mypyc_build import STALE_ADVICE, compiled_modules, stale_builds

from engine.compiled import pure_requested

if TYPE_CHECKING:
    from analytics.queries import Analytics


def pytest_configure(config: pytest.Config) -> None:
    if pure_requested():
        return
    stale = stale_builds()
    if stale:
        raise pytest.UsageError("; ".join(stale) + f": {STALE_ADVICE}")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """``make test`` spreads the tests over the cores (pytest-xdist, ``--dist loadgroup``):
    the tests of a module that share a fixture built once per module (a warehouse, a corpus)
    go to one worker together, so it is built once, not once per worker; the others go one
    by one wherever a worker is free. Runs before xdist reads the groups (tryfirst)."""
    for item in items:
        if isinstance(item, pytest.Function) and _shares_a_module_fixture(item):
            item.add_marker(pytest.mark.xdist_group(item.module.__name__))


def _shares_a_module_fixture(item: pytest.Function) -> bool:
    """Whether the test uses a fixture kept beyond one test and built for its module: scoped
    to a class, module or package, or to the session but defined in a test module."""
    for definitions in item._fixtureinfo.name2fixturedefs.values():
        for definition in definitions:
            if definition.scope in ("class", "module", "package"):
                return True
            if definition.scope == "session" and definition.baseid.endswith(".py"):
                return True
    return False


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    terminalreporter.write_line(_which_code())


def _which_code() -> str:
    """Which code the run tested: a failed mypyc build leaves the pure-Python modules in
    charge without stopping ``make test``, so the summary says so (under -q too)."""
    if pure_requested():
        return "chuanma: pure-Python modules (CHUANMA_PURE=1)"
    modules = compiled_modules()
    files = [importlib.import_module(path.removesuffix(".py").replace("/", ".")).__file__ for path in modules]
    built = sum(1 for file in files if file is not None and not file.endswith(".py"))
    if built == len(modules):
        return f"chuanma: all {built} listed modules compiled with mypyc"
    return f"chuanma: {built} of {len(modules)} listed modules compiled (see build/mypyc.log)"


@pytest.fixture(autouse=True)
def dashboard_on_localhost() -> object:
    """AppTest pages run as ``chuanma dashboard`` serves them, on localhost, where the
    Upload page may ingest (beyond localhost it is read-only); tests of that rule set
    another address themselves."""
    from streamlit import config

    previous = config.get_option("server.address")
    config.set_option("server.address", "localhost")
    yield None
    config.set_option("server.address", previous)


@pytest.fixture(autouse=True)
def main_module_kept() -> Iterator[None]:
    """Streamlit's ``AppTest`` leaves the page it ran as ``__main__``; a process pool that a
    later test starts would then run that page in every worker (a spawned process first
    imports its parent's main script): streamlit, pandas and the page's queries."""
    main = sys.modules["__main__"]
    yield
    sys.modules["__main__"] = main


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Path:
    """A real warehouse of the sample club (``club_logs``: two clubs, several presets),
    one per test module that asks for it; modules with a warehouse of their own define
    their own fixture of this name."""
    from test_dashboard_apptest import club_logs

    from ingest.warehouse import ingest

    folder = tmp_path_factory.mktemp(request.module.__name__.rsplit(".", 1)[-1])
    ingest(club_logs(folder / "logs"), folder / "warehouse", workers=0)
    return folder / "warehouse"


@pytest.fixture(scope="module")
def api(warehouse: Path) -> Iterator[Analytics]:
    """The analytics API over :func:`warehouse`."""
    from analytics.queries import Analytics

    analytics = Analytics(warehouse)
    yield analytics
    analytics.close()
