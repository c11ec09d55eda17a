"""Catalog format 2 (``ingest/warehouse/catalog.py``): a save's catalog write does not grow
with the files ingested before (their entries live in each batch's ``batch.json``), a save
in a running process reads only the manifests of the batches new to it, and a format-1
catalog (files inline) still opens and is moved to format 2, no file forgotten, by the next
write."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_warehouse_compact import EVENING, a_deal, check_clean, small_batches  # noqa: F401
from warehouse_fixtures import catalog_files, sample_logs

import ingest.warehouse.catalog as catalog_module
from analytics.queries import Analytics
from dashboard.record_draft import upload_path
from ingest.sheets.record import DealFacts, log_text
from ingest.warehouse import BATCHES, CATALOG, IngestSummary, ingest, read_catalog
from ingest.warehouse.batches import write_batch
from ingest.warehouse.catalog import batch_files, write_catalog
from ingest.warehouse.stored import forget


def a_file(number: int) -> dict[str, Any]:
    return {
        "file": f"/uploads/deal-{number:06d}.jsonl",
        "sha256": f"{number:064x}",
        "bytes": 900,
        "status": "new",
        "deals": 1,
        "stray_lines": 0,
    }


def store(warehouse: Path, deal: DealFacts) -> IngestSummary:
    """A deal saved as the Record page saves it (its upload file, one ingest), unmerged."""
    text = log_text(EVENING, [deal])
    path = upload_path(warehouse, EVENING, deal, text)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return ingest([path], warehouse, workers=0, merge=False)


def test_the_catalog_entry_of_a_batch_does_not_grow_with_its_files(tmp_path: Path) -> None:
    """One batch of 1 file and one of 5,000 (a merged month of saves): the catalog's bytes
    differ by the digits of ``file_count`` only. In format 1 each file added ~240 bytes,
    rewritten by every save after."""
    sizes = []
    for count in (1, 5000):
        warehouse = tmp_path / f"w{count}"
        write_batch(warehouse, {"format": 2, "batches": []}, {}, [a_file(n) for n in range(count)])
        sizes.append((warehouse / CATALOG).stat().st_size)
        (entry,) = read_catalog(warehouse)["batches"]
        assert "files" not in entry and entry["file_count"] == count
        assert batch_files(warehouse, entry) == [a_file(n) for n in range(count)]
    assert sizes[1] - sizes[0] == len("5000") - len("1")


def test_a_save_reads_only_the_manifests_of_new_batches(
    small_batches: Path,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The second save of a process (no merge due) reads the ``batch.json`` of its own
    new batch, never one per listed batch: the per-save work stays flat however many
    batches and files the warehouse holds."""
    warehouse = small_batches
    forget(warehouse)
    store(warehouse, a_deal(11))  # the process's first: reads every manifest
    read: list[str] = []
    real = catalog_module.read_manifest

    def counting(folder: Path) -> dict[str, Any] | None:
        read.append(folder.name)
        return real(folder)

    monkeypatch.setattr(catalog_module, "read_manifest", counting)
    listed = len(read_catalog(warehouse)["batches"])
    summary = store(warehouse, a_deal(12))
    assert listed >= 9 and len(summary.batches) == 1
    assert read == summary.batches, read  # its own batch's manifest, nothing else


def test_a_format_1_catalog_opens_and_is_moved_to_format_2(tmp_path: Path) -> None:
    """A warehouse written before (format 1: every entry with its ``files``, one batch
    taken back from its Parquet files with no ``batch.json``) opens for readers as it is;
    the next ingest writes format 2, the dropped files written into ``batch.json`` first,
    and every file ingested before is still ``known``."""
    warehouse = tmp_path / "warehouse"
    logs = sample_logs(tmp_path / "logs")
    for log in logs[:2]:
        ingest([log], warehouse, workers=0, merge=False)
    store(warehouse, a_deal(1))
    catalog = read_catalog(warehouse)
    files = catalog_files(warehouse, catalog)
    entries: list[dict[str, Any]] = [
        {
            key: value
            for key, value in {**b, "files": batch_files(warehouse, b)}.items()
            if key != "file_count"
        }
        for b in catalog["batches"]
    ]
    (warehouse / CATALOG).write_text(json.dumps({"format": 1, "batches": entries}), encoding="utf-8")
    (warehouse / BATCHES / entries[1]["id"] / "batch.json").unlink()  # as a recovered batch
    forget(warehouse)
    assert read_catalog(warehouse)["format"] == 1
    assert catalog_files(warehouse, read_catalog(warehouse)) == files
    analytics = Analytics(warehouse)
    try:
        assert analytics.query("overview") is not None
    finally:
        analytics.close()
    assert [f.status for f in ingest(logs[:2], warehouse, workers=0).files] == ["known", "known"]
    assert store(warehouse, a_deal(2)).files[0].status == "new"
    text = (warehouse / CATALOG).read_text(encoding="utf-8")
    written = json.loads(text)
    assert written["format"] == 2 and '"files"' not in text
    assert catalog_files(warehouse, written)[:3] == files
    forget(warehouse)  # a new process: the shas come from the manifests alone
    assert [f.status for f in ingest(logs[:2], warehouse, workers=0).files] == ["known", "known"]
    assert store(warehouse, a_deal(1)).files[0].status == "known"
    check_clean(warehouse)


def test_write_catalog_keeps_a_manifest_that_already_holds_the_files(tmp_path: Path) -> None:
    """Moving a format-1 entry's files out rewrites ``batch.json`` only when it lacks them."""
    warehouse = tmp_path / "warehouse"
    write_batch(warehouse, {"format": 2, "batches": []}, {}, [a_file(1)])
    catalog = read_catalog(warehouse)
    manifest = warehouse / BATCHES / catalog["batches"][0]["id"] / "batch.json"
    before = manifest.stat().st_mtime_ns, manifest.stat().st_ino
    catalog["batches"][0] = {**catalog["batches"][0], "files": [a_file(1)]}
    write_catalog(warehouse, catalog)
    assert (manifest.stat().st_mtime_ns, manifest.stat().st_ino) == before
    assert "files" not in catalog["batches"][0] and catalog["format"] == 2
