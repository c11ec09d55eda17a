"""The catalog (``catalog.json``): the batches a warehouse has recorded, the only files a
reader opens. Written atomically (temp file, fsync, ``os.replace``); what a reader needs
of it (:func:`read_catalog`, :func:`table_files`, :func:`catalog_version`) and the
warehouse's folder names live here.

Format 2 (this one): an entry lists its batch's ``parts`` and ``rows`` and the number of
source files it holds (``file_count``); the files themselves (name, sha256, status, ...)
are in the batch's own ``batch.json`` only (:func:`batch_files`). A save rewrites the
catalog, so the catalog must not grow with every file ever ingested: in format 1 each
entry carried its ``files`` (kept whole through merges), ~240 bytes a saved file, and a
save at 5,000 saves spent half its time encoding and syncing them. A format-1 catalog is
read as it is and written as format 2 by the next writer (:func:`write_catalog` first
makes sure each batch's ``batch.json`` holds the files it drops).
"""

from __future__ import annotations

import contextlib
import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.dataset as ds  # type: ignore[import-untyped]

DEFAULT_WAREHOUSE: Final = Path("data/warehouse")
CATALOG: Final = "catalog.json"
LOCK: Final = "ingest.lock"
STAGING: Final = "staging"
BATCHES: Final = "batches"
ORPHANS: Final = "orphans"
MANIFEST: Final = "batch.json"  # a batch's own catalog entry, written before its rename
FORMAT: Final = 2  # what is written; see the module docstring
READABLE: Final = (1, 2)  # format 1 entries carry their ``files`` inline


class WarehouseError(RuntimeError):
    """The warehouse cannot be used as asked (a usage error for the CLI)."""


def rebuild_hint(root: str | Path) -> str:
    return f"chuanma warehouse rebuild-catalog --warehouse {root}"


def read_catalog(root: str | Path) -> dict[str, Any]:
    """The catalog, or an empty one for a warehouse that has none yet; a catalog that
    cannot be read or makes no sense is a :class:`WarehouseError` naming the file."""
    path = Path(root) / CATALOG
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {"format": FORMAT, "batches": []}
    except (OSError, UnicodeDecodeError) as error:
        raise WarehouseError(f"{path}: cannot read the catalog ({why(error)})") from None
    try:
        catalog = json.loads(text)
    except ValueError as error:
        raise WarehouseError(
            f"{path}: the catalog is not valid JSON ({error}); nothing was changed. "
            f"Rebuild it from the batches with: {rebuild_hint(root)}"
        ) from None
    if not isinstance(catalog, dict):
        raise WarehouseError(
            f"{path}: the catalog is not a JSON object; rebuild it with: {rebuild_hint(root)}"
        )
    if catalog.get("format") not in READABLE:
        raise WarehouseError(
            f"{path}: catalog format {catalog.get('format')!r}, expected one of {', '.join(map(str, READABLE))}"
        )
    batches = catalog.setdefault("batches", [])
    if not isinstance(batches, list) or not all(entry_ok(batch) for batch in batches):
        raise WarehouseError(
            f"{path}: the catalog's batch list is damaged; rebuild it with: {rebuild_hint(root)}"
        )
    return catalog


def entry_ok(batch: Any) -> bool:
    """Whether a catalog entry (or a ``batch.json``) has the shape readers rely on."""
    return (
        isinstance(batch, dict)
        and isinstance(batch.get("id"), str)
        and isinstance(batch.get("parts", {}), dict)
        and all(isinstance(v, list) for v in batch.get("parts", {}).values())
    )


def why(error: BaseException) -> str:
    """An error in a few words for a message (an OSError's reason, not its repr)."""
    return (getattr(error, "strerror", None) or str(error)) if isinstance(error, OSError) else str(error)


