"""A consistent copy of a warehouse while it is in use, and putting one back.

A backup is the warehouse as of one moment between writes: it takes the writers' lock (so
it waits for an ingest or a save under way to finish, and the next one waits for it), makes
a snapshot of every file by hard links inside the warehouse (milliseconds, whatever its
size), lets the lock go, and only then copies the snapshot to ``DEST``. Hard links are
safe here because no file of a warehouse is ever changed in place: batches are written
once, and the catalog, the roster, the seasons and the drafts are replaced whole (temp
file + ``os.replace``), which gives the warehouse a new file and leaves the snapshot's as
it was. Left out: the lock files, ``staging/`` (work of a writer that died) and the marts
file (``marts.duckdb``), which the next open builds again from the Parquet.

A restore checks the backup (every listed file read whole), copies it beside the target
and swaps it in under the target's lock; a warehouse already there is moved aside, never
deleted."""

from __future__ import annotations

import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from ingest.warehouse.catalog import CATALOG, LOCK, STAGING, WarehouseError, read_catalog
from ingest.warehouse.lock import IngestLock
from ingest.warehouse.recovery import verify_parts

#: names at the warehouse's top that a backup leaves out (rebuilt, or a dead writer's)
LEFT_OUT = frozenset({LOCK, STAGING, "marts.lock", "footers.json"})  # footers.json: read again


@dataclass(frozen=True)
class Copied:
    """What a backup or a restore copied: the catalog's batches and deals, the files, the
    bytes, and (for a restore) where the warehouse that was there went."""

    batches: int
    deals: int
    files: int
    bytes: int
    moved_aside: str | None = None


def left_out(relative: Path) -> bool:
    top = relative.parts[0]
    return top in LEFT_OUT or top.startswith("marts.duckdb") or relative.name.endswith(".part")


def _link_tree(source: Path, target: Path) -> None:
    """``target`` holding every file of ``source`` but the left-out ones, as hard links
    (a copy where the file system has none)."""
    for folder, _, names in os.walk(source):
        here = Path(folder)
        for name in names:
            relative = (here / name).relative_to(source)
            if left_out(relative) or relative.parts[0].startswith(".backup-"):
                continue
            (target / relative).parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(here / name, target / relative)
            except OSError:
                shutil.copy2(here / name, target / relative)


def _tree_size(root: Path) -> tuple[int, int]:
    files = [p for p in root.rglob("*") if p.is_file()]
    return len(files), sum(p.stat().st_size for p in files)


def _counted(root: Path, moved_aside: str | None = None) -> Copied:
    catalog = read_catalog(root)
    deals = sum(int(batch.get("rows", {}).get("deals", 0)) for batch in catalog["batches"])
    return Copied(len(catalog["batches"]), deals, *_tree_size(root), moved_aside=moved_aside)


def _empty_or_absent(path: Path) -> bool:
    return not path.exists() or (path.is_dir() and not any(path.iterdir()))


def backup(warehouse: Path, dest: Path, wait: float | None = None) -> Copied:
    """Copy ``warehouse`` to the new folder ``dest`` as of one moment between writes."""
    if not (warehouse / CATALOG).is_file():
        raise WarehouseError(f"{warehouse}: no warehouse here (no {CATALOG})")
    if not _empty_or_absent(dest):
        raise WarehouseError(f"{dest}: already exists and is not empty; give a new folder")
    snapshot = warehouse / f".backup-{os.getpid()}-{time.time_ns()}"
    partial = dest.with_name(f".{dest.name}.partial-{os.getpid()}")
    try:
        with IngestLock(warehouse, wait):
            _link_tree(warehouse, snapshot)
        shutil.copytree(snapshot, partial, dirs_exist_ok=True)
        if dest.exists():
            dest.rmdir()  # empty, checked above
        os.replace(partial, dest)
    finally:
        shutil.rmtree(snapshot, ignore_errors=True)
        shutil.rmtree(partial, ignore_errors=True)
    return _counted(dest)


def restore(source: Path, warehouse: Path, wait: float | None = None, *, replace: bool = False) -> Copied:
    """Put the backup ``source`` at ``warehouse``; a warehouse there needs ``replace`` and
    is moved aside (``<name>.before-restore-<time>``), not deleted."""
    if not (source / CATALOG).is_file():
        raise WarehouseError(f"{source}: not a backup (no {CATALOG})")
    problems = verify_parts(source, read_catalog(source), full=True)
    if problems:
        raise WarehouseError(f"{source}: the backup is damaged: {problems[0]}")
    present = not _empty_or_absent(warehouse)
    if present and not replace:
        raise WarehouseError(f"{warehouse}: a warehouse is already there; --replace moves it aside first")
    incoming = warehouse.with_name(f".{warehouse.name}.restoring-{os.getpid()}")
    shutil.copytree(source, incoming)
    aside: Path | None = None
    try:
        if present:
            aside = warehouse.with_name(f"{warehouse.name}.before-restore-{time.strftime('%Y%m%dT%H%M%S')}")
            with IngestLock(warehouse, wait):  # no writer is halfway when it goes
                os.replace(warehouse, aside)
        elif warehouse.exists():
            warehouse.rmdir()
        os.replace(incoming, warehouse)
    finally:
        shutil.rmtree(incoming, ignore_errors=True)
    return _counted(warehouse, str(aside) if aside is not None else None)
