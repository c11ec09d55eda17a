"""The catalog (``catalog.json``): the batches a warehouse has recorded, the only files a
reader opens. Written atomically (temp file, fsync, ``os.replace``); what a reader needs
of it (:func:`read_catalog`, :func:`table_files`, :func:`catalog_version`) and the
warehouse's folder names live here.
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
FORMAT: Final = 1


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
    if catalog.get("format") != FORMAT:
        raise WarehouseError(f"{path}: catalog format {catalog.get('format')!r}, expected {FORMAT}")
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


def unlisted_batches(root: str | Path, catalog: dict[str, Any]) -> list[Path]:
    recorded = {batch["id"] for batch in catalog.get("batches", [])}
    return [entry for entry in batch_folders(root) if entry.name not in recorded]


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


def write_catalog(root: Path, catalog: dict[str, Any]) -> None:
    """Replace the catalog atomically: a reader sees the old one or the new one, whole."""
    tmp = root / f"{CATALOG}.tmp-{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as out:
        json.dump(catalog, out, ensure_ascii=False, indent=1)
        out.flush()
        os.fsync(out.fileno())
    os.replace(tmp, root / CATALOG)
    fsync_dir(root)


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
