"""What a crash leaves, found and put right, and the checks of what the catalog lists.

A batch renamed into ``batches/`` but not yet recorded is an unlisted folder no reader
opens: the next ingest (or ``chuanma warehouse rebuild-catalog``) takes it back into the
catalog from its ``batch.json`` or its Parquet files, or moves it to ``orphans/`` when it
cannot be read; no batch is ever deleted. ``staging/`` leftovers (never renamed, so never a
batch) are removed, and so are the copies a merge leaves (``compact.py``): the batches a
recorded merge replaced (their id in a listed batch's ``merged_from``) and a merge never
recorded (every batch it was made from still listed). Each holds only rows a listed batch
holds too. :func:`verify_parts` and :func:`require_readable` check that every listed file
opens (``chuanma warehouse check``, ``stats``); a file checked before and unchanged since
(same size, time and inode) is not opened again, so a small ingest does not read the
footer of every file of a big warehouse.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.parquet as pq  # type: ignore[import-untyped]

from ingest.warehouse.catalog import (
    BATCHES,
    CATALOG,
    FORMAT,
    MANIFEST,
    ORPHANS,
    STAGING,
    WarehouseError,
    entry_ok,
    merge_leftovers,
    read_catalog,
    read_columns,
    read_manifest,
    rebuild_hint,
    replaced_ids,
    require_catalog,
    table_files,
    unlisted_batches,
    why,
    write_catalog,
)
from ingest.warehouse.lock import IngestLock
from ingest.warehouse.schema import SCHEMAS


def verify_parts(root: str | Path, catalog: dict[str, Any], *, full: bool = False) -> list[str]:
    """Problems with the files the catalog lists, each naming its file: missing, not
    Parquet (truncated: no footer), fewer or more rows than recorded; ``full`` reads every
    row too (``chuanma warehouse check``)."""
    problems = []
    _load_footers(Path(root))
    read = len(_READ)
    for batch in catalog.get("batches", []):
        for table, parts in batch.get("parts", {}).items():
            rows = 0
            for part in parts:
                path = Path(root) / BATCHES / batch["id"] / part
                try:
                    rows += _rows_of(path, full)
                except FileNotFoundError:
                    problems.append(f"{path}: missing (listed in the catalog)")
                except (OSError, pa.ArrowException) as error:
                    problems.append(f"{path}: cannot be read as Parquet ({why(error)})")
            recorded = batch.get("rows", {}).get(table)
            if recorded is not None and rows != recorded and not problems:
                problems.append(
                    f"{Path(root) / BATCHES / batch['id'] / table}: {rows} rows, the catalog records {recorded}"
                )
    if len(_READ) != read and not full:
        _save_footers(Path(root), catalog)
    return problems


#: rows of each Parquet file read before, by (path, size, mtime, inode): a file changed
#: in any way (truncated, rewritten, replaced) has another key and is read again
_FOOTERS: dict[tuple[str, int, int, int], int] = {}
_FOOTERS_MAX = 200_000


#: the footers read, kept beside the catalog so the next command reads only new files
#: (a million deals are ~3,800 files: 2-3 s of footers at every ``chuanma stats``)
FOOTERS_FILE: Final = "footers.json"
_LOADED: set[Path] = set()
_READ: list[tuple[str, int, int, int]] = []  # the footers this process read (not loaded)


def _load_footers(root: Path) -> None:
    """The row counts a command before this one read (once per warehouse and process); a
    missing or unreadable file is no loss: the footers are read again."""
    if root in _LOADED:
        return
    _LOADED.add(root)
    try:
        entries = json.loads((root / FOOTERS_FILE).read_bytes())
        for name, size, mtime, inode, rows in entries:
            _FOOTERS[(str(root / name), int(size), int(mtime), int(inode))] = int(rows)
    except (OSError, ValueError, TypeError):
        return


def _save_footers(root: Path, catalog: dict[str, Any]) -> None:
    """Write the row counts of the files ``catalog`` lists (in place atomically; a
    warehouse that may not be written keeps none)."""
    listed = {
        str(root / BATCHES / batch["id"] / part)
        for batch in catalog.get("batches", [])
        for parts in batch.get("parts", {}).values()
        for part in parts
    }
    prefix = f"{root}{os.sep}"
    entries = [
        [path[len(prefix) :], size, mtime, inode, rows]
        for (path, size, mtime, inode), rows in _FOOTERS.items()
        if path in listed
    ]
    temporary = root / f"{FOOTERS_FILE}.{os.getpid()}"
    try:
        temporary.write_text(json.dumps(entries))
        os.replace(temporary, root / FOOTERS_FILE)
    except OSError:
        temporary.unlink(missing_ok=True)


def _rows_of(path: Path, full: bool) -> int:
    """A listed file's row count from its footer (every row read too when ``full``)."""
    stat = os.stat(path)
    key = (str(path), stat.st_size, stat.st_mtime_ns, stat.st_ino)
    rows = _FOOTERS.get(key)
    if rows is None or full:
        rows = pq.read_metadata(path).num_rows
        if full:
            pq.read_table(path)
        if len(_FOOTERS) >= _FOOTERS_MAX:
            _FOOTERS.clear()
            _READ.clear()
        _FOOTERS[key] = rows
        _READ.append(key)
    return rows