def batch_folders(root: str | Path) -> list[Path]:
    """Every folder under ``batches/`` (listed or not), oldest first (ids begin with the time)."""
    folder = Path(root) / BATCHES
    try:
        return sorted(entry for entry in folder.iterdir() if entry.is_dir())
    except FileNotFoundError:
        return []
    except OSError as error:
        raise WarehouseError(f"{folder}: cannot list the batches ({why(error)})") from None


def read_manifest(folder: Path) -> dict[str, Any] | None:
    """A batch folder's own entry (``batch.json``), or None when it has no good one."""
    entry: Any = None
    with contextlib.suppress(OSError, ValueError):
        entry = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    return entry if entry_ok(entry) and entry.get("id") == folder.name else None


def replaced_ids(entries: list[dict[str, Any]], manifests: dict[str, dict[str, Any] | None]) -> set[str]:
    """The ids of the batches merged into ``entries``, and of those merged into them in
    turn (through the ``manifests`` of folders still present): copies of what they hold."""
    out: set[str] = set()
    todo = [name for entry in entries for name in entry.get("merged_from", [])]
    while todo:
        name = todo.pop()
        if name not in out:
            out.add(name)
            todo.extend((manifests.get(name) or {}).get("merged_from", []))
    return out


def _unlisted(root: str | Path, catalog: dict[str, Any]) -> tuple[list[Path], list[Path]]:
    """The batch folders the catalog does not list: (batches, copies a merge left). A copy
    is a folder merged into a listed batch (its id in a ``merged_from``: the merge was
    recorded, its sources not yet removed) or a merge never recorded (every batch it was
    made from is still listed)."""
    listed = {batch["id"] for batch in catalog.get("batches", [])}
    folders = [entry for entry in batch_folders(root) if entry.name not in listed]
    if not folders:
        return [], []
    manifests = {folder.name: read_manifest(folder) for folder in folders}
    replaced = replaced_ids(catalog.get("batches", []), manifests)
    batches: list[Path] = []
    copies: list[Path] = []
    for folder in folders:
        sources = (manifests[folder.name] or {}).get("merged_from") or []
        unrecorded_merge = bool(sources) and all(name in listed for name in sources)
        (copies if folder.name in replaced or unrecorded_merge else batches).append(folder)
    return batches, copies


def unlisted_batches(root: str | Path, catalog: dict[str, Any]) -> list[Path]:
    """Batch folders the catalog does not list, less the copies a merge left behind
    (:func:`merge_leftovers`): what a crash left unrecorded."""
    return _unlisted(root, catalog)[0]


def merge_leftovers(root: str | Path, catalog: dict[str, Any]) -> list[Path]:
    """Folders a merge left that only copy what a listed batch holds (see ``compact``):
    the next writer removes them; no reader opens them."""
    return _unlisted(root, catalog)[1]


def require_catalog(root: str | Path) -> dict[str, Any]:
    """The catalog of a warehouse about to be read or written; refuses (WarehouseError,
    nothing changed) when batches exist that the catalog does not list, e.g. a deleted or
    reset ``catalog.json``: reading or ingesting then would ignore or lose them."""
    catalog = read_catalog(root)
    unlisted = unlisted_batches(root, catalog)
    if unlisted and not (Path(root) / CATALOG).exists():
        raise WarehouseError(
            f"{Path(root) / CATALOG} is missing but {len(unlisted)} batch folder(s) exist under "
            f"{Path(root) / BATCHES}; nothing was changed. Rebuild the catalog with: {rebuild_hint(root)}"
        )
    return catalog


def catalog_version(catalog: dict[str, Any]) -> str:
    """Changes whenever a batch is recorded: a cache key for readers."""
    batches = catalog.get("batches", [])
    return f"{len(batches)}:{batches[-1]['id']}" if batches else "0:empty"


def table_files(root: str | Path, table: str, catalog: dict[str, Any] | None = None) -> list[str]:
    """The Parquet files of one table in every recorded batch (what readers may open)."""
    root = Path(root)
    catalog = catalog if catalog is not None else read_catalog(root)
    return [
        str(root / BATCHES / batch["id"] / part)
        for batch in catalog.get("batches", [])
        for part in batch.get("parts", {}).get(table, [])
    ]


