"""The ``chuanma`` command line, the top layer: one typer app, one module per command group
(hand, audit, simulate, warehouse, night, season, roster, serve, access). Each command imports its layer lazily so that a
quick call such as ``chuanma hand`` starts in well under a second.

The app is built for the command asked: ``chuanma validate ...`` imports and registers the
validate command alone (its help, options and errors are the same), not the nine other
modules and their typer signatures, which every run paid for before; ``chuanma``,
``chuanma --help`` or an unknown name get the whole app. ``app`` (tests, CliRunner) is the
whole app, built on first use."""

from __future__ import annotations

import importlib
import os
import sys
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    import typer

    app: typer.Typer  # built on first use: __getattr__ below

#: the top-level commands in the order of ``chuanma --help``: name -> (module, function)
COMMANDS: Final[dict[str, tuple[str, str]]] = {
    "hand": ("dashboard.cli.hand", "hand"),
    "validate": ("dashboard.cli.audit", "validate"),
    "replay": ("dashboard.cli.audit", "replay"),
    "review": ("dashboard.cli.review", "review"),
    "simulate": ("dashboard.cli.simulate", "simulate"),
    "ingest": ("dashboard.cli.warehouse", "ingest"),
    "stats": ("dashboard.cli.warehouse", "stats"),
    "night": ("dashboard.cli.night", "night"),
    "dashboard": ("dashboard.cli.serve", "dashboard"),
    "serve": ("dashboard.cli.serve", "serve"),
}
#: the command groups, after the commands: name -> (module, typer app)
GROUPS: Final[dict[str, tuple[str, str]]] = {
    "warehouse": ("dashboard.cli.warehouse", "warehouse_app"),
    "season": ("dashboard.cli.season", "season_app"),
    "roster": ("dashboard.cli.roster", "roster_app"),
    "access": ("dashboard.cli.access", "access_app"),
}


def root() -> None:
    """chuanma: replay, audit and statistics for Sichuan mahjong (四川麻将, 血战到底) logs."""


def _attr(place: tuple[str, str]) -> Any:
    module, name = place
    return getattr(importlib.import_module(module), name)


def build_app(only: str | None = None) -> typer.Typer:
    """The app with every command, or (``only``, a command or group name) with that one alone."""
    import typer

    app = typer.Typer(
        help="chuanma: replay, audit and statistics for Sichuan mahjong (四川麻将, 血战到底) logs.",
        no_args_is_help=True,
        add_completion=False,
        rich_markup_mode=None,
        pretty_exceptions_enable=False,
    )
    app.callback()(root)  # a group even with one command: ``chuanma validate ...`` as always
    for name, place in COMMANDS.items():
        if only is None or only == name:
            app.command()(_attr(place))
    for name, place in GROUPS.items():
        if only is None or only == name:
            group: typer.Typer = _attr(place)
            if name == "warehouse":
                from dashboard.cli.backup import warehouse_backup, warehouse_restore

                if not any(info.name == "backup" for info in group.registered_commands):
                    group.command("backup")(warehouse_backup)
                    group.command("restore")(warehouse_restore)
            app.add_typer(group, name=name)
    return app


def __getattr__(name: str) -> object:
    """``app``: the whole app, built once on first use (``from dashboard.cli import app``)."""
    if name == "app":
        app = build_app()
        globals()["app"] = app
        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> None:
    # numpy's OpenBLAS starts a thread per core at import and they spin a while, CPU spent in
    # every process for matrix routines no command calls (ingest's workers inherit it)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    asked = sys.argv[1] if len(sys.argv) > 1 else None
    build_app(asked if asked in COMMANDS or asked in GROUPS else None)()
