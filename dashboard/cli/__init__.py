"""The ``chuanma`` command line, the top layer: one typer app, one module per command group
(hand, audit, simulate, warehouse, night, season, roster, serve, access). Each command imports its layer lazily so that a
quick call such as ``chuanma hand`` starts in well under a second."""

from __future__ import annotations

import os

import typer

from dashboard.cli.access import access_app
from dashboard.cli.audit import replay, validate
from dashboard.cli.backup import warehouse_backup, warehouse_restore
from dashboard.cli.hand import hand
from dashboard.cli.night import night
from dashboard.cli.review import review
from dashboard.cli.roster import roster_app
from dashboard.cli.season import season_app
from dashboard.cli.serve import dashboard, serve
from dashboard.cli.simulate import simulate
from dashboard.cli.warehouse import ingest, stats, warehouse_app

app = typer.Typer(
    help="chuanma: replay, audit and statistics for Sichuan mahjong (四川麻将, 血战到底) logs.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)


@app.callback()
def root() -> None:
    """chuanma: replay, audit and statistics for Sichuan mahjong (四川麻将, 血战到底) logs."""


# the order of ``chuanma --help``
for command in (hand, validate, replay, review, simulate, ingest, stats, night, dashboard, serve):
    app.command()(command)
warehouse_app.command("backup")(warehouse_backup)
warehouse_app.command("restore")(warehouse_restore)
app.add_typer(warehouse_app, name="warehouse")
app.add_typer(season_app, name="season")
app.add_typer(roster_app, name="roster")
app.add_typer(access_app, name="access")


def main() -> None:
    # numpy's OpenBLAS starts a thread per core at import and they spin a while, CPU spent in
    # every process for matrix routines no command calls (ingest's workers inherit it)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    app()
