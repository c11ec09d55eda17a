"""The hot modules are compiled to C with mypyc (``make compile``); a compiled module
shadows its ``.py`` file, so an edit after the build would silently not run. This check
refuses such a stale build with a message that says what to do."""

from __future__ import annotations

from pathlib import Path

#: modules that ``make compile`` builds, as paths from the repository root
COMPILED_MODULES: tuple[str, ...] = (
    "engine/tiles.py",
    "engine/shapes.py",
    "engine/rules.py",
    "engine/fan.py",
    "engine/hand.py",
    "engine/settlement.py",
    "engine/settle.py",
    "engine/messages.py",
    "engine/state.py",
    "engine/claims.py",
    "engine/deal.py",
    "engine/report.py",
    "engine/checks.py",
    "engine/sheet.py",
    "engine/replay.py",
    "ingest/reader.py",
    "ingest/simulate.py",
    "ingest/validate.py",
    "ingest/writer.py",
    "ingest/facts.py",
)


class StaleBuildError(ImportError):
    """A compiled module is older than its source."""


def check_fresh(package_dir: Path) -> None:
    """Raise :class:`StaleBuildError` when a module of ``package_dir`` was edited after it
    was compiled (called by the package's ``__init__``)."""
    for source in package_dir.glob("*.py"):
        for built in package_dir.glob(source.stem + ".*.so"):
            if source.stat().st_mtime > built.stat().st_mtime:
                raise StaleBuildError(
                    f"{source} changed after it was compiled to {built.name}: run `make compile` "
                    f"to rebuild, or `make clean-compiled` to run the pure-Python code"
                )