def fsync_dir(path: Path) -> None:
    """Make a rename or a new file in ``path`` durable (best effort)."""
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def catalog_entry(entry: dict[str, Any]) -> dict[str, Any]:
    """A batch's entry as the catalog keeps it: without its ``files`` (in its
    ``batch.json``), with their number."""
    out = {key: value for key, value in entry.items() if key != "files"}
    if "files" in entry:
        out["file_count"] = len(entry["files"])
    return out


def batch_files(root: str | Path, entry: dict[str, Any]) -> list[dict[str, Any]]:
    """The source files a listed batch holds: inline in a format-1 entry, else from the
    batch's ``batch.json`` (one small read a batch; a merged batch's lists its sources')."""
    if "files" in entry:
        return list(entry["files"])
    manifest = read_manifest(Path(root) / BATCHES / entry["id"])
    return list((manifest or {}).get("files", []))


def write_manifest(folder: Path, entry: dict[str, Any]) -> None:
    """Write (or replace) a batch folder's ``batch.json`` atomically."""
    tmp = folder / f"{MANIFEST}.tmp-{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as out:
        out.write(json.dumps(entry, ensure_ascii=False))  # one line: the C encoder
        out.flush()
        os.fsync(out.fileno())
    os.replace(tmp, folder / MANIFEST)
    fsync_dir(folder)


def _move_files_out(root: Path, catalog: dict[str, Any]) -> None:
    """Before a catalog is written as format 2: every entry still carrying ``files`` (a
    format-1 catalog, a batch taken back from its Parquet files) has them written into its
    ``batch.json`` first when that does not hold them already, then drops them (in place)."""
    batches = catalog.get("batches", [])
    for index, entry in enumerate(batches):
        if "files" not in entry:
            continue
        folder = root / BATCHES / entry["id"]
        manifest = read_manifest(folder)
        if manifest is None or manifest.get("files") != entry["files"]:
            write_manifest(folder, {**(manifest or {}), **entry})
        batches[index] = catalog_entry(entry)


def write_catalog(root: Path, catalog: dict[str, Any]) -> None:
    """Replace the catalog atomically: a reader sees the old one or the new one, whole.
    Written as format 2: entries without their ``files`` (moved into ``batch.json``)."""
    _move_files_out(root, catalog)
    catalog["format"] = FORMAT
    tmp = root / f"{CATALOG}.tmp-{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as out:
        out.write(catalog_text(catalog))
        out.flush()
        os.fsync(out.fileno())
    os.replace(tmp, root / CATALOG)
    fsync_dir(root)


def catalog_text(catalog: dict[str, Any]) -> str:
    """The catalog as JSON, one batch a line: readable, and written by the C encoder
    (``indent`` takes Python's, far slower on a catalog of many saved files)."""
    head = {key: value for key, value in catalog.items() if key != "batches"}
    lines = [json.dumps(batch, ensure_ascii=False) for batch in catalog.get("batches", [])]
    opening = json.dumps(head, ensure_ascii=False)[:-1] + (", " if head else "")
    body = "[\n  " + ",\n  ".join(lines) + "\n]" if lines else "[]"
    return f'{opening}"batches": {body}}}\n'


def utc_now() -> str:
    """The time as the catalog and the lock record it."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def read_columns(files: list[str], columns: list[str]) -> pa.Table:
    """Some columns of recorded Parquet files (what ingest already holds)."""
    try:
        return ds.dataset(files, format="parquet").to_table(columns=columns)
    except (OSError, pa.ArrowException) as error:
        raise WarehouseError(
            f"a file of the warehouse cannot be read ({why(error)}); nothing was ingested. "
            f"See which with: chuanma warehouse check --warehouse {Path(files[0]).parents[4]}"
        ) from None
