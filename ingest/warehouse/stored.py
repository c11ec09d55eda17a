"""The ids the listed batches hold (every ``deal_id`` with its content sha256, every
session id), kept between the ingests of one process: a page that saves one deal at a
time reads only the batches recorded since its last save, not every deal again.

What is kept covers an exact set of listed batch ids. A later catalog is read against it:
a batch already covered, or a merge of covered batches only (``merged_from``: the same
rows), costs nothing; any other batch is read (re-adding an id is harmless, so a merge by
another process of batches partly covered is simply read again); a covered batch gone
from the catalog without a merge that took it in means the catalog was replaced, and
everything is read afresh. An ingest takes the kept ids out while it runs and puts them
back only when it ends well: ids an ingest added for a batch it never recorded are
never seen by the next one.

The sha256 of every recorded source file is kept the same way (what makes a file
``known``): read from the ``batch.json`` of the batches not covered yet (format 2 keeps
them out of the catalog), so a save reads one small manifest, never every file's entry.

The catalog itself is kept the same way: the one an ingest ended with, with the size,
time and inode of the file it wrote; the next ingest of the process uses it while the
file is still that one (a catalog of 20,000 saved files is 5 MB of JSON to parse) and
reads the file when anything else wrote it since.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ingest.warehouse.catalog import BATCHES, CATALOG, batch_files, read_columns
from ingest.warehouse.known import KnownIds


@dataclass
class StoredIds:
    deals: KnownIds = field(default_factory=KnownIds)  # deal_id -> content sha256
    sessions: KnownIds = field(default_factory=KnownIds)
    shas: set[str] = field(default_factory=set)  # of every recorded source file
    covered: set[str] = field(default_factory=set)  # the batch ids whose rows are in


_KEPT: dict[Path, StoredIds] = {}
_CATALOGS: dict[Path, tuple[tuple[int, int, int], dict[str, Any]]] = {}
_GUARD = threading.Lock()


def take(root: Path, catalog: dict[str, Any]) -> StoredIds:
    """The ids the catalog's batches hold (the caller holds the warehouse's lock)."""
    with _GUARD:
        kept = _KEPT.pop(root.resolve(), None)
    batches = catalog.get("batches", [])
    listed = {batch["id"] for batch in batches}
    if kept is not None:
        merged = {name for batch in batches for name in batch.get("merged_from", [])}
        if not all(name in listed or name in merged for name in kept.covered):
            kept = None  # the catalog was replaced: read it all
    ids = kept or StoredIds()
    fresh = _fresh(batches, ids.covered)
    _add_shas(root, ids, fresh)
    deals = _files(root, fresh, "deals")
    if deals:
        table = read_columns(deals, ["deal_id", "content_sha256"])
        for deal_id, sha in zip(
            table["deal_id"].to_pylist(), table["content_sha256"].to_pylist(), strict=True
        ):
            ids.deals.add(deal_id, sha)
    sessions = _files(root, fresh, "sessions")
    if sessions:
        for session_id in read_columns(sessions, ["session_id"])["session_id"].to_pylist():
            ids.sessions.add(session_id)
    ids.covered = listed
    return ids


def keep(root: Path, ids: StoredIds, catalog: dict[str, Any]) -> None:
    """Keep ``ids`` for the next ingest: they now cover every batch ``catalog`` lists
    (an ingest that ended well: each id it added is in a batch it recorded; the files of
    the batches it recorded are read from their ``batch.json``)."""
    _add_shas(root, ids, _fresh(catalog.get("batches", []), ids.covered))
    ids.covered = {batch["id"] for batch in catalog.get("batches", [])}
    with _GUARD:
        _KEPT[root.resolve()] = ids


def forget(root: Path) -> None:
    with _GUARD:
        _KEPT.pop(root.resolve(), None)
        _CATALOGS.pop(root.resolve(), None)


def take_catalog(root: Path) -> dict[str, Any] | None:
    """The catalog the last ingest of this process ended with, if ``catalog.json`` is
    still the file it wrote; else None (read the file)."""
    with _GUARD:
        kept = _CATALOGS.pop(root.resolve(), None)
    return kept[1] if kept is not None and kept[0] == _file_key(root) else None


def keep_catalog(root: Path, catalog: dict[str, Any]) -> None:
    """Keep the catalog an ingest ended with (it is what ``catalog.json`` holds now)."""
    key = _file_key(root)
    if key is not None:
        with _GUARD:
            _CATALOGS[root.resolve()] = key, catalog


def _file_key(root: Path) -> tuple[int, int, int] | None:
    try:
        stat = os.stat(root / CATALOG)
    except OSError:
        return None
    return stat.st_size, stat.st_mtime_ns, stat.st_ino


def _fresh(batches: list[dict[str, Any]], covered: set[str]) -> list[dict[str, Any]]:
    """The batches whose rows ``covered`` does not hold (a merge of covered ones does)."""
    return [
        batch
        for batch in batches
        if batch["id"] not in covered
        and not (batch.get("merged_from") and set(batch["merged_from"]) <= covered)
    ]


def _add_shas(root: Path, ids: StoredIds, batches: list[dict[str, Any]]) -> None:
    for batch in batches:
        ids.shas.update(f["sha256"] for f in batch_files(root, batch))


def _files(root: Path, batches: list[dict[str, Any]], table: str) -> list[str]:
    return [
        str(root / BATCHES / b["id"] / part) for b in batches for part in b.get("parts", {}).get(table, [])
    ]