def require_readable(root: str | Path) -> dict[str, Any]:
    """:func:`require_catalog`, then every listed file opens: what ``stats`` checks first."""
    catalog = require_catalog(root)
    unlisted = unlisted_batches(root, catalog)
    if unlisted:
        raise WarehouseError(
            f"{Path(root) / CATALOG} does not list {len(unlisted)} batch folder(s) "
            f"({', '.join(p.name for p in unlisted[:3])}{', ...' if len(unlisted) > 3 else ''}); "
            f"take them back with: {rebuild_hint(root)}"
        )
    problems = verify_parts(root, catalog)
    if problems:
        raise WarehouseError(
            f"{problems[0]}"
            + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else "")
            + f"; see every problem with: chuanma warehouse check --warehouse {root}"
        )
    return catalog


def cleanup(root: Path, catalog: dict[str, Any]) -> list[str]:
    """Remove what a crashed ingest left that was never a batch: staging folders (a batch
    is complete only once renamed out of ``staging/``) and temporary catalogs. Batch
    folders are never deleted here (see :func:`recover`). Only called under the lock."""
    removed = []
    staging = root / STAGING
    if staging.is_dir():
        for entry in staging.iterdir():
            shutil.rmtree(entry, ignore_errors=True) if entry.is_dir() else entry.unlink(missing_ok=True)
            removed.append(str(entry))
    for entry in root.glob(f"{CATALOG}.tmp-*"):
        entry.unlink(missing_ok=True)
        removed.append(str(entry))
    for folder in merge_leftovers(root, catalog):
        removed.append(remove_copy(root, folder))
    return removed


def remove_copy(root: Path, folder: Path) -> str:
    """Remove a batch folder that only copies rows a listed batch holds (a merge's
    leftover): renamed into ``staging/`` first (one atomic step: a crash halfway through
    the removal leaves a staging leftover, never half a batch under ``batches/``)."""
    (root / STAGING).mkdir(exist_ok=True)
    target = root / STAGING / f"{folder.name}.merged-away"
    os.rename(folder, target)
    shutil.rmtree(target, ignore_errors=True)
    return str(folder)


@dataclass
class Recovery:
    """What :func:`recover` did with the batch folders the catalog did not list."""

    recovered: list[str] = field(default_factory=list)
    moved_aside: list[str] = field(default_factory=list)  # "path: why"
    removed_copies: list[str] = field(default_factory=list)  # a merge's leftovers


def describe_batch(folder: Path) -> dict[str, Any]:
    """A batch folder's catalog entry: its ``batch.json`` when it has a good one, else
    rebuilt from its Parquet files (their rows name their source file and its sha256).
    Raises WarehouseError when a file cannot be read."""
    entry: dict[str, Any] | None = None
    with contextlib.suppress(OSError, ValueError):
        entry = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    if not entry_ok(entry) or not isinstance(entry, dict) or entry.get("id") != folder.name:
        entry = _entry_from_parquet(folder)
    assert entry is not None
    problems = verify_parts(folder.parent.parent, {"batches": [entry]})
    if problems:
        raise WarehouseError("; ".join(problems))
    return entry


