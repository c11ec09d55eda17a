"""``chuanma warehouse backup`` and ``restore``: a consistent copy of a warehouse taken
while it is in use (``ingest/warehouse/backup.py``), and putting one back."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Annotated

import typer

from dashboard.cli.options import DEFAULT_WAIT_S, WaitOption, WarehouseOption, echo_text, fail

JsonOption = Annotated[bool, typer.Option("--json", help="The result as one JSON object.")]


def warehouse_backup(
    dest: Annotated[Path, typer.Argument(help="A new (or empty) folder for the copy.")],
    warehouse: WarehouseOption = Path("data/warehouse"),
    as_json: JsonOption = False,
    wait: WaitOption = DEFAULT_WAIT_S,
) -> None:
    """Copy the warehouse to DEST as of one moment between writes: an ingest or a save under
    way is waited for, and the next one waits only while the snapshot is taken (hard links,
    milliseconds); the copy itself runs after. The marts file is left out (the next open
    builds it). Exit 0, or 2 when it cannot be made (DEST not empty, no warehouse, locked
    past --wait)."""
    from ingest.warehouse import WarehouseError
    from ingest.warehouse.backup import backup

    try:
        copied = backup(warehouse, dest, wait)
    except WarehouseError as error:
        raise fail(str(error)) from None
    except OSError as error:
        raise fail(f"{error.filename or dest}: {error.strerror or error}") from None
    if as_json:
        typer.echo(json.dumps({"warehouse": str(warehouse), "backup": str(dest), **asdict(copied)}))
    else:
        echo_text(f"{dest}: {copied.batches} batch(es), {copied.deals} deals, {copied.files} file(s), "
                  f"{copied.bytes / 1e6:.1f} MB copied from {warehouse}")  # fmt: skip


def warehouse_restore(
    source: Annotated[Path, typer.Argument(help="A folder made by chuanma warehouse backup.")],
    warehouse: WarehouseOption = Path("data/warehouse"),
    replace: Annotated[
        bool, typer.Option("--replace", help="Move a warehouse already there aside (never deleted).")
    ] = False,
    as_json: JsonOption = False,
    wait: WaitOption = DEFAULT_WAIT_S,
) -> None:
    """Put a backup back at --warehouse: every file of the backup is read whole first; a
    warehouse already there needs --replace and is moved aside to
    <name>.before-restore-<time>. Exit 0, or 2 when the backup is damaged or the target is
    taken."""
    from ingest.warehouse import WarehouseError
    from ingest.warehouse.backup import restore

    try:
        copied = restore(source, warehouse, wait, replace=replace)
    except WarehouseError as error:
        raise fail(str(error)) from None
    except OSError as error:
        raise fail(f"{error.filename or warehouse}: {error.strerror or error}") from None
    if as_json:
        typer.echo(json.dumps({"warehouse": str(warehouse), "backup": str(source), **asdict(copied)}))
        return
    echo_text(f"{warehouse}: restored from {source} ({copied.batches} batch(es), {copied.deals} deals)")
    if copied.moved_aside:
        echo_text(f"the warehouse that was there is now {copied.moved_aside}")
