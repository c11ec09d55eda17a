"""Before any test runs: refuse a stale compiled build, whose modules would shadow the
edited ``.py`` files (the on-demand check of engine/mypyc_build.py; importing the engine
looks at no file). Under ``CHUANMA_PURE=1`` the build is not used, so not checked."""

from __future__ import annotations

import pytest

from engine.mypyc_build import STALE_ADVICE, pure_requested, stale_builds


def pytest_configure(config: pytest.Config) -> None:
    if pure_requested():
        return
    stale = stale_builds()
    if stale:
        raise pytest.UsageError("; ".join(stale) + f": {STALE_ADVICE}")


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