def _entry_from_parquet(folder: Path) -> dict[str, Any]:
    parts: dict[str, list[str]] = {}
    rows: dict[str, int] = {}
    sources: dict[tuple[str, str], int] = {}
    for path in sorted(folder.rglob("*.parquet")):
        relative = path.relative_to(folder).as_posix()
        table = relative.split("/", 1)[0]
        if table not in SCHEMAS:
            continue
        try:
            rows[table] = rows.get(table, 0) + pq.read_metadata(path).num_rows
            if table in ("deals", "sessions", "quarantine"):
                got = pq.read_table(path, columns=["file", "source_sha256"]).to_pylist()
        except (OSError, pa.ArrowException) as error:
            raise WarehouseError(f"{path}: cannot be read as Parquet ({why(error)})") from None
        parts.setdefault(table, []).append(relative)
        if table in ("deals", "sessions", "quarantine"):
            for row in got:
                if row["source_sha256"]:
                    key = (row["file"], row["source_sha256"])
                    sources[key] = sources.get(key, 0) + (table == "deals")
    if not parts:
        raise WarehouseError(f"{folder}: no Parquet files in this batch folder")
    created = datetime.fromtimestamp(folder.stat().st_mtime, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    files = [
        {"file": name, "sha256": sha, "bytes": 0, "status": "recovered", "deals": deals, "stray_lines": 0}
        for (name, sha), deals in sorted(sources.items())
    ]
    return {"id": folder.name, "created": created, "files": files, "rows": rows, "parts": parts}


def recover(root: Path, catalog: dict[str, Any], folders: Sequence[Path] | None = None) -> Recovery:
    """Take unlisted batch folders back into the catalog, oldest first; one that cannot be
    read is moved to ``orphans/`` (never deleted). Only called under the lock."""
    done = Recovery()
    known: set[str] | None = None
    folders = unlisted_batches(root, catalog) if folders is None else folders
    manifests = {folder.name: read_manifest(folder) for folder in folders}
    named = {name for entry in manifests.values() if entry for name in entry.get("merged_from", [])}
    # a merge's result before the batches it names, so that once it is listed they are
    # known as its copies (a catalog rebuilt while a merge's sources were still there)
    for folder in [f for f in folders if f.name not in named] + [f for f in folders if f.name in named]:
        if folder.name in replaced_ids(catalog["batches"], manifests):
            done.removed_copies.append(remove_copy(root, folder))
            continue
        try:
            entry = describe_batch(folder)
            if known is None:
                files = table_files(root, "deals", catalog)
                known = set(read_columns(files, ["deal_id"])["deal_id"].to_pylist()) if files else set()
            deals = [str(root / BATCHES / folder.name / part) for part in entry["parts"].get("deals", [])]
            ids = read_columns(deals, ["deal_id"])["deal_id"].to_pylist() if deals else []
            if known.intersection(ids):
                raise WarehouseError("it holds deals the catalog's batches already hold (a copy?)")
            known.update(ids)
        except WarehouseError as error:
            target = root / ORPHANS / folder.name
            target.parent.mkdir(exist_ok=True)
            os.rename(folder, target)
            done.moved_aside.append(f"{folder} -> {target}: {error}")
            continue
        catalog["batches"].append(entry)
        done.recovered.append(folder.name)
    if done.recovered or done.moved_aside:
        catalog["format"] = FORMAT
        write_catalog(root, catalog)
    return done


def rebuild_catalog(root: str | Path, wait: float | None = None) -> tuple[Recovery, str | None]:
    """``chuanma warehouse rebuild-catalog``: under the lock, keep a readable catalog's
    entries and add every unlisted batch; a damaged catalog is kept beside as
    ``catalog.json.damaged-<time>`` and the catalog rebuilt from all batch folders."""
    root = Path(root)
    kept: str | None = None
    with IngestLock(root, wait):
        try:
            catalog = read_catalog(root)
        except WarehouseError:
            kept = f"{CATALOG}.damaged-{datetime.now(UTC):%Y%m%dT%H%M%S}"
            os.replace(root / CATALOG, root / kept)
            catalog = {"format": FORMAT, "batches": []}
        leftovers = [remove_copy(root, folder) for folder in merge_leftovers(root, catalog)]
        done = recover(root, catalog)
        done.removed_copies[:0] = leftovers
        if not (root / CATALOG).exists():
            write_catalog(root, catalog)
    return done, kept
